import path from "node:path";
import { expect, test } from "./fixtures";
import { repoRoot } from "./support/backend";

/**
 * README images, taken from the running app with the demo seed. Not part of `npm test`:
 * run `E2E_SCREENSHOTS=1 npx playwright test --grep @screenshots` to refresh them.
 */
test.describe("README screenshots @screenshots", () => {
  test.use({ viewport: { width: 1280, height: 900 }, colorScheme: "light" });

  const shot = (name: string) => path.join(repoRoot, "docs/screenshots", name);

  test("landing page", async ({ page }) => {
    await page.goto("/");
    const stats = page.getByRole("region", { name: "The community so far" });
    await expect(stats.getByTestId("stat-venues")).not.toContainText("000");
    await page.waitForLoadState("networkidle");
    // Full page, so the live community figures at the bottom are in the picture.
    await page.screenshot({ path: shot("landing.png"), fullPage: true });
  });

  test("the scene", async ({ page }) => {
    await page.goto("/scene");
    await expect(page.getByRole("heading", { name: "Comedy Scene" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 3 }).nth(3)).toBeVisible({ timeout: 20_000 });
    await page.waitForLoadState("networkidle");
    await page.screenshot({ path: shot("scene.png") });
  });
});
