import type { Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import { expect, test } from "./fixtures";
import { logSet } from "./support/logSet";
import { toast } from "./support/ui";

const NY = "America/New_York";
test.use({ timezoneId: NY });

const ring = (page: Page) => page.getByRole("progressbar", { name: "Weekly goal progress" });

async function setGoal(page: Page, value: string) {
  await page.getByRole("button", { name: "Edit goal" }).click();
  const dialog = page.getByRole("dialog", { name: "Weekly goal" });
  await dialog.getByLabel("Minutes per week").fill(value);
  await dialog.getByRole("button", { name: "Save goal" }).click();
  return dialog;
}

test.describe("the dashboard", () => {
  test.describe.configure({ timeout: 120_000 });

  test("a set logged in another tab and a new goal move the ring and its text", async ({
    page,
    context,
    signUp,
    runFunction,
  }) => {
    const venueName = `Dashroom${randomUUID().replace(/-/g, "").slice(0, 8)}`;
    await runFunction("fixtures:insertSceneItem", {
      title: `Thursday Tryouts ${venueName}`,
      venueName,
      city: "New York",
      type: "open_mic",
      recurrence: "weekly",
      dayOfWeek: 4,
      startTimeLocal: "20:00",
      timeZone: NY,
    });
    await signUp(page, { name: "Robin Laughs" });
    await expect(page).toHaveURL(/\/onboarding\/welcome$/);
    await page.getByRole("button", { name: "Skip onboarding" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    // A comedian who just signed up is welcomed, by the name they gave, not welcomed back.
    await expect(page.getByRole("heading", { level: 1, name: "Welcome, Robin!" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: /Welcome back/ })).toHaveCount(0);
    await expect(page.getByText(`Member since ${format(new TZDate(Date.now(), NY), "MMMM yyyy")}`)).toBeVisible();
    await expect(page.getByTestId("goal-text")).toHaveText("No minutes yet this week");
    await expect(page.getByTestId("goal-minutes")).toHaveText("0 of 15 minutes");
    await expect(ring(page)).toHaveAttribute("aria-valuenow", "0");
    await expect(page.getByText("Log your first set to earn badges")).toBeVisible();
    await expect(page.getByRole("link", { name: "Log a Set" })).toHaveAttribute("href", "/log-set");
    await expect(page.getByRole("link", { name: /Browse Scene/ })).toHaveAttribute("href", "/scene");

    // Another tab logs a 6-minute set; this one updates without a reload.
    const other = await context.newPage();
    await logSet(other, venueName, 6);
    await other.close();
    await expect(page.getByTestId("goal-minutes")).toHaveText("6 of 15 minutes");
    await expect(page.getByRole("heading", { level: 1, name: "Welcome, Robin!" })).toBeVisible();
    await expect(page.getByTestId("goal-text")).toHaveText("40% complete");
    await expect(ring(page)).toHaveAttribute("aria-valuenow", "40");
    await expect(page.getByRole("link", { name: /^Total Minutes: 6\./ })).toHaveAttribute(
      "href",
      "/performance-history",
    );
    await expect(page.getByRole("group", { name: "Total Sets" })).toContainText("1");
    await expect(page.getByRole("group", { name: "Average Length" })).toContainText("6min");
    const badges = page.getByRole("list", { name: "Earned badges" });
    await expect(badges.getByRole("link", { name: /First Timer/ })).toHaveAttribute("href", "/badges");

    // Out of range and fractional goals are refused with the spec's toast.
    let dialog = await setGoal(page, "150");
    await expect(toast(page, "Invalid goal")).toContainText("Please enter a goal between 1 and 100 minutes.");
    await dialog.getByLabel("Minutes per week").fill("7.5");
    await dialog.getByRole("button", { name: "Save goal" }).click();
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByTestId("goal-minutes")).toHaveText("6 of 15 minutes");

    dialog = await setGoal(page, "5");
    await expect(toast(page, "Goal updated!")).toContainText("Your weekly goal is now 5 minutes.");
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId("goal-text")).toHaveText("Goal achieved! Keep the momentum going!");
    await expect(page.getByTestId("goal-minutes")).toHaveText("6 of 5 minutes");
    await expect(ring(page)).toHaveAttribute("aria-valuenow", "100");

    await setGoal(page, "20");
    await expect(toast(page, "Your weekly goal is now 20 minutes.")).toBeVisible();
    await expect(page.getByTestId("goal-text")).toHaveText("30% complete");
    await expect(ring(page)).toHaveAttribute("aria-valuenow", "30");
    // Saved on the profile: a reload keeps it.
    await page.reload();
    await expect(page.getByTestId("goal-minutes")).toHaveText("6 of 20 minutes");

    // The set shows on this week's schedule, where 'Delete Performance Log' asks first.
    await page.goto("/schedule");
    const set = page.getByRole("listitem", { name: `Thursday Tryouts ${venueName}` });
    await expect(set).toContainText("Logged set · 6min");
    await set.getByRole("button", { name: "Delete Performance Log" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Delete this performance log?" });
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(set).toBeVisible();
    await set.getByRole("button", { name: "Delete Performance Log" }).click();
    await confirm.getByRole("button", { name: "Delete" }).click();
    await expect(toast(page, "Performance log deleted")).toBeVisible();
    await expect(set).toHaveCount(0);
    await page.goto("/dashboard");
    await expect(page.getByTestId("goal-text")).toHaveText("No minutes yet this week");
    await expect(page.getByRole("heading", { level: 1, name: "Welcome, Robin!" })).toBeVisible();
  });

  test("signed out, the dashboard is a blurred preview", async ({ page }) => {
    await page.goto("/dashboard");
    await expect(page.getByRole("heading", { level: 1, name: "Sign up to access Dashboard" })).toBeVisible();
    await expect(page.getByTestId("preview-content")).toHaveAttribute("aria-hidden", "true");
    // The sample's streak flame and badge icons are drawn (SVG with names), not emoji that
    // depend on the machine's fonts.
    const preview = page.getByTestId("preview-content");
    const streak = preview.locator("p", { hasText: "2-day streak" });
    await expect(streak.locator('svg[role="img"][aria-label="Flame"]')).toHaveCount(1);
    const badges = preview.locator('ul[aria-label="Earned badges"]');
    for (const name of ["Microphone", "Stopwatch", "Flame"]) {
      await expect(badges.locator(`svg[role="img"][aria-label="${name}"]`)).toHaveCount(1);
    }
    expect(await preview.innerText()).not.toMatch(/\p{Extended_Pictographic}/u);
  });
});
