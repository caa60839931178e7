import { randomUUID } from "node:crypto";
import { DEMO_COMEDIAN, expect, test } from "./fixtures";
import { logSet } from "./support/logSet";
import { seriousViolations } from "./support/a11y";

test.describe("the badge showcase", () => {
  test.describe.configure({ timeout: 120_000 });

  test("empty at first, then First Timer after the first set", async ({ page, signUp, runFunction }) => {
    const venueName = `Badgeroom${randomUUID().replace(/-/g, "").slice(0, 8)}`;
    await runFunction("fixtures:insertSceneItem", {
      title: `Friday Mic ${venueName}`,
      venueName,
      city: "New York",
      type: "open_mic",
      recurrence: "weekly",
      dayOfWeek: 5,
      startTimeLocal: "20:00",
      timeZone: "America/New_York",
    });
    await signUp(page, { name: "Bea Badges" });
    await page.getByRole("button", { name: "Skip onboarding" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    await page.goto("/badges");
    await expect(page.getByRole("heading", { level: 1, name: "Badge Showcase" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Back to Dashboard" })).toHaveAttribute("href", "/dashboard");
    await expect(page.getByRole("link", { name: "Log your first set" })).toHaveAttribute("href", "/log-set");
    await expect(page.getByRole("group", { name: "Complete" })).toContainText("0%");
    await expect(page.getByRole("group", { name: "To Earn" })).toContainText("11");
    await expect(page.getByRole("region", { name: "Next Milestone" })).toHaveCount(0);

    await logSet(page, venueName, 6);
    await page.goto("/badges");
    const earned = page.getByRole("list", { name: "Earned badges" });
    await expect(earned.getByRole("listitem", { name: "First Timer" })).toBeVisible();
    await expect(earned.getByRole("listitem")).toHaveCount(1);
    // First Timer is common: no rarity label.
    await expect(earned.getByRole("listitem", { name: "First Timer" })).not.toContainText("Common");
    await expect(page.getByRole("group", { name: "Complete" })).toContainText("9%");
    await expect(page.getByRole("group", { name: "To Earn" })).toContainText("10");
    // One day of a 3-day streak (33%) beats 6 of 100 minutes (6%).
    const next = page.getByRole("region", { name: "Next Milestone" });
    await expect(next).toContainText("Getting Started");
    await expect(next).toContainText("33%");
    // Rarer badges still to earn carry their rarity.
    const toEarn = page.getByRole("list", { name: "Badges to earn" });
    await expect(toEarn.getByRole("listitem", { name: "Streak Legend" })).toContainText("Legendary");
    await expect(toEarn.getByRole("listitem", { name: "Century Club" })).toContainText("Rare");
    await expect(page.getByRole("link", { name: "Log your first set" })).toHaveCount(0);
    // Icons are drawn with names, never emoji (empty boxes without an emoji font).
    await expect(
      earned.getByRole("listitem", { name: "First Timer" }).getByRole("img", { name: "Microphone" }),
    ).toBeVisible();
    await expect(
      toEarn.getByRole("listitem", { name: "Streak Legend" }).getByRole("img", { name: "Crown" }),
    ).toBeVisible();
    await expect(
      toEarn.getByRole("listitem", { name: "Community Builder" }).getByRole("img", { name: "People" }),
    ).toBeVisible();
    await expect(next.getByRole("img", { name: "Flame" })).toBeVisible();
    expect(await page.getByRole("main").innerText()).not.toMatch(/\p{Extended_Pictographic}/u);
  });

  test("axe finds nothing serious, at desktop width and at 375 px", async ({ page, signIn }) => {
    await signIn(page, DEMO_COMEDIAN);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/badges");
      await expect(page.getByRole("heading", { level: 1, name: "Badge Showcase" })).toBeVisible();
      await expect(page.getByRole("group", { name: "Complete" })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      // Nothing sticks out sideways on a phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    }
  });
});
