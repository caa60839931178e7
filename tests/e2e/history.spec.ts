import { randomUUID } from "node:crypto";
import { DEMO_COMEDIAN, expect, test } from "./fixtures";
import { logSet } from "./support/logSet";
import { seriousViolations } from "./support/a11y";
import { toast } from "./support/ui";

test.describe("performance history", () => {
  test.describe.configure({ timeout: 150_000 });

  test("signed out: the page is not shown", async ({ page }) => {
    await page.goto("/performance-history");
    // The route group sends signed-out visitors to /auth; the page's own prompt covers any other way in.
    const prompt = page.getByText("Sign in to see your performance history.");
    await expect
      .poll(async () => new URL(page.url()).pathname === "/auth" || (await prompt.isVisible()), { timeout: 10_000 })
      .toBe(true);
    await expect(page.getByRole("list", { name: "Your sets" })).toHaveCount(0);
  });

  test("lists sets newest first, shows details, edits and deletes a set", async ({ page, signUp, runFunction }) => {
    const venueName = `Histroom${randomUUID().replace(/-/g, "").slice(0, 8)}`;
    await runFunction("fixtures:insertSceneItem", {
      title: `Tuesday Tryouts ${venueName}`,
      venueName,
      city: "New York",
      type: "open_mic",
      recurrence: "weekly",
      dayOfWeek: 2,
      startTimeLocal: "20:00",
      timeZone: "America/New_York",
    });
    await signUp(page, { name: "Hana History" });
    await page.getByRole("button", { name: "Skip onboarding" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    await page.goto("/performance-history");
    await expect(page.getByRole("heading", { level: 1, name: "Performance History" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Log your first set" })).toHaveAttribute("href", "/log-set");

    await logSet(page, venueName, 5);
    await logSet(page, venueName, 8);
    await page.goto("/performance-history");
    await expect(page.getByRole("link", { name: "Back to Dashboard" })).toHaveAttribute("href", "/dashboard");
    await expect(page.getByRole("link", { name: "Log a Set" })).toHaveAttribute("href", "/log-set");
    await expect(page.getByRole("group", { name: "Total Sets" })).toContainText("2");
    await expect(page.getByRole("group", { name: "Total Minutes" })).toContainText("13");
    await expect(page.getByRole("group", { name: "Average Set" })).toContainText("7min");

    const rows = page.getByRole("list", { name: "Your sets" }).getByRole("listitem");
    await expect(rows).toHaveCount(2);
    await expect(rows.first()).toContainText(venueName);
    // Both sets share a rounded time slot; the later-saved one is not older.
    await expect(rows.filter({ hasText: "8min" })).toHaveCount(1);
    await expect(rows.filter({ hasText: "5min" })).toHaveCount(1);

    // Details.
    const eight = rows.filter({ hasText: "8min" });
    await eight.getByRole("button", { name: /^Details/ }).click();
    const details = page.getByRole("dialog", { name: venueName });
    await expect(details).toContainText(`Tuesday Tryouts ${venueName}`);
    await expect(details).toContainText("8min");
    await details.getByRole("button", { name: "Close" }).click();

    // Edit: minutes, tags (comma-separated, empties dropped) and notes.
    await eight.getByRole("button", { name: /^Edit/ }).click();
    const edit = page.getByRole("dialog", { name: "Edit performance" });
    await edit.getByLabel("Minutes").fill("12");
    await edit.getByLabel("Tags").fill(" crowd work, , riff ");
    await edit.getByLabel("Notes").fill("New closer worked");
    await edit.getByRole("button", { name: "Save changes" }).click();
    await expect(toast(page, "Performance updated")).toBeVisible();
    await expect(edit).toHaveCount(0);
    const twelve = rows.filter({ hasText: "12min" });
    await expect(twelve).toContainText("crowd work");
    await expect(twelve).toContainText("riff");
    await expect(page.getByRole("group", { name: "Total Minutes" })).toContainText("17");

    // Minutes that are empty, not a number or 0 are refused in the form, the set kept as it was.
    await twelve.getByRole("button", { name: /^Edit/ }).click();
    for (const minutes of ["lots", "", "0", "-4"]) {
      await edit.getByLabel("Minutes").fill(minutes);
      await edit.getByRole("button", { name: "Save changes" }).click();
      await expect(edit.getByRole("alert")).toHaveText("Minutes must be a whole number from 1 to 600");
    }
    // Notes show a counter near their cap, and the server's message past it.
    const notes = edit.getByLabel("Notes");
    await edit.getByLabel("Minutes").fill("12");
    await notes.fill("x".repeat(1500));
    await expect(edit.getByText(/characters$/)).toHaveCount(0);
    await notes.fill("x".repeat(1990));
    await expect(edit.getByText("1,990 / 2,000 characters")).toBeVisible();
    await notes.fill("x".repeat(2001));
    await expect(edit.getByText("2,001 / 2,000 characters")).toBeVisible();
    await edit.getByRole("button", { name: "Save changes" }).click();
    await expect(edit.getByRole("alert")).toHaveText("Notes must be 2000 characters or fewer");
    await edit.getByRole("button", { name: "Cancel" }).click();
    await expect(edit).toHaveCount(0);
    await expect(rows.filter({ hasText: "0min" })).toHaveCount(0);
    await expect(page.getByRole("group", { name: "Total Minutes" })).toContainText("17");

    // Delete, with the confirmation and the 'session-deleted' browser event.
    await page.evaluate(() => {
      (window as unknown as { __deleted: number }).__deleted = 0;
      window.addEventListener("session-deleted", () => {
        (window as unknown as { __deleted: number }).__deleted += 1;
      });
    });
    await rows
      .filter({ hasText: "12min" })
      .getByRole("button", { name: /^Delete/ })
      .click();
    const confirm = page.getByRole("alertdialog", { name: "Delete this performance?" });
    await confirm.getByRole("button", { name: "Delete" }).click();
    await expect(toast(page, "Performance deleted")).toBeVisible();
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText("5min");
    await expect(page.getByRole("group", { name: "Total Sets" })).toContainText("1");
    expect(await page.evaluate(() => (window as unknown as { __deleted: number }).__deleted)).toBe(1);
  });

  test("pages 25 sets at a time with Load more", async ({ page, signUp, runFunction }) => {
    const creds = await signUp(page, { name: "Lou Longrun" });
    await page.getByRole("button", { name: "Skip onboarding" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await runFunction("fixtures:insertSets", { email: creds.email, count: 30, venueName: "Marathon Room" });
    await page.goto("/performance-history");
    await expect(page.getByRole("group", { name: "Total Sets" })).toContainText("30");
    const rows = page.getByRole("list", { name: "Your sets" }).getByRole("listitem");
    await expect(rows).toHaveCount(25);
    await page.getByRole("button", { name: "Load more" }).click();
    await expect(rows).toHaveCount(30);
    await expect(page.getByRole("button", { name: "Load more" })).toHaveCount(0);
  });

  test("axe finds nothing serious, at desktop width and at 375 px", async ({ page, signIn }) => {
    await signIn(page, DEMO_COMEDIAN);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/performance-history");
      await expect(page.getByRole("heading", { level: 1, name: "Performance History" })).toBeVisible();
      await expect(page.getByRole("group", { name: "Total Sets" })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      // Nothing sticks out sideways on a phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    }
  });
});
