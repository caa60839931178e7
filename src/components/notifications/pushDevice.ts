/**
 * This device's Web Push subscription: asks for permission (only ever from a click that
 * says why), subscribes the service worker with the deployment's VAPID public key, and
 * reads back what the browser holds, so the server keeps one row per device.
 */

/** Whether this browser can receive push notifications at all. */
export function pushSupported(): boolean {
  return (
    typeof window !== "undefined" && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window
  );
}

/** The VAPID public key (base64url) as the bytes PushManager wants. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const padded = base64url
    .replace(/-/g, "+")
    .replace(/_/g, "/")
    .padEnd(Math.ceil(base64url.length / 4) * 4, "=");
  const raw = atob(padded);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

async function registration(): Promise<ServiceWorkerRegistration | null> {
  if (!pushSupported()) return null;
  return (await navigator.serviceWorker.getRegistration()) ?? null;
}

/** The browser's push subscription on this device, if it has one. */
export async function localSubscription(): Promise<PushSubscription | null> {
  const reg = await registration();
  return reg === null ? null : await reg.pushManager.getSubscription();
}

export type DeviceSubscription = { endpoint: string; keys: { p256dh: string; auth: string } };

export class PushRefused extends Error {}

/** Asks for permission and subscribes this device; the subscription to store on the server. */
export async function subscribeThisDevice(publicKey: string): Promise<DeviceSubscription> {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") throw new PushRefused("Notifications are blocked for this site in your browser.");
  const reg = (await registration()) ?? (await navigator.serviceWorker.ready);
  const existing = await reg.pushManager.getSubscription();
  const sub =
    existing ?? (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
  const json = sub.toJSON();
  const p256dh = json.keys?.p256dh;
  const auth = json.keys?.auth;
  if (!json.endpoint || !p256dh || !auth) throw new Error("The browser gave an incomplete push subscription.");
  return { endpoint: json.endpoint, keys: { p256dh, auth } };
}

/**
 * On sign-out: the server forgets this device (within `capMs`, so a dead connection never
 * holds sign-out up) and the browser drops the subscription, so the next account starts clean.
 */
export async function forgetThisDevice(forget: (endpoint: string) => Promise<unknown>, capMs = 3000): Promise<void> {
  const sub = await localSubscription().catch(() => null);
  if (sub === null) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    forget(sub.endpoint.slice(0, 1000)).catch(() => undefined),
    new Promise((resolve) => (timer = setTimeout(resolve, capMs))),
  ]);
  clearTimeout(timer);
  await sub.unsubscribe().catch(() => false);
}
