/**
 * A real device subscription end to end. Chromium's `pushManager.subscribe` needs a push
 * service this machine cannot reach, so only the Push API's edge is stubbed: the page's
 * PushManager hands out a subscription whose endpoint is a push service on this machine
 * and whose keys this test made. Everything else is the app: the profile page turns
 * notifications on, the server stores the device, a notice goes out through the
 * `web-push` action, arrives signed and encrypted for those keys, and signing out makes
 * the server forget the device.
 */
import { expect, test } from "./fixtures";
import { openAvatarMenu, toast } from "./support/ui";
import { decryptPush, newDeviceKeys, stubPushManager } from "./support/webPush";

test.use({ serviceWorkers: "allow" });

test("notifications turned on at the profile reach the device's push endpoint; sign-out forgets it", async ({
  page,
  context,
  appUrl,
  signUp,
  runFunction,
  pushService,
}) => {
  test.setTimeout(120_000);
  const device = newDeviceKeys();
  const endpoint = `${pushService.url}/device/${device.p256dh.slice(0, 12)}`;
  await context.grantPermissions(["notifications"], { origin: appUrl });
  // The browser edge only: the subscription the push service would have given this device.
  await stubPushManager(page, { endpoint, p256dh: device.p256dh, auth: device.authKey });

  const creds = await signUp(page);
  await page.getByRole("button", { name: "Skip onboarding" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/profile");
  await expect(page.getByText("This device does not get notifications yet.")).toBeVisible();
  await page.getByRole("button", { name: "Enable notifications on this device" }).click();
  await expect(page.getByText("This device gets your notifications.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Turn off on this device" })).toBeVisible();
  expect(await runFunction<string[]>("fixtures:devicesOf", { email: creds.email })).toEqual([endpoint]);

  // A notice for this comedian: the inbox row, and the push to the stored device.
  const told = await runFunction<number>("fixtures:notifyAccount", {
    email: creds.email,
    prefix: "Pocket",
    count: 1,
    url: "/notifications",
    kind: "on_deck",
  });
  expect(told).toBe(1);
  await expect.poll(() => pushService.received.length, { timeout: 30_000 }).toBe(1);
  const [message] = pushService.received;
  expect(message.path).toBe(new URL(endpoint).pathname);
  expect(message.headers["content-encoding"]).toBe("aes128gcm");
  expect(String(message.headers.authorization)).toContain(`k=${pushService.vapidPublicKey}`);
  expect(JSON.parse(decryptPush(message.body, device))).toEqual({
    title: "Pocket 1",
    body: "",
    url: "/notifications",
    tag: "fixture:Pocket:1",
  });

  await openAvatarMenu(page);
  await page.getByRole("menuitem", { name: "Sign Out" }).click();
  await expect(toast(page, "Signed out")).toBeVisible();
  await expect.poll(() => runFunction<string[]>("fixtures:devicesOf", { email: creds.email })).toEqual([]);
  expect(await page.evaluate(() => localStorage.getItem("e2e-push-subscription"))).toBeNull();
});
