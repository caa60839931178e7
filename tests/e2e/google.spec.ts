import type { Page } from "@playwright/test";
import { expect, test, uniqueEmail } from "./fixtures";
import { openAvatarMenu, toast } from "./support/ui";

/** Records every request the page makes to the mock issuer's authorize endpoint (redirect hops included). */
function recordAuthorizeRequests(page: Page, issuer: string): string[] {
  const seen: string[] = [];
  page.on("request", (request) => {
    if (request.url().startsWith(new URL("/authorize", issuer).href)) seen.push(request.url());
  });
  return seen;
}

/**
 * Google sign-in end to end: the backend's Google provider is pointed (AUTH_GOOGLE_ISSUER,
 * tests only) at a local OpenID Connect mock that approves at once. The browser really
 * leaves the app: backend /api/auth/signin/google → mock /authorize → backend
 * /api/auth/callback/google (code exchange, id_token checks) → the app with a sign-in code.
 */
test.describe("Google sign-in", () => {
  test("a new comedian signs up with Google and is recognised the next time", async ({ page, google }) => {
    const identity = { email: uniqueEmail("google"), name: "Gabi Google" };
    const authorizeRequests = recordAuthorizeRequests(page, google.issuer);

    await google.nextIdentity(identity);
    await page.goto("/");
    await page.getByRole("button", { name: "Sign up with Google" }).click();
    // A brand-new account: the startup gate sends it to onboarding.
    await expect(page).toHaveURL(/\/onboarding\/welcome$/, { timeout: 30_000 });
    // The name came from the Google id_token into the new profile.
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome to StageTime, Gabi!");
    expect(authorizeRequests).toHaveLength(1);
    const authorize = new URL(authorizeRequests[0]);
    expect(authorize.searchParams.get("client_id")).toBeTruthy();
    expect(authorize.searchParams.get("redirect_uri")).toContain("/api/auth/callback/google");

    await page.getByRole("button", { name: "Skip onboarding" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await openAvatarMenu(page);
    await page.getByRole("menuitem", { name: "Sign Out" }).click();
    await expect(toast(page, "Signed out")).toBeVisible();

    // Same Google account again, from /auth: the existing account (onboarding done) opens.
    await google.nextIdentity(identity);
    await page.goto("/auth");
    await page.getByRole("button", { name: /with Google/ }).click();
    await expect(page).toHaveURL(/\/dashboard$/, { timeout: 30_000 });
    expect(authorizeRequests).toHaveLength(2);
  });

  test("two different Google accounts are two comedians", async ({ page, browser, google, appUrl }) => {
    await google.nextIdentity({ email: uniqueEmail("google-a"), name: "Ana Google" });
    await page.goto("/auth");
    await page.getByRole("button", { name: /with Google/ }).click();
    await expect(page).toHaveURL(/\/onboarding\/welcome$/, { timeout: 30_000 });
    await page.getByRole("button", { name: "Skip onboarding" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    // A second person on another browser profile gets a fresh account, not Ana's.
    const other = await browser.newContext({ baseURL: appUrl });
    try {
      const otherPage = await other.newPage();
      await google.nextIdentity({ email: uniqueEmail("google-b"), name: "Ben Google" });
      await otherPage.goto("/auth");
      await otherPage.getByRole("button", { name: /with Google/ }).click();
      await expect(otherPage).toHaveURL(/\/onboarding\/welcome$/, { timeout: 30_000 });
      await expect(otherPage.getByRole("heading", { level: 1 })).toHaveText("Welcome to StageTime, Ben!");
    } finally {
      await other.close();
    }
  });
});

test.describe("Google sign-in failure", () => {
  test("a failed Google sign-in returns to /auth without a session", async ({ page, google }) => {
    await google.nextIdentity({ email: uniqueEmail("google-fail"), name: "Fay Fail", failTokenExchange: true });
    await page.goto("/auth");
    await page.getByRole("button", { name: /with Google/ }).click();
    // The browser makes the whole round trip; the backend could not exchange the code, so
    // the app is back on its callback page without a sign-in code, and gives up.
    await page.waitForURL(/\/auth\/callback/, { timeout: 30_000 });
    await expect(page).toHaveURL(/\/auth$/, { timeout: 30_000 });
    await expect(toast(page, "Google sign in failed")).toBeVisible();
    await expect(page.getByRole("banner").getByRole("link", { name: "Sign In" })).toBeVisible();
    await page.goto("/dashboard");
    await expect(page.getByRole("heading", { name: "Sign up to access Dashboard" })).toBeVisible();
  });
});
