import type { Page } from "@playwright/test";
import { DEMO_COMEDIAN, expect, test } from "./fixtures";
import { mainHeading } from "./support/ui";

type CommunityStats = { venues: number; hoursLogged: number; cities: number; comedians: number };

/** The figure shown on the landing page above a stats label (e.g. "Venues"). */
function statFigure(page: Page, key: keyof CommunityStats) {
  return page.getByRole("region", { name: "The community so far" }).getByTestId(`stat-${key}`);
}

test.describe("landing page", () => {
  test("it introduces StageTime with sign-up choices and three feature cards", async ({ page }) => {
    await page.goto("/");
    await expect(mainHeading(page)).toBeVisible();
    await expect(page.getByRole("button", { name: "Sign up with Google" })).toBeVisible();
    const emailSignUp = page.getByRole("link", { name: "Sign up with email" });
    await expect(emailSignUp).toBeVisible();
    await expect(page.getByRole("main").getByRole("link", { name: "Sign in" })).toBeVisible();
    await expect(page.getByRole("main").getByRole("heading", { level: 3 })).toHaveCount(3);

    await emailSignUp.click();
    await expect(page).toHaveURL(/\/auth$/);
    // It opens the form in Create Account mode.
    await expect(page.getByRole("button", { name: "Create Account", exact: true })).toBeVisible();
  });

  test("the community stats are the database's figures, and they are live", async ({ page, runFunction }) => {
    const before = await runFunction<CommunityStats>("community:stats", {});
    // The demo seed has a real scene: these are not the spec's marketing numbers.
    expect(before.venues).toBeGreaterThanOrEqual(40);
    expect(before.cities).toBeGreaterThanOrEqual(4);

    await page.goto("/");
    await expect(statFigure(page, "venues")).toContainText(String(before.venues));
    await expect(statFigure(page, "cities")).toContainText(String(before.cities));
    await expect(statFigure(page, "comedians")).toContainText(String(before.comedians));
    await expect(statFigure(page, "venues")).toContainText("Venues");

    // A new mic in a city the scene did not have yet shows up without a reload.
    const city = `Testville ${Date.now().toString(36)}`;
    await runFunction("fixtures:insertSceneItem", {
      title: "Landing Page Live Mic",
      venueName: "The Counter Club",
      city,
      type: "open_mic",
      recurrence: "weekly",
      dayOfWeek: 3,
      startTimeLocal: "20:00",
      timeZone: "America/Chicago",
    });
    await expect(statFigure(page, "venues")).toContainText(String(before.venues + 1));
    await expect(statFigure(page, "cities")).toContainText(String(before.cities + 1));
  });

  test("a signed-in visitor of / lands on the dashboard", async ({ page, signIn }) => {
    await signIn(page, DEMO_COMEDIAN);
    await page.goto("/");
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});
