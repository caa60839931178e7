import path from "node:path";
import { DEMO_COMEDIAN, expect, test } from "./fixtures";
import { repoRoot } from "./support/backend";
import { offerInstall } from "./support/installOffer";

/**
 * The README's "On your phone" image: the app opened with no network at a phone's width.
 * Not part of `npm test`: `E2E_SCREENSHOTS=1 npx playwright test --grep @screenshots`.
 */
test.describe("README screenshots, on your phone @screenshots", () => {
  test.use({
    serviceWorkers: "allow",
    // A phone's width; tall enough to hold the whole offline page without the sticky bar repeating.
    viewport: { width: 390, height: 1400 },
    colorScheme: "light",
    timezoneId: "America/New_York",
  });

  test("offline: the saved night and a set waiting to sync", async ({ page, context, signIn }) => {
    await signIn(page, DEMO_COMEDIAN);
    await page.goto("/schedule");
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    // The copy is written once the week, the last sets and the lists have loaded.
    await page.waitForLoadState("networkidle");
    await context.setOffline(true);
    await page.reload();
    await expect(page.getByText(/^Offline — showing what you had at/)).toBeVisible();
    const form = page.getByRole("form", { name: "Log a set offline" });
    await form.getByRole("combobox", { name: "Where" }).click();
    await page.getByRole("option", { name: "Somewhere else" }).click();
    await form.getByLabel("Venue").fill("The Basement Bar");
    await form.getByLabel("Minutes").fill("6");
    await form.getByRole("button", { name: "Save set" }).click();
    await expect(page.getByRole("region", { name: "Sets saved on this phone" })).toContainText("Waiting to sync");
    await expect(page.getByText("Set saved on this phone")).toHaveCount(0, { timeout: 20_000 });
    await page.screenshot({ path: path.join(repoRoot, "docs/screenshots/offline.png") });
  });

  test("the dashboard's offer to install", async ({ page, signUp }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signUp(page, { name: "Casey Comic" });
    await page.getByRole("button", { name: "Skip onboarding" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await offerInstall(page);
    await expect(page.getByRole("region", { name: "Put StageTime on your home screen" })).toBeVisible();
    await page.screenshot({ path: path.join(repoRoot, "docs/screenshots/install.png") });
  });
});
