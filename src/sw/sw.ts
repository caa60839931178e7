/// <reference lib="webworker" />
/**
 * StageTime's service worker: serves the precached app shell and route chunks (so a reload
 * without a connection shows the app), waits for the page to say "reload" before taking
 * over from an older version, and shows push notifications that open the right page.
 */
import { clientsClaim } from "workbox-core";
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";
import { readPushMessage } from "../lib/pushMessage";

declare const self: ServiceWorkerGlobalScope;

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// The first install serves the page that registered it at once; later versions wait for
// "Reload" (a worker only activates after skipWaiting when an older one is in control).
clientsClaim();

// Every page of the app is index.html plus its chunks; navigations get the precached copy.
registerRoute(new NavigationRoute(createHandlerBoundToURL("/index.html")));

// The update prompt's "Reload" button asks the waiting worker to take over.
self.addEventListener("message", (event) => {
  if ((event.data as { type?: unknown } | null)?.type === "SKIP_WAITING") void self.skipWaiting();
});

self.addEventListener("push", (event) => {
  let payload: unknown = null;
  try {
    payload = event.data?.json();
  } catch {
    payload = { body: event.data?.text() };
  }
  const message = readPushMessage(payload);
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: message.body,
      tag: message.tag,
      icon: "/icons/icon-192.png",
      badge: "/icons/icon-192.png",
      data: { url: message.url },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const raw = (event.notification.data as { url?: unknown } | null)?.url;
  const target = new URL(typeof raw === "string" ? raw : "/", self.location.origin);
  // Only this app's pages: a link read as another site opens the home page.
  event.waitUntil(openOrFocus(target.origin === self.location.origin ? target.href : self.location.origin + "/"));
});

/** Focuses an open StageTime window on the target page, or opens one. */
async function openOrFocus(href: string): Promise<void> {
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
  if (open) {
    // Focusing needs the tap's permission and navigating does not: the page opens either way.
    const focused = await open.focus().catch(() => open);
    if (focused.url !== href) await focused.navigate(href);
    return;
  }
  await self.clients.openWindow(href);
}
