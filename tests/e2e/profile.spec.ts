import type { Page } from "@playwright/test";
import fs from "node:fs";
import { DEMO_COMEDIAN, expect, test } from "./fixtures";
import { seriousViolations } from "./support/a11y";
import { toast, topBar } from "./support/ui";

/** A 1x1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

async function newComedianOnProfile(page: Page, signUp: (page: Page, opts?: { name?: string }) => Promise<unknown>) {
  const creds = await signUp(page, { name: "Pat Punchline" });
  await expect(page).toHaveURL(/\/onboarding\/welcome$/);
  await page.getByRole("button", { name: "Skip onboarding" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/profile");
  await expect(page.getByRole("heading", { level: 1, name: "Profile" })).toBeVisible();
  return creds as { email: string; password: string };
}

test.describe("the profile page", () => {
  test.describe.configure({ timeout: 120_000 });

  test("photo upload: a PNG shows in the top bar; a 6 MB image and a PDF are refused", async ({ page, signUp }) => {
    await newComedianOnProfile(page, signUp);
    const photoInput = page.getByLabel("Profile photo");

    await photoInput.setInputFiles({ name: "big.png", mimeType: "image/png", buffer: Buffer.alloc(6 * 1024 * 1024) });
    await expect(toast(page, "Image must be less than 5MB")).toBeVisible();
    await photoInput.setInputFiles({
      name: "setlist.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.from("%PDF-1.4\n"),
    });
    await expect(toast(page, "Please select an image file")).toBeVisible();
    await expect(page.getByRole("img", { name: "Your profile photo" })).toHaveCount(0);

    await photoInput.setInputFiles({ name: "me.png", mimeType: "image/png", buffer: PNG });
    await expect(toast(page, "Photo updated")).toBeVisible();
    const profilePhoto = page.getByRole("img", { name: "Your profile photo" });
    await expect(profilePhoto).toBeVisible();
    const src = await profilePhoto.getAttribute("src");
    expect(src).toBeTruthy();
    // The avatar in the top bar shows the same stored file.
    const barPhoto = topBar(page).getByRole("button", { name: "Account menu" }).locator("img");
    await expect(barPhoto).toHaveAttribute("src", src!);
    // The stored file is served back as the PNG that was sent.
    const served = await page.request.get(src!);
    expect(served.ok()).toBe(true);
    expect(Buffer.from(await served.body()).equals(PNG)).toBe(true);
  });

  test("Save Changes keeps name, goal and city; export downloads the data", async ({ page, signUp }) => {
    await newComedianOnProfile(page, signUp);
    const now = new Date();
    await expect(
      page.getByText(`Member since ${now.toLocaleString("en-US", { month: "long" })} ${now.getFullYear()}`),
    ).toBeVisible();
    const form = page.getByRole("form", { name: "Profile" });
    await expect(form.getByLabel("Display name")).toHaveValue("Pat Punchline");
    await expect(form.getByLabel("Weekly goal (minutes)")).toHaveValue("15");

    await form.getByLabel("Weekly goal (minutes)").fill("1001");
    await form.getByRole("button", { name: "Save Changes" }).click();
    await expect(form.getByRole("alert")).toHaveText("Enter a whole number from 1 to 1000.");

    await form.getByLabel("Display name").fill("  Pat P. ");
    await form.getByLabel("Weekly goal (minutes)").fill("500");
    await form.getByLabel("Default city").fill("Chicago");
    await form.getByRole("button", { name: "Save Changes" }).click();
    await expect(toast(page, "Profile updated")).toBeVisible();

    await page.reload();
    const reloaded = page.getByRole("form", { name: "Profile" });
    await expect(reloaded.getByLabel("Display name")).toHaveValue("Pat P.");
    await expect(reloaded.getByLabel("Weekly goal (minutes)")).toHaveValue("500");
    await expect(reloaded.getByLabel("Default city")).toHaveValue("Chicago");

    const downloading = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export Data" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe("stagetime-export.json");
    const data = JSON.parse(fs.readFileSync((await download.path())!, "utf8")) as {
      profile: { displayName: string; weeklyGoalMinutes: number; defaultCity: string };
      sets: unknown[];
    };
    expect(data.profile).toMatchObject({ displayName: "Pat P.", weeklyGoalMinutes: 500, defaultCity: "Chicago" });
    expect(data.sets).toEqual([]);

    await expect(page.getByRole("link", { name: "Back to Dashboard" })).toHaveAttribute("href", "/dashboard");
  });

  test("Delete Account asks for DELETE, removes the account and signs out", async ({ page, signUp, signIn }) => {
    const creds = await newComedianOnProfile(page, signUp);
    await page.getByRole("button", { name: "Delete Account" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Delete your account?" });
    const confirm = dialog.getByRole("button", { name: "Delete my account" });
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel("Type DELETE to confirm").fill("delete");
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel("Type DELETE to confirm").fill("DELETE");
    await confirm.click();
    await expect(toast(page, "Account deleted")).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    // The top bar shows nothing while the session loads: wait for its signed-out side.
    await expect(topBar(page).getByRole("link", { name: "Sign In" })).toBeVisible();
    await expect(topBar(page).getByRole("button", { name: "Account menu" })).toHaveCount(0);

    // The account is gone: its password no longer signs in.
    await signIn(page, creds, { waitForApp: false });
    await expect(toast(page, "Sign in failed")).toBeVisible();
    await expect(page).toHaveURL(/\/auth$/);
  });

  test("Sign Out goes to the landing page", async ({ page, signUp }) => {
    await newComedianOnProfile(page, signUp);
    await page.getByRole("main").getByRole("button", { name: "Sign Out" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(topBar(page).getByRole("link", { name: "Sign In" })).toBeVisible();
    await expect(topBar(page).getByRole("button", { name: "Account menu" })).toHaveCount(0);
  });

  test("axe finds nothing serious, at desktop width and at 375 px", async ({ page, signIn }) => {
    await signIn(page, DEMO_COMEDIAN);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/profile");
      await expect(page.getByRole("heading", { level: 1, name: "Profile" })).toBeVisible();
      await expect(page.getByRole("form", { name: "Profile" })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      // Nothing sticks out sideways on a phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    }
  });
});
