import { DEMO_COMEDIAN, expect, test } from "./fixtures";
import { pageVisits } from "./support/pages";
import { mainHeading, toast } from "./support/ui";

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

/** Whether two boxes overlap. */
function overlaps(a: { x: number; y: number; width: number; height: number }, b: typeof a): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

for (const width of [
  { name: "390 px phone", use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
  { name: "desktop", use: { viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false } },
]) {
  test.describe(width.name, () => {
    test.use(width.use);

    test("a toast covers neither the top bar nor the wizard's step counter", async ({ page, signUp }) => {
      // The onboarding's venue step answers "Next" without a venue with a toast.
      await signUp(page);
      await page.getByRole("link", { name: "Get Started" }).click();
      const counter = page.getByRole("progressbar", { name: /^Step 2 of \d+$/ });
      await expect(counter).toBeVisible();
      await page.getByRole("button", { name: "Next" }).click();
      const shown = toast(page, "Please select a venue");
      await expect(shown).toBeVisible();
      // Wait for the toast's entrance to finish before measuring it.
      await expect(async () => {
        const first = await shown.boundingBox();
        await page.waitForTimeout(100);
        expect(await shown.boundingBox()).toEqual(first);
      }).toPass();
      const box = (await shown.boundingBox())!;
      for (const covered of [page.getByRole("banner"), counter]) {
        expect(overlaps(box, (await covered.boundingBox())!)).toBe(false);
      }
    });
  });
}

test.describe("the scene's filters on a 390 px phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("fold behind a Filters button with a count, so the first listing shows without scrolling", async ({ page }) => {
    await page.goto("/scene");
    const button = page.getByRole("button", { name: "Filters", exact: true });
    await expect(button).toHaveAttribute("aria-expanded", "false");
    const search = page.getByLabel("Search mics, venues or cities");
    await expect(search).toBeHidden();
    // The first listing (Tonight's, at the top) is on screen, and the list's own cards follow
    // the folded filters straight away.
    await expect(page.getByTestId("tonight-night").or(page.getByTestId("scene-card")).first()).toBeInViewport();
    const firstCard = page.getByTestId("scene-card").first();
    await expect(firstCard).toBeVisible();
    const gap =
      (await firstCard.boundingBox())!.y - ((await button.boundingBox())!.y + (await button.boundingBox())!.height);
    expect(gap).toBeLessThan(100);

    await button.click();
    await expect(button).toHaveAttribute("aria-expanded", "true");
    await expect(search).toBeVisible();
    await page.getByRole("group", { name: "Event type" }).getByRole("button", { name: "Show" }).click();
    await page.getByRole("group", { name: "Day" }).getByRole("button", { name: "Sat" }).click();
    const counted = page.getByRole("button", { name: "Filters, 2 on" });
    await expect(counted).toContainText("2");
    await counted.click();
    await expect(search).toBeHidden();
  });

  test("stay open without a Filters button on a desktop", async ({ browser }) => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await page.goto("/scene");
    await expect(page.getByLabel("Search mics, venues or cities")).toBeVisible();
    await expect(page.getByRole("button", { name: /^Filters/ })).toBeHidden();
    await page.context().close();
  });
});
