import { DEMO_COMEDIAN, expect, test } from "./fixtures";
import { pageVisits } from "./support/pages";
import { mainHeading } from "./support/ui";

test.use({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });

test.describe("375 px wide", () => {
  for (const visit of pageVisits) {
    test(`${visit.name} fits without horizontal scrolling`, async ({ page, signIn, signUp, runFunction }) => {
      await visit.open(page, { signIn, signUp, runFunction });
      const heading = mainHeading(page);
      await expect(heading).toHaveAccessibleName(visit.heading);
      await expect(heading).toBeVisible();
      await expect(heading).toBeInViewport();
      await page.waitForLoadState("networkidle");
      const scrollWidth = await page.evaluate(() => document.scrollingElement?.scrollWidth ?? 0);
      expect(scrollWidth).toBeLessThanOrEqual(375);
    });
  }

  test("the top bar still reaches every section", async ({ page, signIn }) => {
    await signIn(page, DEMO_COMEDIAN);
    const bar = page.getByRole("banner");
    for (const [name, path] of [
      ["Schedule", /\/schedule$/],
      ["Scene", /\/scene$/],
      ["Dashboard", /\/dashboard$/],
    ] as const) {
      await bar.getByRole("link", { name }).click();
      await expect(page).toHaveURL(path);
    }
  });
});
