import path from "node:path";
import { expect, test } from "./fixtures";
import { repoRoot } from "./support/backend";
import { newDeviceKeys, stubPushManager } from "./support/webPush";

/**
 * The README's "On your phone" images of notifications: this phone turned on at the
 * profile, and the inbox with notices in it. Not part of `npm test`:
 * `E2E_SCREENSHOTS=1 npx playwright test tests/e2e/pocket.screenshots.spec.ts`.
 */
test.describe("README screenshots, notifications @screenshots", () => {
  test.use({
    serviceWorkers: "allow",
    viewport: { width: 390, height: 844 },
    colorScheme: "light",
    timezoneId: "America/New_York",
  });

  test("this phone gets notifications; the inbox", async ({
    page,
    context,
    appUrl,
    signUp,
    runFunction,
    pushService,
  }) => {
    test.setTimeout(120_000);
    const device = newDeviceKeys();
    await context.grantPermissions(["notifications"], { origin: appUrl });
    await stubPushManager(page, {
      endpoint: `${pushService.url}/device/1`,
      p256dh: device.p256dh,
      auth: device.authKey,
    });
    const creds = await signUp(page, { name: "Casey Comic" });
    await page.getByRole("button", { name: "Skip onboarding" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto("/profile");
    await page.getByRole("button", { name: "Enable notifications on this device" }).click();
    const status = page.getByText("This device gets your notifications.");
    await expect(status).toBeVisible();
    await status.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(repoRoot, "docs/screenshots/notifications-settings.png") });

    for (const [kind, prefix] of [
      ["list_open", "Tuesday Basement Mic: list in 30 min"],
      ["lottery", "Eastside Open Mic: the lottery is drawn"],
      ["on_deck", "You're on deck"],
    ] as const) {
      await runFunction("fixtures:notifyAccount", { email: creds.email, prefix, count: 1, url: "/scene", kind });
    }
    await page.goto("/notifications");
    await expect(page.getByText("You're on deck 1")).toBeVisible();
    await page.screenshot({ path: path.join(repoRoot, "docs/screenshots/inbox.png") });
  });
});
