import { DEMO_COMEDIAN, expect, test } from "./fixtures";
import { openAvatarMenu, toast } from "./support/ui";

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

test("a signed-out visitor of /performance-history sees the sign-in prompt", async ({ page }) => {
  await page.goto("/performance-history");
  await expect(page.getByText("Sign in to see your performance history.")).toBeVisible();
  await expect(page).toHaveURL(/\/performance-history$/);
});
