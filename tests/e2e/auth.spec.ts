import { DEMO_COMEDIAN, expect, test, uniqueEmail } from "./fixtures";
import { mainHeading, openAvatarMenu, toast } from "./support/ui";

test.describe("accounts", () => {
  test("signing up lands a new comedian on onboarding", async ({ page, signUp }) => {
    await signUp(page, { name: "Nova Newcomer" });
    await expect(page).toHaveURL(/\/onboarding\/welcome$/);
    // The display name given at sign-up is the profile's.
    await expect(mainHeading(page)).toHaveText("Welcome to StageTime, Nova!");
    await expect(page.getByRole("link", { name: "Get Started" })).toBeVisible();
    await expect(page.getByLabel("Step 1 of 9")).toBeVisible();
  });

  test("signing in with the right password welcomes the comedian back", async ({ page, signIn }) => {
    await signIn(page, DEMO_COMEDIAN);
    await expect(toast(page, "Welcome back!")).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test("a wrong password shows 'Sign in failed' and stays on /auth", async ({ page, signIn }) => {
    await signIn(page, { email: DEMO_COMEDIAN.email, password: "not-the-password" }, { waitForApp: false });
    await expect(toast(page, "Sign in failed")).toBeVisible();
    await expect(page).toHaveURL(/\/auth$/);
  });

  test("signing up with a registered email shows 'Account exists'", async ({ page, signUp }) => {
    await signUp(page, { email: DEMO_COMEDIAN.email, password: "another-password", waitForApp: false });
    const shown = toast(page, "Account exists");
    await expect(shown).toBeVisible();
    await expect(shown).toContainText("This email is already registered. Try signing in instead.");
    await expect(page).toHaveURL(/\/auth$/);
  });

  test("a password shorter than 6 characters is refused before it is sent", async ({ page, signUp }) => {
    await signUp(page, { email: uniqueEmail(), password: "12345", waitForApp: false });
    await expect(page.getByText("Password must be at least 6 characters").first()).toBeVisible();
    await expect(page).toHaveURL(/\/auth$/);
  });

  test("signing out from the avatar menu shows 'Signed out'", async ({ page, signIn }) => {
    await signIn(page, DEMO_COMEDIAN);
    await expect(page).toHaveURL(/\/dashboard$/);
    await openAvatarMenu(page);
    await page.getByRole("menuitem", { name: "Sign Out" }).click();
    const shown = toast(page, "Signed out");
    await expect(shown).toBeVisible();
    await expect(shown).toContainText("You've been successfully signed out.");
    // The session is gone: the top bar offers Sign In again and the dashboard is only a preview.
    await expect(
      page
        .getByRole("banner")
        .getByRole("link", { name: "Sign In" })
        .or(page.getByRole("banner").getByRole("button", { name: "Sign In" })),
    ).toBeVisible();
    await page.goto("/dashboard");
    await expect(page.getByRole("heading", { name: "Sign up to access Dashboard" })).toBeVisible();
  });

  test("the session survives a reload", async ({ page, signIn }) => {
    await signIn(page, DEMO_COMEDIAN);
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.reload();
    await expect(page).toHaveURL(/\/dashboard$/);
    // The signed-in dashboard itself, not the blank moment while the session loads.
    await expect(page.getByRole("heading", { level: 1, name: /^Welcome/ })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Sign up to access Dashboard" })).toHaveCount(0);
    await openAvatarMenu(page);
    await expect(page.getByRole("menuitem", { name: "Sign Out" })).toBeVisible();
  });

  test("a signed-in visitor of /auth goes to the dashboard", async ({ page, signIn }) => {
    await signIn(page, DEMO_COMEDIAN);
    await page.goto("/auth");
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});

test.describe("accounts and a backend crash", () => {
  test("an account survives kill -9 of the backend and the open page reconnects", async ({
    page,
    browser,
    signUp,
    signIn,
    backend,
  }) => {
    const creds = await signUp(page, { name: "Dora Durable" });
    await expect(page).toHaveURL(/\/onboarding\/welcome$/);

    await backend.kill9();
    await expect(page.getByText("Reconnecting…")).toBeVisible({ timeout: 20_000 });

    await backend.restart();
    await expect(page.getByText("Reconnecting…")).toHaveCount(0, { timeout: 30_000 });
    // The open page kept its session across the restart.
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome to StageTime, Dora!");

    // The acknowledged sign-up was on disk: the account signs in from a fresh browser.
    const fresh = await (await browser.newContext()).newPage();
    await signIn(fresh, creds);
    await expect(fresh).toHaveURL(/\/onboarding\/welcome$/);
    await fresh.context().close();
  });
});
