import { expect, test } from "./fixtures";
import { seriousViolations } from "./support/a11y";
import { pageVisits } from "./support/pages";
import { mainHeading } from "./support/ui";

test.describe("accessibility (axe)", () => {
  for (const visit of pageVisits) {
    test(`${visit.name} has no serious or critical violations`, async ({ page, signIn, signUp, runFunction }) => {
      await visit.open(page, { signIn, signUp, runFunction });
      await expect(mainHeading(page)).toHaveAccessibleName(visit.heading);
      // Let loading skeletons settle into content before scanning.
      await page.waitForLoadState("networkidle");
      expect(await seriousViolations(page)).toEqual([]);
    });
  }

  for (const name of ["landing", "scene", "auth"]) {
    test(`${name} in dark mode has no serious or critical violations`, async ({
      page,
      signIn,
      signUp,
      runFunction,
    }) => {
      await page.emulateMedia({ colorScheme: "dark" });
      const visit = pageVisits.find((v) => v.name === name)!;
      await visit.open(page, { signIn, signUp, runFunction });
      await expect(mainHeading(page)).toHaveAccessibleName(visit.heading);
      await page.waitForLoadState("networkidle");
      expect(await seriousViolations(page)).toEqual([]);
    });
  }
});
