import { HTTP_FIRST_PAGE_GLOBAL } from "@/features/scene/list/firstPage";
import { ROUTE_PRELOADED_GLOBAL } from "@/lib/paths";
import { expect, test } from "./fixtures";

/**
 * The built app is served with the headers the build writes (dist/_headers; the tests' static
 * server sends them as a static host would): the app runs under its Content-Security-Policy,
 * index.html's inline scripts included, and no other page can frame it to clickjack a host's
 * one-tap actions. Google sign-in (google.spec.ts) and every other journey run under it too.
 */

test("the scene runs under the CSP: its inline scripts run and nothing is refused", async ({ page }) => {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (event) =>
      seen.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  const response = await page.goto("/scene");
  expect(response?.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  await expect(page.getByRole("heading", { level: 1, name: "Comedy Scene" })).toBeVisible();
  await expect(page.getByRole("article").first()).toBeVisible();
  const ran = await page.evaluate(
    ([first, preloaded]) => ({
      firstPage: (window as unknown as Record<string, unknown>)[first] !== undefined,
      preload: (window as unknown as Record<string, unknown>)[preloaded] !== undefined,
    }),
    [HTTP_FIRST_PAGE_GLOBAL, ROUTE_PRELOADED_GLOBAL],
  );
  expect(ran).toEqual({ firstPage: true, preload: true });
  expect(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)).toEqual([]);
});

test("another page cannot frame the app", async ({ page, appUrl }) => {
  await page.setContent(`<iframe title="framed" src="${appUrl}/scene" width="800" height="600"></iframe>`);
  const frame = page.frames().find((f) => f !== page.mainFrame());
  expect(frame).toBeDefined();
  // Chromium replaces a frame its CSP's frame-ancestors refuses with an error page.
  await expect.poll(() => frame!.url(), { timeout: 15_000 }).toMatch(/^chrome-error:/);
  await page.waitForTimeout(1000);
  expect(await frame!.locator("#root").count()).toBe(0);
});
