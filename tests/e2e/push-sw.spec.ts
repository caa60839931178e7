/**
 * The service worker's push and notificationclick handlers, run inside Chromium's own
 * service worker: DevTools delivers a real push event (as a push service would), the
 * notification shown carries the message's title, body and page, and a click on it
 * brings the app's window to that page. A sender cannot point a notification off-site.
 */
import type { BrowserContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";

test.use({ serviceWorkers: "allow" });

async function controlledBy(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve));
    }
  });
}

/**
 * Delivers `data` to the app's service worker as a push message, through DevTools, and
 * returns once the worker's push event has finished (its waitUntil settled) successfully.
 */
async function deliverPush(context: BrowserContext, page: Page, appUrl: string, data: string): Promise<void> {
  const cdp = await context.newCDPSession(page);
  const registrationId = new Promise<string>((resolve) => {
    cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
      const found = registrations.find((r) => r.scopeURL === `${appUrl}/` && !r.isDeleted);
      if (found) resolve(found.registrationId);
    });
  });
  // Chromium's log of push events (DevTools' Background services): "Push event completed"
  // comes once the handler's waitUntil has settled, with its status.
  const events: { eventName: string; eventMetadata: { key: string; value: string }[] }[] = [];
  cdp.on("BackgroundService.backgroundServiceEventReceived", ({ backgroundServiceEvent }) => {
    events.push(backgroundServiceEvent);
  });
  await cdp.send("BackgroundService.setRecording", { service: "pushMessaging", shouldRecord: true });
  await cdp.send("BackgroundService.startObserving", { service: "pushMessaging" });
  await cdp.send("ServiceWorker.enable");
  await cdp.send("ServiceWorker.deliverPushMessage", { origin: appUrl, registrationId: await registrationId, data });
  const meta = (event: (typeof events)[number], key: string) => event.eventMetadata.find((m) => m.key === key)?.value;
  const status = () => {
    // Events logged earlier in this context are replayed first: read on from this payload's dispatch.
    const start = events.findIndex((e) => e.eventName === "Push event dispatched" && meta(e, "Payload") === data);
    const done = start < 0 ? undefined : events.slice(start).find((e) => e.eventName === "Push event completed");
    return done && meta(done, "Status");
  };
  await expect.poll(status, { message: "the worker's push event completes" }).toBe("Success");
  await cdp.detach();
}

/**
 * The notifications the app's registration shows. Ask only once no push is being handled:
 * Chromium's getNotifications forgets a notification written but not yet on screen.
 */
function shown(page: Page) {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    const list = await registration.getNotifications();
    return list.map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: (n.data as { url?: string }).url }));
  });
}

test("a push shows its notification, and tapping it opens the page it names", async ({ page, context, appUrl }) => {
  await context.grantPermissions(["notifications"], { origin: appUrl });
  await page.goto("/");
  await controlledBy(page);

  const message = {
    title: "Tuesday Basement Mic: the lottery is drawn",
    body: "You're on the waitlist, #3.",
    url: "/scene",
    tag: "lottery:test",
  };
  await deliverPush(context, page, appUrl, JSON.stringify(message));
  expect(await shown(page)).toEqual([message]);

  // The tap: the worker's notificationclick, dispatched in the worker with the shown notification.
  const [worker] = context.serviceWorkers();
  expect(worker.url()).toBe(`${appUrl}/sw.js`);
  await worker.evaluate(async () => {
    // Worker globals, typed loosely: this file compiles with the page's DOM types.
    type Scope = { registration: ServiceWorkerRegistration; dispatchEvent: (e: Event) => boolean };
    const sw = self as unknown as Scope;
    const [notification] = await sw.registration.getNotifications();
    const Click = (self as unknown as { NotificationEvent: new (t: string, i: object) => Event }).NotificationEvent;
    sw.dispatchEvent(new Click("notificationclick", { notification }));
  });
  await expect(page).toHaveURL(`${appUrl}/scene`);
  await expect(page.getByRole("heading", { name: "Comedy Scene" })).toBeVisible();
  await expect.poll(() => shown(page)).toEqual([]);
});

test("a push that points off-site, or is not JSON, opens the app's home page", async ({ page, context, appUrl }) => {
  await context.grantPermissions(["notifications"], { origin: appUrl });
  await page.goto("/scene");
  await controlledBy(page);
  await deliverPush(context, page, appUrl, JSON.stringify({ title: "Hi", body: "x", url: "https://evil.example/" }));
  expect(await shown(page)).toEqual([{ title: "Hi", body: "x", tag: "", url: "/" }]);
  await deliverPush(context, page, appUrl, "plain words");
  const both = await shown(page);
  expect(both).toHaveLength(2);
  expect(both).toEqual(
    expect.arrayContaining([
      { title: "Hi", body: "x", tag: "", url: "/" },
      { title: "StageTime", body: "plain words", tag: "", url: "/" },
    ]),
  );
});
