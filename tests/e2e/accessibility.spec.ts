import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { pageVisits } from "./support/pages";
import { mainHeading } from "./support/ui";

/** Serious and critical WCAG 2.1 A/AA violations on the current page, as readable lines. */
async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).slice(0, 5).join(", ")})`);
}

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
    test(`${name} in dark mode has no serious or critical violations`, async ({ page, signIn, signUp, runFunction }) => {
      await page.emulateMedia({ colorScheme: "dark" });
      const visit = pageVisits.find((v) => v.name === name)!;
      await visit.open(page, { signIn, signUp, runFunction });
      await expect(mainHeading(page)).toHaveAccessibleName(visit.heading);
      await page.waitForLoadState("networkidle");
      expect(await seriousViolations(page)).toEqual([]);
    });
  }
});
