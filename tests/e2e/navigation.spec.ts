import { DEMO_COMEDIAN, expect, test } from "./fixtures";
import { mainHeading, topBar } from "./support/ui";

test.describe("routes", () => {
  for (const path of ["/no-such-page", "/scene/nope/deeper", "/onboarding-x"]) {
    test(`an unknown path (${path}) shows the 404 page with a way home`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByText("Oops! Page not found")).toBeVisible();
      await expect(page.getByText("404", { exact: true }).first()).toBeVisible();
      await page.getByRole("link", { name: "Return to Home" }).click();
      await expect(page).toHaveURL(/\/$/);
    });
  }

  test("a page whose code fails to load shows the error page; the next page opens", async ({ page }) => {
    // The 404 page's chunk, as after a deploy that removed it; the landing page's still loads.
    await page.route(/\/assets\/NotFound-[^/]*\.js$/, (route) => route.abort());
    await page.goto("/no-such-page");
    await expect(page.getByRole("heading", { name: "Something went wrong" })).toBeVisible();
    await expect(page.getByRole("alert").filter({ hasText: "This page could not be shown" })).toBeVisible();
    await page.getByRole("link", { name: "Go to home" }).click();
    await expect(page).toHaveURL(/:\d+\/$/);
    await expect(mainHeading(page)).toBeVisible();
  });

  test("a page whose code failed to load in the app is tried again on the next visit", async ({ page }) => {
    await page.goto("/");
    await expect(mainHeading(page)).toBeVisible();
    const scene = /\/assets\/Scene-[^/]*\.js$/;
    await page.route(scene, (route) => route.abort());
    await topBar(page).getByRole("link", { name: "Scene" }).click();
    await expect(page.getByRole("heading", { name: "Something went wrong" })).toBeVisible();
    // The network is back: Back to the landing page, then the scene again from its link.
    await page.unroute(scene);
    await page.goBack();
    await expect(mainHeading(page)).toBeVisible();
    await topBar(page).getByRole("link", { name: "Scene" }).click();
    await expect(page.getByRole("heading", { name: "Comedy Scene" })).toBeVisible();
  });

  test("/discover redirects to the landing page", async ({ page }) => {
    await page.goto("/discover");
    await expect(page).toHaveURL(/:\d+\/$/);
    await expect(mainHeading(page)).toBeVisible();
  });

  test("/onboarding redirects to its first step", async ({ page, signUp }) => {
    await signUp(page);
    await page.goto("/onboarding");
    await expect(page).toHaveURL(/\/onboarding\/welcome$/);
    await expect(page.getByLabel("Step 1 of 9")).toBeVisible();
  });
});

test.describe("top bar", () => {
  test("signed out it offers Sign In, which opens /auth", async ({ page }) => {
    await page.goto("/scene");
    const signIn = topBar(page)
      .getByRole("link", { name: "Sign In" })
      .or(topBar(page).getByRole("button", { name: "Sign In" }));
    await signIn.click();
    await expect(page).toHaveURL(/\/auth$/);
  });

  test("signed in it links Dashboard, Schedule and Scene", async ({ page, signIn }) => {
    await signIn(page, DEMO_COMEDIAN);
    await expect(page).toHaveURL(/\/dashboard$/);
    const bar = topBar(page);
    await bar.getByRole("link", { name: "Schedule" }).click();
    await expect(page).toHaveURL(/\/schedule$/);
    await bar.getByRole("link", { name: "Scene" }).click();
    await expect(page).toHaveURL(/\/scene$/);
    await expect(page.getByRole("heading", { name: "Comedy Scene" })).toBeVisible();
    await bar.getByRole("link", { name: "Dashboard" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test("it hides when scrolling down and comes back when scrolling up", async ({ page }) => {
    await page.goto("/scene");
    // The seeded scene makes the page long enough to scroll.
    await expect(page.getByRole("heading", { level: 3 }).nth(10)).toBeAttached({ timeout: 20_000 });
    const bar = topBar(page);
    await expect(bar).toBeInViewport();

    await page.mouse.move(400, 400);
    await page.mouse.wheel(0, 600);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
    await expect(bar).not.toBeInViewport();

    await page.mouse.wheel(0, -150);
    await expect(bar).toBeInViewport();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(10);
  });

  test("a route change scrolls back to the top", async ({ page }) => {
    // A short window so the landing page scrolls; the scene page is long enough to keep a
    // scroll position if the app did not reset it.
    await page.setViewportSize({ width: 1280, height: 480 });
    await page.goto("/");
    await expect(page.getByRole("region", { name: "The community so far" })).toBeAttached();
    await page.mouse.move(400, 300);
    // The lazily loaded page may still be growing: wheel until it has scrolled.
    await expect(async () => {
      await page.mouse.wheel(0, 500);
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
    }).toPass({ timeout: 10_000 });
    await page.mouse.wheel(0, -60);
    const bar = topBar(page);
    await expect(bar).toBeInViewport();
    await bar.getByRole("link", { name: "Scene" }).click();
    await expect(page).toHaveURL(/\/scene$/);
    await expect(page.getByRole("heading", { name: "Comedy Scene" })).toBeVisible();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });
});
