import { v, type Infer } from "convex/values";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { appError, ErrorCode } from "../errors";
import { nextOccurrence, occurrencesInRange } from "../lib/recurrence";
import { completedAtMs, isPerformanceCompleted } from "../lib/schedule";
import { DAY_MS, compareWeeklySlots, localDateString } from "../lib/time";
import { nightStatus, nightsOverlap } from "../lib/tonight";
import { recurrence, sceneItemType } from "../schema";
import { requireActiveItem } from "./scene";

/** The same item cannot be added again within this many ms of the last add. */
export const DUPLICATE_WINDOW_MS = 7 * DAY_MS;
/** Most entries of one comedian for one item handled at once. */
const ENTRIES_PER_ITEM_LIMIT = 100;

/**
 * Adds an active item with a complete schedule (day and start time) to the
 * comedian's schedule, unless they added it less than 7 days ago. Returns the
 * entry and the next time the item runs (null when it never runs again).
 */
export async function addToSchedule(
  ctx: MutationCtx,
  { userId, sceneItemId, nowMs }: { userId: Id<"users">; sceneItemId: Id<"sceneItems">; nowMs: number },
): Promise<{
  entryId: Id<"scheduleEntries">;
  nextOccurrence: number | null;
  overlaps: Array<{ title: string; startMs: number }>;
}> {
  const item = await requireActiveItem(ctx, sceneItemId);
  if (item.dayOfWeek === null || item.dayOfWeek === undefined || !item.startTimeLocal) {
    throw appError(ErrorCode.INCOMPLETE_SCHEDULE, "This event doesn't have a complete schedule");
  }
  const latest = await ctx.db
    .query("scheduleEntries")
    .withIndex("by_user_and_item", (q) => q.eq("userId", userId).eq("sceneItemId", sceneItemId))
    .order("desc")
    .first();
  if (latest !== null && nowMs - latest.addedAt < DUPLICATE_WINDOW_MS) {
    throw appError(ErrorCode.ALREADY_EXISTS, "Already in your schedule");
  }
  const entryId = await ctx.db.insert("scheduleEntries", {
    userId,
    sceneItemId,
    addedAt: nowMs,
    dueAt: entryDueAt(item, { addedAt: nowMs, completedAt: undefined }, nowMs),
  });
  const next = nextOccurrence(item, nowMs);
  const overlaps = next === null ? [] : await overlappingNights(ctx, { userId, item, startMs: next, nowMs });
  return { entryId, nextOccurrence: next, overlaps };
}

/** Most of the comedian's schedule entries looked at for an overlap. */
const OVERLAP_ENTRIES_READ = 200;

/**
 * The comedian's other scheduled mics whose next night overlaps the new one's
 * (start to start + set length + 30 minutes): a warning, never a refusal.
 */
async function overlappingNights(
  ctx: MutationCtx,
  { userId, item, startMs, nowMs }: { userId: Id<"users">; item: Doc<"sceneItems">; startMs: number; nowMs: number },
): Promise<Array<{ title: string; startMs: number }>> {
  const entries = await ctx.db
    .query("scheduleEntries")
    .withIndex("by_user_and_item", (q) => q.eq("userId", userId))
    .take(OVERLAP_ENTRIES_READ);
  const otherIds = [...new Set(entries.filter((e) => e.completedAt === undefined).map((e) => e.sceneItemId))].filter(
    (id) => id !== item._id,
  );
  const others = await Promise.all(otherIds.map((id) => ctx.db.get("sceneItems", id)));
  const found: Array<{ title: string; startMs: number }> = [];
  // Nights of the other mics that could touch the new one: from a day before it.
  const from = Math.max(nowMs, startMs - DAY_MS);
  for (const other of others) {
    if (other === null || other.status !== "active") continue;
    const otherStart = nextOccurrence(other, from);
    if (otherStart === null) continue;
    if (
      nightsOverlap(
        { startMs, performanceMinutes: item.performanceMinutes },
        { startMs: otherStart, performanceMinutes: other.performanceMinutes },
      )
    ) {
      found.push({ title: other.title, startMs: otherStart });
    }
  }
  return found.sort((a, b) => a.startMs - b.startMs);
}

function notInSchedule(): never {
  throw appError(ErrorCode.NOT_FOUND, "Event not found in your schedule");
}

/** Deletes one of the comedian's own schedule entries. */
export async function removeEntry(
  ctx: MutationCtx,
  userId: Id<"users">,
  entryId: Id<"scheduleEntries">,
): Promise<void> {
  const entry = await ctx.db.get("scheduleEntries", entryId);
  if (entry === null || entry.userId !== userId) notInSchedule();
  await ctx.db.delete("scheduleEntries", entryId);
}

/** Deletes every entry the comedian has for the item. */
export async function removeByItem(
  ctx: MutationCtx,
  userId: Id<"users">,
  sceneItemId: Id<"sceneItems">,
): Promise<void> {
  const entries = await ctx.db
    .query("scheduleEntries")
    .withIndex("by_user_and_item", (q) => q.eq("userId", userId).eq("sceneItemId", sceneItemId))
    .take(ENTRIES_PER_ITEM_LIMIT);
  if (entries.length === 0) notInSchedule();
  await Promise.all(entries.map((entry) => ctx.db.delete("scheduleEntries", entry._id)));
}

// ---------------------------------------------------------------------------
// The week view, the calendar export and the completed-entry cleanup.

/** Most schedule entries, sets and created mics read for one comedian's week. */
const WEEK_ENTRIES_LIMIT = 500;
const WEEK_SETS_LIMIT = 500;
const CREATED_ITEMS_LIMIT = 200;
/** A week is 7 days (167 or 169 hours across DST); anything much longer is refused. */
const MAX_RANGE_MS = 8 * DAY_MS;

export const UNKNOWN_VENUE = "Unknown Venue";

export const weekItemValidator = v.union(
  v.object({
    kind: v.literal("scheduled"),
    entryId: v.id("scheduleEntries"),
    sceneItemId: v.id("sceneItems"),
    title: v.string(),
    venueName: v.string(),
    city: v.string(),
    startsAt: v.number(),
    type: sceneItemType,
    recurrence,
    /** That night's status: cancelled or host confirmed (absent when neither). */
    nightStatus: v.optional(v.union(v.literal("cancelled"), v.literal("confirmed"))),
  }),
  v.object({
    kind: v.literal("session"),
    performanceId: v.id("performances"),
    sceneItemId: v.union(v.id("sceneItems"), v.null()),
    title: v.string(),
    venueName: v.union(v.string(), v.null()),
    startsAt: v.number(),
    minutes: v.number(),
  }),
  v.object({
    kind: v.literal("scene"),
    sceneItemId: v.id("sceneItems"),
    title: v.string(),
    venueName: v.string(),
    city: v.string(),
    startsAt: v.number(),
    type: sceneItemType,
    nightStatus: v.optional(v.union(v.literal("cancelled"), v.literal("confirmed"))),
  }),
);
export type WeekItem = Infer<typeof weekItemValidator>;

export const weekValidator = v.object({
  items: v.array(weekItemValidator),
  stats: v.object({
    upcoming: v.number(),
    totalSetsLogged: v.number(),
    uniqueVenues: v.number(),
    totalMinutes: v.number(),
  }),
});
export type ScheduleWeek = Infer<typeof weekValidator>;

/** Throws INVALID_INPUT unless [startMs, endMs] is a plausible week. */
export function assertWeekRange(startMs: number, endMs: number): void {
  if (!Number.isFinite(startMs) || !Number.isFinite(endMs) || endMs < startMs || endMs - startMs > MAX_RANGE_MS) {
    throw appError(ErrorCode.INVALID_INPUT, "Please choose a week.");
  }
}

/** The comedian's sets performed within [startMs, endMs], oldest first. */
export async function setsInRange(
  ctx: QueryCtx,
  { userId, startMs, endMs }: { userId: Id<"users">; startMs: number; endMs: number },
): Promise<Doc<"performances">[]> {
  return await ctx.db
    .query("performances")
    .withIndex("by_user_and_performedAt", (q) =>
      q.eq("userId", userId).gte("performedAt", startMs).lte("performedAt", endMs),
    )
    .take(WEEK_SETS_LIMIT);
}

/** Per mic, the comedian's latest entry and the latest occurrence start marked done. */
type ItemEntries = { entry: Doc<"scheduleEntries">; completedAt: number | undefined };

async function entriesByItem(ctx: QueryCtx, userId: Id<"users">): Promise<Map<Id<"sceneItems">, ItemEntries>> {
  const rows = await ctx.db
    .query("scheduleEntries")
    .withIndex("by_user_and_item", (q) => q.eq("userId", userId))
    .take(WEEK_ENTRIES_LIMIT);
  const byItem = new Map<Id<"sceneItems">, ItemEntries>();
  for (const row of rows) {
    const seen = byItem.get(row.sceneItemId);
    const completedAt =
      seen?.completedAt === undefined
        ? row.completedAt
        : row.completedAt === undefined
          ? seen.completedAt
          : Math.max(seen.completedAt, row.completedAt);
    // A mic added again after the duplicate window has two entries: show it once, with the latest.
    const entry = seen === undefined || row.addedAt > seen.entry.addedAt ? row : seen.entry;
    byItem.set(row.sceneItemId, { entry, completedAt });
  }
  return byItem;
}

async function getItems(
  ctx: QueryCtx,
  ids: Iterable<Id<"sceneItems">>,
): Promise<Map<Id<"sceneItems">, Doc<"sceneItems">>> {
  const unique = [...new Set(ids)];
  const docs = await Promise.all(unique.map((id) => ctx.db.get("sceneItems", id)));
  const out = new Map<Id<"sceneItems">, Doc<"sceneItems">>();
  for (const doc of docs) if (doc !== null) out.set(doc._id, doc);
  return out;
}

/** Occurrence starts of the item within the range that are not over at `nowMs`. */
function openOccurrences({
  item,
  startMs,
  endMs,
  nowMs,
}: {
  item: Doc<"sceneItems">;
  startMs: number;
  endMs: number;
  nowMs: number;
}): number[] {
  return occurrencesInRange(item, startMs, endMs).filter(
    (start) =>
      !isPerformanceCompleted({ occurrenceStartMs: start, performanceMinutes: item.performanceMinutes, nowMs }),
  );
}

/**
 * The comedian's week (Monday to Sunday, passed by the client): scheduled
 * mics at their occurrences, the sets they logged, and the mics they created
 * that they have not scheduled, sorted by start. An occurrence that is over
 * at `nowMs` (60 minutes plus the set length after its start), that the
 * cleanup marked done, or at whose mic a set was already logged that day, is
 * left out, so the page is right between cleanup runs.
 */
export async function week(
  ctx: QueryCtx,
  userId: Id<"users">,
  { weekStartMs, weekEndMs, nowMs }: { weekStartMs: number; weekEndMs: number; nowMs: number },
): Promise<ScheduleWeek> {
  assertWeekRange(weekStartMs, weekEndMs);
  const [entries, sets, created, stats] = await Promise.all([
    entriesByItem(ctx, userId),
    setsInRange(ctx, { userId, startMs: weekStartMs, endMs: weekEndMs }),
    ctx.db
      .query("sceneItems")
      .withIndex("by_createdBy", (q) => q.eq("createdBy", userId))
      .take(CREATED_ITEMS_LIMIT),
    ctx.db
      .query("userStats")
      .withIndex("by_userId", (q) => q.eq("userId", userId))
      .unique(),
  ]);
  const items = await getItems(ctx, [
    ...entries.keys(),
    ...sets.flatMap((s) => (s.sceneItemId === undefined ? [] : [s.sceneItemId])),
  ]);

  const out: WeekItem[] = [];
  // Local dates (item's zone) on which a set was logged at a mic: that night's spot is done.
  const loggedNights = new Set<string>();
  for (const set of sets) {
    const item = set.sceneItemId === undefined ? undefined : items.get(set.sceneItemId);
    if (set.sceneItemId !== undefined && item !== undefined) {
      loggedNights.add(`${set.sceneItemId}|${localDateString(set.performedAt, item.timeZone)}`);
    }
    const venueName = item?.venueName ?? set.venueName ?? null;
    out.push({
      kind: "session",
      performanceId: set._id,
      sceneItemId: set.sceneItemId ?? null,
      title: item?.title || venueName || UNKNOWN_VENUE,
      venueName,
      startsAt: set.performedAt,
      minutes: set.minutes,
    });
  }

  for (const [sceneItemId, { entry, completedAt }] of entries) {
    const item = items.get(sceneItemId);
    if (item === undefined || item.status !== "active") continue;
    for (const startsAt of openOccurrences({ item, startMs: weekStartMs, endMs: weekEndMs, nowMs })) {
      if (completedAt !== undefined && startsAt <= completedAt) continue;
      if (loggedNights.has(`${sceneItemId}|${localDateString(startsAt, item.timeZone)}`)) continue;
      out.push({
        kind: "scheduled",
        entryId: entry._id,
        sceneItemId,
        title: item.title,
        venueName: item.venueName,
        city: item.city,
        startsAt,
        type: item.type,
        recurrence: item.recurrence,
        nightStatus: nightStatus(item, localDateString(startsAt, item.timeZone)) ?? undefined,
      });
    }
  }

  for (const item of created) {
    if (item.status !== "active" || entries.has(item._id)) continue;
    for (const startsAt of openOccurrences({ item, startMs: weekStartMs, endMs: weekEndMs, nowMs })) {
      out.push({
        kind: "scene",
        sceneItemId: item._id,
        title: item.title,
        venueName: item.venueName,
        city: item.city,
        startsAt,
        type: item.type,
        nightStatus: nightStatus(item, localDateString(startsAt, item.timeZone)) ?? undefined,
      });
    }
  }

  const kindOrder = { scheduled: 0, scene: 1, session: 2 } as const;
  out.sort(
    (a, b) => a.startsAt - b.startsAt || kindOrder[a.kind] - kindOrder[b.kind] || a.title.localeCompare(b.title),
  );
  return {
    items: out,
    stats: {
      upcoming: out.filter((i) => i.kind !== "session").length,
      totalSetsLogged: stats?.totalSets ?? 0,
      uniqueVenues: stats?.uniqueVenues ?? 0,
      totalMinutes: stats?.totalMinutes ?? 0,
    },
  };
}

export const calendarItemValidator = v.object({
  sceneItemId: v.id("sceneItems"),
  title: v.string(),
  venueName: v.string(),
  address: v.optional(v.string()),
  city: v.string(),
  timeZone: v.string(),
  dayOfWeek: v.union(v.number(), v.null()),
  startTimeLocal: v.string(),
  recurrence,
  customRecurrenceDescription: v.optional(v.string()),
  monthlyRule: v.optional(v.string()),
  performanceMinutes: v.optional(v.number()),
  /** The local date the item's cadence counts from (its creation day), as the schedule uses it. */
  anchorDate: v.union(v.string(), v.null()),
});
export type CalendarItem = Infer<typeof calendarItemValidator>;

/**
 * The comedian's scheduled, active mics that still run at or after `fromMs`,
 * with what an .ics export needs (pass each to lib/recurrence
 * `calendarRecurrence(item, fromMs)`), ordered by day and time.
 */
export async function calendar(ctx: QueryCtx, userId: Id<"users">, fromMs: number): Promise<CalendarItem[]> {
  const entries = await entriesByItem(ctx, userId);
  const items = await getItems(ctx, entries.keys());
  const out: CalendarItem[] = [];
  for (const item of items.values()) {
    if (item.status !== "active" || !item.startTimeLocal) continue;
    // The same anchor lib/recurrence takes from the document, so the .ics repeats like the week view.
    const anchorDate = item.anchorDate ?? localDateString(item._creationTime, item.timeZone);
    if (nextOccurrence(item, fromMs) === null) continue;
    out.push({
      sceneItemId: item._id,
      title: item.title,
      venueName: item.venueName,
      address: item.address,
      city: item.city,
      timeZone: item.timeZone,
      dayOfWeek: item.dayOfWeek ?? null,
      startTimeLocal: item.startTimeLocal,
      recurrence: item.recurrence,
      customRecurrenceDescription: item.customRecurrenceDescription,
      monthlyRule: item.monthlyRule,
      performanceMinutes: item.performanceMinutes,
      anchorDate,
    });
  }
  return out.sort(compareWeeklySlots);
}

/** Entries looked at per cleanup transaction (plus one mic read each). */
export const CLEANUP_BATCH = 100;
/** How far back the cleanup looks for the latest finished occurrence. */
const CLEANUP_LOOKBACK_MS = 400 * DAY_MS;
/**
 * The start of the latest occurrence of the entry's mic that is over at
 * `nowMs` and later than the one already marked, or null when there is none.
 * Occurrences already over when the mic was added do not count.
 */
export function latestFinishedOccurrence(
  item: Doc<"sceneItems">,
  entry: Pick<Doc<"scheduleEntries">, "addedAt" | "completedAt">,
  nowMs: number,
): number | null {
  // An occurrence is over once start + (60 + set length) minutes has come.
  const overAfter = completedAtMs(0, item.performanceMinutes);
  const fromMs = Math.max(
    entry.completedAt === undefined ? -Infinity : entry.completedAt + 1,
    entry.addedAt - overAfter + 1,
    nowMs - CLEANUP_LOOKBACK_MS,
  );
  const starts = occurrencesInRange(item, fromMs, nowMs - overAfter).filter((start) =>
    isPerformanceCompleted({ occurrenceStartMs: start, performanceMinutes: item.performanceMinutes, nowMs }),
  );
  return starts.length === 0 ? null : starts[starts.length - 1];
}

/**
 * When the cleanup next has to look at an entry for `item` (its `dueAt`):
 * the instant its next occurrence that is not over at `nowMs` becomes over
 * (start + 60 minutes + set length); `nowMs` when the mic will not run
 * again, so that the entry is removed by the next run. Always later than
 * `nowMs` unless the entry is removable. A mic's cadence never changes after
 * it is created; an edit of its day or time can only make the next mark come
 * late (by at most one occurrence), and the week view hides finished
 * occurrences by itself meanwhile.
 */
export function entryDueAt(
  item: Doc<"sceneItems"> | null,
  entry: Pick<Doc<"scheduleEntries">, "addedAt" | "completedAt">,
  nowMs: number,
): number {
  if (item === null) return nowMs;
  const overAfter = completedAtMs(0, item.performanceMinutes);
  const fromMs = Math.max(
    nowMs - overAfter + 1,
    entry.completedAt === undefined ? -Infinity : entry.completedAt + 1,
    entry.addedAt - overAfter + 1,
  );
  const start = nextOccurrence(item, fromMs);
  if (start === null) return nowMs;
  return start + overAfter;
}

/**
 * One batch of the five-minute cleanup (part 1 §4, §9). It reads only the
 * entries that are due (`dueAt` at or before `nowMs`, or not set yet): each
 * whose mic has an occurrence that is over gets `completedAt` = that
 * occurrence's start, which hides it from the week; an entry whose mic will
 * not run again (a one-time show that is over, a deleted mic) is deleted, as
 * the spec's auto_remove_completed_events did. Every entry it keeps gets its
 * next `dueAt`, later than `nowMs`, so it leaves the range read: `more` says
 * whether due entries remain for another batch.
 */
export async function cleanupCompleted(
  ctx: MutationCtx,
  nowMs: number,
): Promise<{ marked: number; removed: number; more: boolean }> {
  const due = await ctx.db
    .query("scheduleEntries")
    // Entries without dueAt (added before it existed) sort first and are in range.
    .withIndex("by_dueAt", (q) => q.lte("dueAt", nowMs))
    .take(CLEANUP_BATCH + 1);
  const batch = due.slice(0, CLEANUP_BATCH);
  const items = await getItems(
    ctx,
    batch.map((e) => e.sceneItemId),
  );
  let marked = 0;
  let removed = 0;
  for (const entry of batch) {
    const item = items.get(entry.sceneItemId) ?? null;
    const latest = item === null ? null : latestFinishedOccurrence(item, entry, nowMs);
    const completedAt = latest ?? entry.completedAt;
    const dueAt = entryDueAt(item, { addedAt: entry.addedAt, completedAt }, nowMs);
    if (dueAt <= nowMs) {
      await ctx.db.delete("scheduleEntries", entry._id);
      removed += 1;
    } else {
      await ctx.db.patch("scheduleEntries", entry._id, latest === null ? { dueAt } : { completedAt: latest, dueAt });
      if (latest !== null) marked += 1;
    }
  }
  return { marked, removed, more: due.length > CLEANUP_BATCH };
}

/**
 * One batch of the `dueAt` migration: gives entries written before the field
 * existed their `dueAt` (the cleanup also handles them, as due, until then).
 * Returns how many were set and whether more remain.
 */
export async function backfillDueAt(ctx: MutationCtx, nowMs: number): Promise<{ updated: number; more: boolean }> {
  const missing = await ctx.db
    .query("scheduleEntries")
    .withIndex("by_dueAt", (q) => q.eq("dueAt", undefined))
    .take(CLEANUP_BATCH + 1);
  const batch = missing.slice(0, CLEANUP_BATCH);
  const items = await getItems(
    ctx,
    batch.map((e) => e.sceneItemId),
  );
  for (const entry of batch) {
    const dueAt = entryDueAt(items.get(entry.sceneItemId) ?? null, entry, nowMs);
    await ctx.db.patch("scheduleEntries", entry._id, { dueAt });
  }
  return { updated: batch.length, more: missing.length > CLEANUP_BATCH };
}
