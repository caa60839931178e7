import { randomUUID } from "node:crypto";
import { ConvexHttpClient } from "convex/browser";
import { api } from "@convex/_generated/api";
import { SESSION_ENDED } from "@convex/functions";
import { DEMO_COMEDIAN, expect, test } from "./fixtures";
import { readState } from "./support/state";
import { openAvatarMenu, toast, topBar } from "./support/ui";

// Signing out from a page that needs a session must end on the landing page, not on
// /auth (the session gate must not race the sign-out's own navigation).
for (const path of ["/badges", "/performance-history"]) {
  test(`signing out on ${path} lands on the landing page`, async ({ page, signIn }) => {
    await signIn(page, DEMO_COMEDIAN);
    await page.goto(path);
    await openAvatarMenu(page);
    await page.getByRole("menuitem", { name: "Sign Out" }).click();
    await expect(toast(page, "Signed out")).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("link", { name: "Sign up with email" })).toBeVisible();
  });
}

// Going elsewhere before home has loaded ends the sign-out there: that page's gate answers as usual.
test("leaving for another page while the sign-out is on its way home shows that page, not a blank one", async ({
  page,
  signIn,
}) => {
  await signIn(page, DEMO_COMEDIAN);
  await page.goto("/badges");
  // Home's code never arrives, so the sign-out's own navigation never finishes.
  await page.route("**/assets/Landing-*.js", () => {});
  await openAvatarMenu(page);
  await page.getByRole("menuitem", { name: "Sign Out" }).click();
  await expect(toast(page, "Signed out")).toBeVisible();
  await topBar(page).getByRole("link", { name: "Dashboard" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { level: 1, name: "Sign up to access Dashboard" })).toBeVisible();
});

// The app stops its signed-in queries before the sign-out is sent; the sign-out must still
// carry the session's token, so the token the page held is refused afterwards.
test("signing out from the menu ends the session on the backend, not only on the page", async ({ page, signIn }) => {
  await signIn(page, DEMO_COMEDIAN);
  const token = await page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => k.startsWith("__convexAuthJWT"));
    return key ? localStorage.getItem(key) : null;
  });
  expect(token).toBeTruthy();
  const held = new ConvexHttpClient(readState().backendUrl);
  held.setAuth(token!);
  await expect(held.query(api.favorites.list, {})).resolves.toBeInstanceOf(Array);
  await openAvatarMenu(page);
  await page.getByRole("menuitem", { name: "Sign Out" }).click();
  await expect(toast(page, "Signed out")).toBeVisible();
  await expect(held.query(api.favorites.list, {})).rejects.toThrow(SESSION_ENDED);
});

test("a signed-out visitor of /performance-history sees the sign-in prompt", async ({ page }) => {
  await page.goto("/performance-history");
  await expect(page.getByText("Sign in to see your performance history.")).toBeVisible();
  await expect(page).toHaveURL(/\/performance-history$/);
});

// A shared device: the next comedian, signing in on the same page (no reload),
// must not find the previous one's half-done log-a-set draft.
test("a wizard draft does not survive its comedian's sign-out", async ({ page, signUp, runFunction }) => {
  test.setTimeout(90_000);
  const venueName = `Shared${randomUUID().replace(/-/g, "").slice(0, 8)}`;
  await runFunction("fixtures:insertSceneItem", {
    title: `Thursday Tryouts ${venueName}`,
    venueName,
    city: "New York",
    type: "open_mic",
    recurrence: "weekly",
    dayOfWeek: 4,
    startTimeLocal: "20:00",
    timeZone: "America/New_York",
  });
  await signUp(page);
  await page.getByRole("button", { name: "Skip onboarding" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole("link", { name: "Log a Set" }).click();
  await page.getByRole("combobox", { name: "Venue" }).fill(venueName);
  await page.getByRole("option", { name: new RegExp(venueName) }).click();
  await expect(page.getByLabel("Selected venue")).toContainText(venueName);

  await openAvatarMenu(page);
  await page.getByRole("menuitem", { name: "Sign Out" }).click();
  await expect(toast(page, "Signed out")).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  await topBar(page).getByRole("link", { name: "Sign In" }).click();
  const form = page.getByRole("form", { name: "Sign in" });
  await form.getByLabel("Email", { exact: true }).fill(DEMO_COMEDIAN.email);
  await form.getByLabel("Password", { exact: true }).fill(DEMO_COMEDIAN.password);
  await form.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole("link", { name: "Log a Set" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Where did you perform?" })).toBeVisible();
  // The venue search has rendered, empty: a kept venue would stand in its place.
  await expect(page.getByRole("combobox", { name: "Venue" })).toHaveValue("");
  await expect(page.getByLabel("Selected venue")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Continue" })).toHaveCount(0);
});
