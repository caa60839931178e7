/**
 * The comedian's week view and calendar export, built from their schedule
 * entries, their sets and the mics they created.
 */
import { v, type Infer } from "convex/values";
import type { Doc, Id } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";
import { appError, ErrorCode } from "../errors";
import { nextOccurrence, occurrencesInRange } from "../lib/recurrence";
import { isPerformanceCompleted } from "../lib/schedule";
import { DAY_MS, compareWeeklySlots, localDateString } from "../lib/time";
import { nightStatus } from "../lib/tonight";
import { recurrence, sceneItemType } from "../schema";
import { micsById } from "./scene";

/** Most schedule entries, sets and created mics read for one comedian's week. */
const WEEK_ENTRIES_LIMIT = 500;
const WEEK_SETS_LIMIT = 500;
const CREATED_ITEMS_LIMIT = 200;
/** A week is 7 days (167 or 169 hours across DST); anything much longer is refused. */
const MAX_RANGE_MS = 8 * DAY_MS;

export const UNKNOWN_VENUE = "Unknown Venue";

/** A mic's night in the week: what a scheduled mic and a mic of the scene both show. */
const micNightFields = {
  sceneItemId: v.id("sceneItems"),
  title: v.string(),
  venueName: v.string(),
  city: v.string(),
  startsAt: v.number(),
  type: sceneItemType,
  /** That night's status: cancelled or host confirmed (absent when neither). */
  nightStatus: v.optional(v.union(v.literal("cancelled"), v.literal("confirmed"))),
};

export const weekItemValidator = v.union(
  v.object({
    kind: v.literal("scheduled"),
    entryId: v.id("scheduleEntries"),
    ...micNightFields,
    recurrence,
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
  v.object({ kind: v.literal("scene"), ...micNightFields }),
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
  const items = await micsById(ctx, [
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
  const items = await micsById(ctx, entries.keys());
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
