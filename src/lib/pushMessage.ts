/** What a push message carries: the notification's text and the app page it opens. */
export type PushMessage = { title: string; body: string; url: string; tag?: string };

const MAX_TITLE = 120;
const MAX_BODY = 400;

/**
 * Reads a push payload (JSON) into a notification the service worker can show. Anything
 * malformed gets a plain fallback; the target is always a path on this origin, never a
 * URL a sender could point elsewhere.
 */
export function readPushMessage(raw: unknown): PushMessage {
  const data = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>) : {};
  const text = (value: unknown, max: number) => (typeof value === "string" ? value.slice(0, max) : "");
  const title = text(data.title, MAX_TITLE) || "StageTime";
  const body = text(data.body, MAX_BODY);
  const url = typeof data.url === "string" && /^\/(?!\/)/.test(data.url) ? data.url.slice(0, 500) : "/";
  const tag = text(data.tag, 200) || undefined;
  return { title, body, url, tag };
}
