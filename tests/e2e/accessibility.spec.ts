import { expect, test } from "./fixtures";
import { seriousViolations } from "./support/a11y";
import { pageVisits } from "./support/pages";
import { smallTargets } from "./support/targetSize";
import { mainHeading } from "./support/ui";

// Every main screen, on a desktop and on a phone: no serious or critical axe violations, and
// targets a finger (phone: 44 × 44 px) or a pointer (desktop: 24 × 24 px) can hit; the rule is
// spelled out in support/targetSize.ts.
const widths = [
  { name: "desktop", use: {}, targets: "minimum" },
  {
    name: "390 px phone",
    use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
    targets: "comfortable",
  },
] as const;

for (const width of widths) {
  test.describe(`accessibility (axe and target size), ${width.name}`, () => {
    test.use(width.use);
    for (const visit of pageVisits) {
      test(`${visit.name} has no serious or critical violations and no small targets`, async ({
        page,
        signIn,
        signUp,
        runFunction,
      }) => {
        await visit.open(page, { signIn, signUp, runFunction });
        await expect(mainHeading(page)).toHaveAccessibleName(visit.heading);
        // Let loading skeletons settle into content before scanning.
        await page.waitForLoadState("networkidle");
        expect(await seriousViolations(page, { excludeToasts: visit.toasts })).toEqual([]);
        expect(await smallTargets(page, width.targets)).toEqual([]);
      });
    }
  });
}

test.describe("accessibility (axe), dark mode", () => {
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
