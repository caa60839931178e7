/**
 * Who hears about what. Events about one person (a claim decided, a spot coming up) are
 * told in the transaction that noticed them; events about a mic's followers (a list
 * opening, a night cancelled) go out in scheduled batches of {@link FAN_OUT_BATCH}
 * followers, each batch reading its rows flat through an index after the last one it
 * saw, so a mic with thousands of followers never makes one huge transaction and no
 * batch writes a document another batch writes. A list opening reads `micFollowers`
 * by mic and lead time: only the followers due at that lead time are read.
 */
import { v, type Infer } from "convex/values";
import { internal } from "../_generated/api";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { LEAD_MINUTES, type NotificationKind } from "../lib/notificationRules";
import { nextOccurrence } from "../lib/recurrence";
import { DEFAULT_TIME_ZONE, formatTime12h, localDateString, MINUTE_MS } from "../lib/time";
import { bySection, spotsOf, upAndOnDeck } from "./nightLists";
import { followersAt } from "./micFollowers";
import { notify, readPrefs } from "./notifications";

/** Followers one fan-out batch tells. */
export const FAN_OUT_BATCH = 100;
/** Alarms one run of the minute cron fires; more due ones are taken by a run it schedules at once. */
export const ALARM_BATCH = 100;

const eventUrl = (micId: Id<"sceneItems">) => `/event/${micId}`;

/**
 * Whom a fan-out batch reads: the comedians who scheduled the mic, or (a number) its
 * followers at that lead time. "favorites" reads every favourite (jobs queued before
 * followers were kept by lead time).
 */
export const audienceValidator = v.union(v.literal("favorites"), v.literal("schedule"), v.number());
type Audience = Infer<typeof audienceValidator>;

export const fanOutJobValidator = v.object({
  micId: v.id("sceneItems"),
  audiences: v.array(audienceValidator),
  /** The `_creationTime` of the last follower row told, in the first audience. */
  after: v.union(v.number(), v.null()),
  notice: v.object({
    kind: v.union(v.literal("list_open"), v.literal("night_cancelled"), v.literal("night_confirmed")),
    eventKey: v.string(),
    title: v.string(),
    body: v.string(),
    url: v.string(),
  }),
  /** Only followers who chose this lead time (in-person list openings). */
  leadMinutes: v.union(v.number(), v.null()),
});
export type FanOutJob = Infer<typeof fanOutJobValidator>;

async function followers(
  ctx: MutationCtx,
  micId: Id<"sceneItems">,
  audience: Audience,
  after: number | null,
): Promise<{ userId: Id<"users">; at: number; skip: boolean }[]> {
  if (typeof audience === "number") {
    const rows = await followersAt(ctx, { micId, leadMinutes: audience, after, limit: FAN_OUT_BATCH });
    return rows.map((r) => ({ userId: r.userId, at: r._creationTime, skip: false }));
  }
  if (audience === "favorites") {
    const rows = await ctx.db
      .query("favorites")
      .withIndex("by_item", (q) =>
        after === null ? q.eq("sceneItemId", micId) : q.eq("sceneItemId", micId).gt("_creationTime", after),
      )
      .take(FAN_OUT_BATCH);
    return rows.map((r) => ({ userId: r.userId, at: r._creationTime, skip: false }));
  }
  const rows = await ctx.db
    .query("scheduleEntries")
    .withIndex("by_item", (q) =>
      after === null ? q.eq("sceneItemId", micId) : q.eq("sceneItemId", micId).gt("_creationTime", after),
    )
    .take(FAN_OUT_BATCH);
  // A finished entry is a night already played, not a plan.
  return rows.map((r) => ({ userId: r.userId, at: r._creationTime, skip: r.completedAt !== undefined }));
}

/**
 * One batch of a fan-out: tells up to {@link FAN_OUT_BATCH} followers of the first
 * audience, and returns the job for the next batch (null when everyone was told).
 * Someone who both favourited and scheduled the mic hears once (the event key).
 */
export async function fanOutBatch(
  ctx: MutationCtx,
  job: FanOutJob,
  nowMs: number,
): Promise<{ told: number; next: FanOutJob | null }> {
  const [audience, ...rest] = job.audiences;
  if (audience === undefined) return { told: 0, next: null };
  const rows = await followers(ctx, job.micId, audience, job.after);
  let told = 0;
  for (const row of rows) {
    if (row.skip) continue;
    const prefs = await readPrefs(ctx, row.userId);
    if (job.leadMinutes !== null && prefs.leadMinutes !== job.leadMinutes) continue;
    const id = await notify(ctx, { userId: row.userId, notice: job.notice, micId: job.micId, nowMs, prefs });
    if (id !== null) told++;
  }
  if (rows.length === FAN_OUT_BATCH) return { told, next: { ...job, after: rows[rows.length - 1].at } };
  if (rest.length > 0) return { told, next: { ...job, audiences: rest, after: null } };
  return { told, next: null };
}

/** Starts a fan-out: its first batch runs as its own scheduled mutation. */
export async function startFanOut(ctx: MutationCtx, job: Omit<FanOutJob, "after">, atMs?: number): Promise<void> {
  const full = { ...job, after: null };
  if (atMs === undefined) await ctx.scheduler.runAfter(0, internal.notifications.fanOut, { job: full });
  else await ctx.scheduler.runAt(atMs, internal.notifications.fanOut, { job: full });
}

// ---------------------------------------------------------------------------
// Nights cancelled or confirmed

const shortDate = (date: string) => {
  const [y, m, d] = date.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString("en-US", {
    weekday: "short",
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });
};

/** Tells the comedians who scheduled the mic that one of its nights was cancelled or confirmed. */
export async function nightChanged(
  ctx: MutationCtx,
  { item, date, change }: { item: Doc<"sceneItems">; date: string; change: "cancelled" | "confirmed" },
): Promise<void> {
  const kind: NotificationKind = change === "cancelled" ? "night_cancelled" : "night_confirmed";
  await startFanOut(ctx, {
    micId: item._id,
    audiences: ["schedule"],
    leadMinutes: null,
    notice: {
      kind,
      eventKey: `${kind}:${item._id}:${date}`,
      title: change === "cancelled" ? `${item.title} is cancelled` : `${item.title} is on`,
      body:
        change === "cancelled" ? `The host cancelled ${shortDate(date)}.` : `The host confirmed ${shortDate(date)}.`,
      url: eventUrl(item._id),
    },
  });
}

// ---------------------------------------------------------------------------
// List openings

/** Where a mic's list-opening alarm stands, or null when it has none (not an in-person open mic with a time). */
export function alarmFor(
  item: Doc<"sceneItems">,
  nowMs: number,
): { listAt: number; leadIndex: number; fireAt: number } | null {
  if (item.status !== "active" || item.type !== "open_mic" || item.signupMethod === "online") return null;
  const listTime = item.listTimeLocal ?? item.startTimeLocal;
  if (listTime === undefined) return null;
  const at = { ...item, startTimeLocal: listTime };
  let listAt = nextOccurrence(at, nowMs);
  for (let tries = 0; listAt !== null && tries < 2; tries++) {
    const leadIndex = LEAD_MINUTES.findIndex((m) => listAt! - m * MINUTE_MS >= nowMs);
    if (leadIndex >= 0) return { listAt, leadIndex, fireAt: listAt - LEAD_MINUTES[leadIndex] * MINUTE_MS };
    // Too close to tonight's list for any lead time: the next night's.
    listAt = nextOccurrence(at, listAt + 1);
  }
  return null;
}

/** Puts the mic's alarm where its day and list time say (after a mic is added or edited). */
export async function syncAlarm(ctx: MutationCtx, item: Doc<"sceneItems">, nowMs: number): Promise<void> {
  const row = await ctx.db
    .query("listAlarms")
    .withIndex("by_micId", (q) => q.eq("micId", item._id))
    .first();
  const next = alarmFor(item, nowMs);
  if (next === null) {
    if (row !== null) await ctx.db.delete("listAlarms", row._id);
  } else if (row === null) {
    await ctx.db.insert("listAlarms", { micId: item._id, ...next });
  } else if (row.listAt !== next.listAt || row.fireAt !== next.fireAt) {
    await ctx.db.patch("listAlarms", row._id, next);
  }
}

/** The notice of an in-person list about to open. */
function listOpensNotice(item: Doc<"sceneItems">, listAt: number, leadMinutes: number): FanOutJob["notice"] {
  const date = localDateString(listAt, item.timeZone || DEFAULT_TIME_ZONE);
  const time = formatTime12h(item.listTimeLocal ?? item.startTimeLocal ?? "00:00");
  return {
    kind: "list_open",
    eventKey: `list_open:${item._id}:${date}`,
    title: `${item.title}: list in ${leadMinutes} min`,
    body: `The list opens at ${time} at ${item.venueName}.`,
    url: eventUrl(item._id),
  };
}

/**
 * One run of the minute cron: fires the due alarms (each starts a fan-out to the
 * followers who chose that lead time) and moves each to its next lead time or night.
 * Each alarm is its own row, so firing touches nothing another mic's alarm touches.
 */
export async function fireDueAlarms(ctx: MutationCtx, nowMs: number): Promise<{ fired: number; more: boolean }> {
  const due = await ctx.db
    .query("listAlarms")
    .withIndex("by_fireAt", (q) => q.lte("fireAt", nowMs))
    .take(ALARM_BATCH);
  let fired = 0;
  for (const alarm of due) {
    const item = await ctx.db.get("sceneItems", alarm.micId);
    if (item === null) {
      await ctx.db.delete("listAlarms", alarm._id);
      continue;
    }
    const lead = LEAD_MINUTES[alarm.leadIndex];
    const date = localDateString(alarm.listAt, item.timeZone || DEFAULT_TIME_ZONE);
    // A late run (the backend was down) does not announce a list that has already opened.
    if (lead !== undefined && alarm.listAt > nowMs && !(item.cancelledDates ?? []).includes(date)) {
      await startFanOut(ctx, {
        micId: item._id,
        audiences: [lead],
        leadMinutes: lead,
        notice: listOpensNotice(item, alarm.listAt, lead),
      });
      fired++;
    }
    const nextIndex = alarm.leadIndex + 1;
    if (nextIndex < LEAD_MINUTES.length && alarm.listAt - LEAD_MINUTES[nextIndex] * MINUTE_MS > nowMs) {
      await ctx.db.patch("listAlarms", alarm._id, {
        leadIndex: nextIndex,
        fireAt: alarm.listAt - LEAD_MINUTES[nextIndex] * MINUTE_MS,
      });
    } else {
      const next = alarmFor(item, Math.max(nowMs, alarm.listAt + 1));
      if (next === null) await ctx.db.delete("listAlarms", alarm._id);
      else await ctx.db.patch("listAlarms", alarm._id, next);
    }
  }
  return { fired, more: due.length === ALARM_BATCH };
}

/** Gives every active mic its alarm, a page at a time (after deploying, or a restore). */
export async function backfillAlarms(
  ctx: MutationCtx,
  cursor: string | null,
  nowMs: number,
): Promise<{ cursor: string; done: boolean }> {
  const page = await ctx.db
    .query("sceneItems")
    .withIndex("by_status_and_day", (q) => q.eq("status", "active"))
    .paginate({ cursor, numItems: ALARM_BATCH });
  for (const item of page.page) await syncAlarm(ctx, item, nowMs);
  return { cursor: page.continueCursor, done: page.isDone };
}

/** An online list (opened in the app) tells the mic's followers when its sign-up opens. */
export async function onlineListOpened(ctx: MutationCtx, list: Doc<"nightLists">, nowMs: number): Promise<void> {
  const item = await ctx.db.get("sceneItems", list.micId);
  if (item === null) return;
  await startFanOut(
    ctx,
    {
      micId: item._id,
      // Everyone who follows it with list openings on, whatever their lead time.
      audiences: [...LEAD_MINUTES],
      leadMinutes: null,
      notice: {
        kind: "list_open",
        eventKey: `list_open:${item._id}:${list.date}`,
        title: `${item.title}: the list is open`,
        body: "Sign up on StageTime now.",
        url: eventUrl(item._id),
      },
    },
    list.signupOpensAt > nowMs ? list.signupOpensAt : undefined,
  );
}

// ---------------------------------------------------------------------------
// The live list: the draw, and who is coming up

/** Tells everyone in a lottery where the draw put them. */
export async function lotteryDrawn(ctx: MutationCtx, listId: Id<"nightLists">, nowMs: number): Promise<number> {
  const list = await ctx.db.get("nightLists", listId);
  if (list === null || list.drawnAt === undefined) return 0;
  const item = await ctx.db.get("sceneItems", list.micId);
  if (item === null) return 0;
  const spots = await spotsOf(ctx, listId);
  const waitlist = bySection(spots, "waitlist");
  let told = 0;
  for (const spot of spots) {
    if (spot.userId === undefined || spot.drawIndex === undefined) continue;
    let body: string;
    if (spot.section === "list") body = "You're in. See you on the list.";
    else {
      const place = waitlist.findIndex((s) => s._id === spot._id) + 1;
      body = place > 0 && place <= list.waitlistSpots ? `You're on the waitlist, #${place}.` : "Not this time.";
    }
    const id = await notify(ctx, {
      userId: spot.userId,
      micId: item._id,
      nowMs,
      notice: {
        kind: "lottery",
        eventKey: `lottery:${listId}`,
        title: `${item.title}: the lottery is drawn`,
        body,
        url: eventUrl(item._id),
      },
    });
    if (id !== null) told++;
  }
  return told;
}

/**
 * After a host's change to a running list: the comedian on deck and the one after
 * them hear it, once each per spot. Nothing before the first set starts.
 */
export async function listMoved(ctx: MutationCtx, listId: Id<"nightLists">, nowMs: number): Promise<number> {
  const list = await ctx.db.get("nightLists", listId);
  if (list === null || list.status !== "open") return 0;
  const listed = bySection(await spotsOf(ctx, listId), "list");
  if (!listed.some((s) => s.state === "up" || s.state === "done")) return 0;
  const item = await ctx.db.get("sceneItems", list.micId);
  if (item === null) return 0;
  const { onDeck } = upAndOnDeck(listed);
  const waiting = listed.filter((s) => s.state === "waiting");
  const nextButOne = waiting.length > 1 && waiting[0]._id === onDeck?._id ? waiting[1] : null;
  let told = 0;
  for (const [spot, kind] of [
    [onDeck, "on_deck"],
    [nextButOne, "up_next"],
  ] as const) {
    if (spot === null || spot.userId === undefined) continue;
    const id = await notify(ctx, {
      userId: spot.userId,
      micId: item._id,
      nowMs,
      notice:
        kind === "on_deck"
          ? {
              kind,
              eventKey: `on_deck:${spot._id}`,
              title: "You're on deck",
              body: `You're up next at ${item.title}.`,
              url: eventUrl(item._id),
            }
          : {
              kind,
              eventKey: `up_next:${spot._id}`,
              title: "You're up after the next set",
              body: `Two to go at ${item.title}: get ready.`,
              url: eventUrl(item._id),
            },
    });
    if (id !== null) told++;
  }
  return told;
}
