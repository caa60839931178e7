import { DEMO_COMEDIAN, expect, test } from "./fixtures";
import type { Page } from "@playwright/test";
import { readState } from "./support/state";
import { openAvatarMenu } from "./support/ui";

/** The blurred, inert copy of a section that a signed-out visitor previews. */
async function expectBlurredPreview(page: Page): Promise<void> {
  const preview = page.locator("[inert]").first();
  await expect(preview).toBeAttached();
  const filter = await preview.evaluate((el) => {
    // The blur may sit on the inert element or on a wrapper around it.
    for (let node: Element | null = el; node; node = node.parentElement) {
      const f = getComputedStyle(node).filter;
      if (f && f !== "none") return f;
    }
    return "none";
  });
  expect(filter).toContain("blur");
}

test.describe("preview gate", () => {
  for (const [path, section] of [
    ["/dashboard", "Dashboard"],
    ["/schedule", "Schedule"],
  ] as const) {
    test(`a signed-out visitor of ${path} sees a blurred preview and a sign-up offer`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(page.getByRole("heading", { name: `Sign up to access ${section}` })).toBeVisible();
      await expectBlurredPreview(page);

      // The offer opens the sign-up dialog with Google and email.
      await page
        .getByRole("button", { name: /sign up/i })
        .first()
        .click();
      const dialog = page.getByRole("dialog");
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole("button", { name: /with Google/ })).toBeVisible();
      await expect(dialog.getByLabel("Email", { exact: true })).toBeVisible();
      await expect(dialog.getByLabel("Password", { exact: true })).toBeVisible();
      await expect(dialog.getByRole("button", { name: "Create Account" })).toBeVisible();
    });
  }

  test("signing up from the preview dialog opens the app", async ({ page }) => {
    await page.goto("/schedule");
    await page
      .getByRole("button", { name: /sign up/i })
      .first()
      .click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Email", { exact: true }).fill(`gate-${Date.now()}@example.com`);
    await dialog.getByLabel("Password", { exact: true }).fill("gate-password");
    await dialog.getByRole("button", { name: "Create Account" }).click();
    // A brand-new comedian still needs onboarding: the startup gate sends them there.
    await expect(page).toHaveURL(/\/onboarding\/welcome$/, { timeout: 20_000 });
  });
});

test.describe("startup gate", () => {
  test("a signed-out visitor of a signed-in page goes to /auth", async ({ page }) => {
    await page.goto("/profile");
    await expect(page).toHaveURL(/\/auth$/);
  });

  test("a comedian who has not finished onboarding is sent to it", async ({ page, signUp }) => {
    await signUp(page);
    await page.goto("/profile");
    await expect(page).toHaveURL(/\/onboarding\/welcome$/);
  });

  test("skipping onboarding opens the dashboard and it stays open", async ({ page, signUp }) => {
    await signUp(page);
    await expect(page).toHaveURL(/\/onboarding\/welcome$/);
    await page.getByRole("button", { name: "Skip onboarding" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.reload();
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});

test.describe("admin gate", () => {
  test("a signed-in comedian who is not an admin sees Access Denied", async ({ page, signIn }) => {
    await signIn(page, DEMO_COMEDIAN);
    // No Admin entry in a comedian's avatar menu…
    await openAvatarMenu(page);
    await expect(page.getByRole("menuitem", { name: "Profile" })).toBeVisible();
    // Profile shows at once; Admin waits on the profile queries, answered once the name shows.
    await expect(page.getByRole("menu").getByText("Dana Demo", { exact: true })).toBeVisible();
    await expect(page.getByRole("menuitem", { name: "Admin" })).toHaveCount(0);
    await page.keyboard.press("Escape");
    // …and typing the address does not help.
    await page.goto("/admin");
    await expect(page.getByRole("heading", { name: "Access Denied" })).toBeVisible();
    await expect(page.getByText("You don't have permission to access the admin panel.")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Admin Dashboard" })).toHaveCount(0);
    await page.getByRole("button", { name: "Go Back" }).click();
    await expect(page).not.toHaveURL(/\/admin$/);
  });

  test("a signed-out visitor of /admin goes to /auth", async ({ page }) => {
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/auth$/);
  });

  test("an admin opens the admin dashboard and sees Admin in the avatar menu", async ({ page, signInAsAdmin }) => {
    await signInAsAdmin(page);
    await openAvatarMenu(page);
    await page.getByRole("menuitem", { name: "Admin" }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole("heading", { name: "Admin Dashboard" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Access Denied" })).toHaveCount(0);
  });

  test("ADMIN_EMAILS makes an admin of a Google sign-in whose email Google verified", async ({ page, google }) => {
    const { adminEmail } = readState();
    await google.nextIdentity({ email: adminEmail, name: "Ada Admin" });
    await page.goto("/");
    await page.getByRole("button", { name: "Sign up with Google" }).click();
    await expect(page).toHaveURL(/\/onboarding\/welcome$/, { timeout: 30_000 });
    await page.getByRole("button", { name: "Skip onboarding" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto("/admin");
    await expect(page.getByRole("heading", { name: "Admin Dashboard" })).toBeVisible();
  });

  test("a password sign-up with an ADMIN_EMAILS address is not an admin (nothing proved the email)", async ({
    page,
    signUp,
  }) => {
    const { adminEmail } = readState();
    await signUp(page, { email: adminEmail });
    await page.getByRole("button", { name: "Skip onboarding" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto("/admin");
    await expect(page.getByRole("heading", { name: "Access Denied" })).toBeVisible();
  });

  test("an admin right granted with the CLI takes effect", async ({ page, signUp, runFunction }) => {
    const creds = await signUp(page);
    await page.getByRole("button", { name: "Skip onboarding" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto("/admin");
    await expect(page.getByRole("heading", { name: "Access Denied" })).toBeVisible();
    await runFunction("admin:setAdmin", { email: creds.email, isAdmin: true });
    // isAdmin is a live query: no reload needed.
    await expect(page.getByRole("heading", { name: "Admin Dashboard" })).toBeVisible();
  });
});
