/**
 * Notifications: the in-app inbox, each comedian's choices, their devices' push
 * subscriptions, and {@link notify}, the one way any code tells a comedian something.
 * A notice always lands in the inbox (live, through its query); a push to the
 * comedian's devices follows unless they are in quiet hours, over the hourly push
 * limit, have no device, or the deployment has no VAPID keys.
 */
import type { PaginationOptions, PaginationResult } from "convex/server";
import { v, type Infer } from "convex/values";
import { internal } from "../_generated/api";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { appError, ErrorCode } from "../errors";
import {
  DEFAULT_LEAD_MINUTES,
  inQuietHours,
  INBOX_PAGE,
  extraPushHosts,
  isPushEndpoint,
  listLead,
  LEAD_MINUTES,
  MAX_BODY_LENGTH,
  MAX_DEVICES,
  MAX_ENDPOINT_LENGTH,
  MAX_EVENT_KEY_LENGTH,
  MAX_KEY_LENGTH,
  MAX_TITLE_LENGTH,
  appPath,
  PUSHES_PER_HOUR,
  TOPIC_OF,
  type NotificationKind,
} from "../lib/notificationRules";
import { hasControlCharacters, invalid } from "../lib/textRules";
import { DEFAULT_TIME_ZONE, HOUR_MS, isValidTimeZone, parseHHMM } from "../lib/time";
import { enforceRateLimit } from "../rateLimits";
import { notificationKind } from "../schema";

// ---------------------------------------------------------------------------
// Deployment settings

/** The deployment's VAPID keys and contact, or null when push is not set up (inbox only). */
export function vapidSettings(): { publicKey: string; privateKey: string; subject: string } | null {
  const publicKey = process.env.VAPID_PUBLIC_KEY ?? "";
  const privateKey = process.env.VAPID_PRIVATE_KEY ?? "";
  const subject = process.env.VAPID_SUBJECT ?? "";
  if (publicKey === "" || privateKey === "" || subject === "") return null;
  return { publicKey, privateKey, subject };
}

// ---------------------------------------------------------------------------
// Preferences

export const prefsValidator = v.object({
  listOpens: v.boolean(),
  nights: v.boolean(),
  lottery: v.boolean(),
  onDeck: v.boolean(),
  claims: v.boolean(),
  sets: v.boolean(),
  leadMinutes: v.number(),
  quietStart: v.union(v.string(), v.null()),
  quietEnd: v.union(v.string(), v.null()),
  timeZone: v.string(),
});
export type Prefs = Infer<typeof prefsValidator>;

async function profileTimeZone(ctx: QueryCtx, userId: Id<"users">): Promise<string> {
  const profile = await ctx.db
    .query("profiles")
    .withIndex("by_userId", (q) => q.eq("userId", userId))
    .unique();
  return profile?.timeZone ?? DEFAULT_TIME_ZONE;
}

async function prefsRow(ctx: QueryCtx, userId: Id<"users">): Promise<Doc<"notificationPrefs"> | null> {
  return await ctx.db
    .query("notificationPrefs")
    .withIndex("by_userId", (q) => q.eq("userId", userId))
    .unique();
}

function toPrefs(row: Doc<"notificationPrefs">): Prefs {
  return {
    listOpens: row.listOpens,
    nights: row.nights,
    lottery: row.lottery,
    onDeck: row.onDeck,
    claims: row.claims,
    sets: row.sets,
    leadMinutes: row.leadMinutes,
    quietStart: row.quietStart ?? null,
    quietEnd: row.quietEnd ?? null,
    timeZone: row.timeZone,
  };
}

/** Everything on, the default lead time, no quiet hours: a comedian's choices before they save any. */
export const defaultPrefs = (timeZone: string): Prefs => ({
  listOpens: true,
  nights: true,
  lottery: true,
  onDeck: true,
  claims: true,
  sets: true,
  leadMinutes: DEFAULT_LEAD_MINUTES,
  quietStart: null,
  quietEnd: null,
  timeZone,
});

/** The comedian's choices: their row, or everything on in their profile's time zone. */
export async function readPrefs(ctx: QueryCtx, userId: Id<"users">): Promise<Prefs> {
  const row = await prefsRow(ctx, userId);
  return row === null ? defaultPrefs(await profileTimeZone(ctx, userId)) : toPrefs(row);
}

/** Saves the comedian's choices after checking each value. */
export async function savePrefs(ctx: MutationCtx, userId: Id<"users">, prefs: Prefs): Promise<null> {
  if (!(LEAD_MINUTES as readonly number[]).includes(prefs.leadMinutes)) invalid("Choose how long before the list.");
  if ((prefs.quietStart === null) !== (prefs.quietEnd === null)) invalid("Quiet hours need a start and an end.");
  for (const t of [prefs.quietStart, prefs.quietEnd]) {
    if (t !== null && (t.length !== 5 || parseHHMM(t) === null)) invalid("Quiet hours must be times like 22:00.");
  }
  if (prefs.timeZone.length > 64 || !isValidTimeZone(prefs.timeZone)) invalid("Unknown time zone.");
  const fields = {
    ...prefs,
    quietStart: prefs.quietStart ?? undefined,
    quietEnd: prefs.quietEnd ?? undefined,
  };
  const row = await prefsRow(ctx, userId);
  // A new list lead time moves the comedian's follower rows (one per followed mic), so it is limited.
  if (listLead(row) !== listLead(prefs)) await enforceRateLimit(ctx, "listLeadChange", userId);
  if (row === null) await ctx.db.insert("notificationPrefs", { userId, ...fields });
  else await ctx.db.replace("notificationPrefs", row._id, { userId, ...fields });
  return null;
}

/** Whether the comedian muted notices about the mic. */
export async function isMuted(ctx: QueryCtx, userId: Id<"users">, micId: Id<"sceneItems">): Promise<boolean> {
  const row = await ctx.db
    .query("notificationMutes")
    .withIndex("by_user_and_mic", (q) => q.eq("userId", userId).eq("micId", micId))
    .first();
  return row !== null;
}

/** Mutes or unmutes one mic's notices for the comedian. */
export async function setMuted(
  ctx: MutationCtx,
  { userId, micId, muted }: { userId: Id<"users">; micId: Id<"sceneItems">; muted: boolean },
): Promise<null> {
  const item = await ctx.db.get("sceneItems", micId);
  if (item === null) throw appError(ErrorCode.NOT_FOUND, "Event not found");
  const row = await ctx.db
    .query("notificationMutes")
    .withIndex("by_user_and_mic", (q) => q.eq("userId", userId).eq("micId", micId))
    .first();
  if (muted && row === null) await ctx.db.insert("notificationMutes", { userId, micId });
  if (!muted && row !== null) await ctx.db.delete("notificationMutes", row._id);
  return null;
}

// ---------------------------------------------------------------------------
// Devices

/** The push hosts this deployment allows beyond the browsers' push services. */
const allowedPushHosts = () => extraPushHosts(process.env.PUSH_ENDPOINT_HOSTS);

export const subscriptionValidator = v.object({
  endpoint: v.string(),
  keys: v.object({ p256dh: v.string(), auth: v.string() }),
});

/** Keeps a device's push subscription for the comedian (a device moving accounts moves with it). */
export async function subscribe(
  ctx: MutationCtx,
  userId: Id<"users">,
  sub: Infer<typeof subscriptionValidator>,
): Promise<null> {
  if (!isPushEndpoint(sub.endpoint, allowedPushHosts())) invalid("That push address is not allowed.");
  const key = /^[A-Za-z0-9_-]+={0,2}$/;
  for (const k of [sub.keys.p256dh, sub.keys.auth]) {
    if (k.length === 0 || k.length > MAX_KEY_LENGTH || !key.test(k)) invalid("That push subscription is malformed.");
  }
  const existing = await ctx.db
    .query("pushSubscriptions")
    .withIndex("by_endpoint", (q) => q.eq("endpoint", sub.endpoint))
    .first();
  if (existing !== null) await ctx.db.delete("pushSubscriptions", existing._id);
  const devices = await ctx.db
    .query("pushSubscriptions")
    .withIndex("by_user", (q) => q.eq("userId", userId))
    .take(MAX_DEVICES);
  // The oldest device makes room for the new one.
  if (devices.length >= MAX_DEVICES) await ctx.db.delete("pushSubscriptions", devices[0]._id);
  await ctx.db.insert("pushSubscriptions", {
    userId,
    endpoint: sub.endpoint,
    p256dh: sub.keys.p256dh,
    auth: sub.keys.auth,
  });
  return null;
}

function requireEndpointLength(endpoint: string): void {
  if (endpoint.length === 0 || endpoint.length > MAX_ENDPOINT_LENGTH || hasControlCharacters(endpoint))
    invalid("That push address is not allowed.");
}

/** Forgets the comedian's device (turning notifications off on it, or signing out). */
export async function unsubscribe(ctx: MutationCtx, userId: Id<"users">, endpoint: string): Promise<null> {
  requireEndpointLength(endpoint);
  const row = await ctx.db
    .query("pushSubscriptions")
    .withIndex("by_endpoint", (q) => q.eq("endpoint", endpoint))
    .first();
  if (row !== null && row.userId === userId) await ctx.db.delete("pushSubscriptions", row._id);
  return null;
}

/** Whether the device's endpoint is subscribed for the comedian. */
export async function hasDevice(ctx: QueryCtx, userId: Id<"users">, endpoint: string): Promise<boolean> {
  requireEndpointLength(endpoint);
  const row = await ctx.db
    .query("pushSubscriptions")
    .withIndex("by_endpoint", (q) => q.eq("endpoint", endpoint))
    .first();
  return row !== null && row.userId === userId;
}

// ---------------------------------------------------------------------------
// Sending

export type Notice = {
  kind: NotificationKind;
  /** What the notice is about, unique per event ("lottery:<listId>"): a repeat is dropped. */
  eventKey: string;
  title: string;
  body: string;
  /** The app page a tap opens, a path on this site ("/event/<id>"). */
  url: string;
};

type PushState = Doc<"notifications">["push"];

async function pushStateFor(ctx: MutationCtx, userId: Id<"users">, prefs: Prefs, nowMs: number): Promise<PushState> {
  if (vapidSettings() === null) return "not_configured";
  const device = await ctx.db
    .query("pushSubscriptions")
    .withIndex("by_user", (q) => q.eq("userId", userId))
    .first();
  if (device === null) return "no_devices";
  const quiet =
    prefs.quietStart !== null && prefs.quietEnd !== null ? { start: prefs.quietStart, end: prefs.quietEnd } : null;
  if (inQuietHours(nowMs, quiet, prefs.timeZone)) return "quiet_hours";
  // The last hour's notices (newest first), at most the limit plus the rows that pushed nothing.
  const recent = await ctx.db
    .query("notifications")
    .withIndex("by_user", (q) => q.eq("userId", userId).gt("_creationTime", nowMs - HOUR_MS))
    .order("desc")
    .take(PUSHES_PER_HOUR * 4);
  const pushed = recent.filter((n) => n.push === "queued" || n.push === "sent").length;
  return pushed >= PUSHES_PER_HOUR ? "rate_limited" : "queued";
}

/**
 * Tells a comedian something: one inbox row per account and `eventKey` (a repeat
 * returns null), then a push to their devices when their choices allow it. Skipped
 * when the topic is off or the mic is muted. Callable from any mutation (other
 * features enqueue through this; pass `micId` when the notice is about a mic).
 */
export async function notify(
  ctx: MutationCtx,
  args: { userId: Id<"users">; notice: Notice; micId?: Id<"sceneItems">; nowMs: number; prefs?: Prefs },
): Promise<Id<"notifications"> | null> {
  const { userId, notice, nowMs } = args;
  const prefs = args.prefs ?? (await readPrefs(ctx, userId));
  if (!prefs[TOPIC_OF[notice.kind]]) return null;
  if (args.micId !== undefined && (await isMuted(ctx, userId, args.micId))) return null;
  const eventKey = notice.eventKey.slice(0, MAX_EVENT_KEY_LENGTH);
  const seen = await ctx.db
    .query("notifications")
    .withIndex("by_user_and_eventKey", (q) => q.eq("userId", userId).eq("eventKey", eventKey))
    .first();
  if (seen !== null) return null;
  const push = await pushStateFor(ctx, userId, prefs, nowMs);
  const id = await ctx.db.insert("notifications", {
    userId,
    kind: notice.kind,
    eventKey,
    title: notice.title.slice(0, MAX_TITLE_LENGTH),
    body: notice.body.slice(0, MAX_BODY_LENGTH),
    url: appPath(notice.url),
    push,
  });
  if (push === "queued") await ctx.scheduler.runAfter(0, internal.push.deliver, { notificationId: id });
  return id;
}

// ---------------------------------------------------------------------------
// Delivery (the push action's reads and writes)

export const deliveryJobValidator = v.union(
  v.null(),
  v.object({
    payload: v.object({ title: v.string(), body: v.string(), url: v.string(), tag: v.string() }),
    devices: v.array(v.object({ endpoint: v.string(), p256dh: v.string(), auth: v.string() })),
  }),
);

/** What the push action sends and to which devices; null once it was sent (a notice goes out once). */
export async function deliveryJob(
  ctx: QueryCtx,
  notificationId: Id<"notifications">,
): Promise<Infer<typeof deliveryJobValidator>> {
  const n = await ctx.db.get("notifications", notificationId);
  if (n === null || n.push !== "queued") return null;
  const devices = await ctx.db
    .query("pushSubscriptions")
    .withIndex("by_user", (q) => q.eq("userId", n.userId))
    .take(MAX_DEVICES);
  return {
    payload: { title: n.title, body: n.body, url: n.url, tag: n.eventKey },
    // Checked again: a device kept before the push services were listed is never posted to.
    devices: devices
      .filter((d) => isPushEndpoint(d.endpoint, allowedPushHosts()))
      .map((d) => ({ endpoint: d.endpoint, p256dh: d.p256dh, auth: d.auth })),
  };
}

/** Records a delivery: the notice is sent, and devices the push service no longer knows are removed. */
export async function deliveryDone(
  ctx: MutationCtx,
  { notificationId, gone }: { notificationId: Id<"notifications">; gone: string[] },
): Promise<null> {
  const n = await ctx.db.get("notifications", notificationId);
  if (n !== null && n.push === "queued") await ctx.db.patch("notifications", n._id, { push: "sent" });
  for (const endpoint of gone) {
    const row = await ctx.db
      .query("pushSubscriptions")
      .withIndex("by_endpoint", (q) => q.eq("endpoint", endpoint))
      .first();
    if (row !== null) await ctx.db.delete("pushSubscriptions", row._id);
  }
  return null;
}

// ---------------------------------------------------------------------------
// The inbox

export const inboxEntryValidator = v.object({
  _id: v.id("notifications"),
  _creationTime: v.number(),
  kind: notificationKind,
  title: v.string(),
  body: v.string(),
  url: v.string(),
  read: v.boolean(),
});

function toEntry(n: Doc<"notifications">): Infer<typeof inboxEntryValidator> {
  return {
    _id: n._id,
    _creationTime: n._creationTime,
    kind: n.kind,
    title: n.title,
    body: n.body,
    url: n.url,
    read: n.readAt !== undefined,
  };
}

/** The comedian's newest notices and how many are unread. */
export async function inbox(
  ctx: QueryCtx,
  userId: Id<"users">,
): Promise<{ entries: Infer<typeof inboxEntryValidator>[]; unread: number }> {
  const [rows, unread] = await Promise.all([
    ctx.db
      .query("notifications")
      .withIndex("by_user", (q) => q.eq("userId", userId))
      .order("desc")
      .take(INBOX_PAGE),
    unreadCount(ctx, userId),
  ]);
  return {
    entries: rows.map(toEntry),
    unread,
  };
}

/** One page of the comedian's notices, newest first, through the by_user index. */
export async function inboxPage(
  ctx: QueryCtx,
  userId: Id<"users">,
  opts: PaginationOptions,
): Promise<PaginationResult<Infer<typeof inboxEntryValidator>>> {
  const page = await ctx.db
    .query("notifications")
    .withIndex("by_user", (q) => q.eq("userId", userId))
    .order("desc")
    .paginate({ ...opts, numItems: Math.max(1, Math.min(opts.numItems, INBOX_PAGE)) });
  return { ...page, page: page.page.map(toEntry) };
}

/** Unread notices, counted up to the inbox's page (the badge shows "50+" beyond). */
export async function unreadCount(ctx: QueryCtx, userId: Id<"users">): Promise<number> {
  const rows = await ctx.db
    .query("notifications")
    .withIndex("by_user_and_readAt", (q) => q.eq("userId", userId).eq("readAt", undefined))
    .take(INBOX_PAGE + 1);
  return rows.length;
}

/** Marks one of the comedian's notices read (someone else's is not found). */
export async function markRead(
  ctx: MutationCtx,
  userId: Id<"users">,
  id: Id<"notifications">,
  nowMs: number,
): Promise<null> {
  const n = await ctx.db.get("notifications", id);
  if (n === null || n.userId !== userId) throw appError(ErrorCode.NOT_FOUND, "Notification not found");
  if (n.readAt === undefined) await ctx.db.patch("notifications", id, { readAt: nowMs });
  return null;
}

/** Marks the comedian's unread notices read, a page at a time; returns whether some remain. */
export async function markAllRead(ctx: MutationCtx, userId: Id<"users">, nowMs: number): Promise<boolean> {
  const rows = await ctx.db
    .query("notifications")
    .withIndex("by_user_and_readAt", (q) => q.eq("userId", userId).eq("readAt", undefined))
    .take(INBOX_PAGE * 2);
  for (const n of rows) await ctx.db.patch("notifications", n._id, { readAt: nowMs });
  return rows.length === INBOX_PAGE * 2;
}

/** Newest notices an export carries (older ones are the same kinds of messages). */
const EXPORT_NOTICES = 500;
const EXPORT_MUTES = 1000;

/** The comedian's notification data for the account export: choices, muted mics, devices, newest notices. */
export async function notificationsExport(ctx: QueryCtx, userId: Id<"users">) {
  const [prefs, mutes, devices, notices] = await Promise.all([
    readPrefs(ctx, userId),
    ctx.db
      .query("notificationMutes")
      .withIndex("by_user_and_mic", (q) => q.eq("userId", userId))
      .take(EXPORT_MUTES),
    ctx.db
      .query("pushSubscriptions")
      .withIndex("by_user", (q) => q.eq("userId", userId))
      .take(MAX_DEVICES),
    ctx.db
      .query("notifications")
      .withIndex("by_user", (q) => q.eq("userId", userId))
      .order("desc")
      .take(EXPORT_NOTICES),
  ]);
  return {
    preferences: prefs,
    mutedMics: mutes.map((m) => m.micId as string),
    // A device's keys are secrets of the device; the export says which push services hold one.
    devices: devices.map((d) => ({ pushService: new URL(d.endpoint).origin, addedAt: d._creationTime })),
    inbox: notices.map((n) => ({
      kind: n.kind,
      title: n.title,
      body: n.body,
      url: n.url,
      createdAt: n._creationTime,
      readAt: n.readAt ?? null,
    })),
  };
}
