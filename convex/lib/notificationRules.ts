/**
 * Notification rules shared by the server and the profile page: what a comedian can
 * switch on or off, quiet hours on their own wall clock, and the caps on what is stored.
 */
import { TZDate } from "@date-fns/tz";
import { hasControlCharacters } from "./textRules";
import { isValidTimeZone, parseHHMM } from "./time";

/** What a comedian chooses to hear about; each kind of notification belongs to one. */
export const NOTIFICATION_TOPICS = ["listOpens", "nights", "lottery", "onDeck", "claims", "sets"] as const;
export type NotificationTopic = (typeof NOTIFICATION_TOPICS)[number];

export const NOTIFICATION_KINDS = [
  "list_open",
  "night_cancelled",
  "night_confirmed",
  "lottery",
  "on_deck",
  "up_next",
  "claim_decided",
  "admin_queue",
  "set_feedback",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const TOPIC_OF: Record<NotificationKind, NotificationTopic> = {
  list_open: "listOpens",
  night_cancelled: "nights",
  night_confirmed: "nights",
  lottery: "lottery",
  on_deck: "onDeck",
  up_next: "onDeck",
  claim_decided: "claims",
  admin_queue: "claims",
  set_feedback: "sets",
};

/** Minutes before an in-person list time the comedian may be told the list is about to open. */
export const LEAD_MINUTES = [120, 60, 30, 15] as const;
export const DEFAULT_LEAD_MINUTES = 30;

/** The lead time a comedian's choices stand for (no row: the default); null when list openings are off. */
export function listLead(choices: { listOpens: boolean; leadMinutes: number } | null): number | null {
  if (choices === null) return DEFAULT_LEAD_MINUTES;
  return choices.listOpens ? choices.leadMinutes : null;
}

/** Pushes one account receives in an hour at most; the inbox still gets everything. */
export const PUSHES_PER_HOUR = 12;
/** Devices (push subscriptions) one account keeps; the oldest goes when a new one subscribes. */
export const MAX_DEVICES = 10;
export const MAX_ENDPOINT_LENGTH = 1000;
export const MAX_KEY_LENGTH = 200;
export const MAX_TITLE_LENGTH = 120;
export const MAX_BODY_LENGTH = 400;
export const MAX_URL_LENGTH = 500;
export const MAX_EVENT_KEY_LENGTH = 200;

/**
 * A notice's link as a path of this app, or "/": a browser reads "//host" and "/\\host" as
 * another site, and drops tabs and newlines inside a URL ("/\t/host" is "//host").
 */
export function appPath(url: string): string {
  return /^\/(?![/\\])/.test(url) && !/[\s\\]/.test(url) && !hasControlCharacters(url) && url.length <= MAX_URL_LENGTH
    ? url
    : "/";
}
/** Rows the inbox shows at once. */
export const INBOX_PAGE = 50;

export type QuietHours = { start: string; end: string } | null;

/**
 * Whether `nowMs` falls in the quiet hours `start`..`end` ("HH:MM", end exclusive) on the
 * comedian's own wall clock in `timeZone`; a window past midnight ("22:00".."08:00") wraps.
 * Wall-clock minutes are compared, so a DST change moves the window with the clock.
 */
export function inQuietHours(nowMs: number, quiet: QuietHours, timeZone: string): boolean {
  if (quiet === null) return false;
  const start = parseHHMM(quiet.start);
  const end = parseHHMM(quiet.end);
  if (start === null || end === null) return false;
  const local = new TZDate(nowMs, isValidTimeZone(timeZone) ? timeZone : "UTC");
  const now = local.getHours() * 60 + local.getMinutes();
  const from = start.hours * 60 + start.minutes;
  const to = end.hours * 60 + end.minutes;
  if (from === to) return false;
  return from < to ? now >= from && now < to : now >= from || now < to;
}

/** The browsers' push services (Chrome and Samsung: FCM; Firefox: Mozilla; Edge: WNS; Safari: Apple), with their subdomains. */
const PUSH_SERVICE_HOSTS = [
  "fcm.googleapis.com",
  "android.googleapis.com",
  "push.services.mozilla.com",
  "notify.windows.com",
  "push.apple.com",
] as const;

/** Extra push hosts a deployment allows (`PUSH_ENDPOINT_HOSTS`, comma separated; tests run one on 127.0.0.1). */
export function extraPushHosts(setting: string | undefined): string[] {
  return (setting ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h.length > 0);
}

/**
 * A push endpoint the server may post to: https on a known push service (or a host the deployment
 * allows), so a subscription cannot make the backend post to its own network.
 */
export function isPushEndpoint(endpoint: string, extraHosts: readonly string[] = []): boolean {
  // URL parsing drops tabs and newlines silently, so they are refused before it.
  if (endpoint.length > MAX_ENDPOINT_LENGTH || hasControlCharacters(endpoint)) return false;
  try {
    const url = new URL(endpoint);
    if (url.protocol !== "https:") return false;
    const host = url.hostname.toLowerCase();
    if (extraHosts.includes(host)) return true;
    return url.port === "" && PUSH_SERVICE_HOSTS.some((h) => host === h || host.endsWith(`.${h}`));
  } catch {
    return false;
  }
}
