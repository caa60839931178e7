/**
 * Per-comedian totals (minutes, sets, unique venues, streaks, venues added),
 * kept in the same transaction as every set change (and every mic's creator
 * change, for venues added) so no screen sums a comedian's whole history. Backed by `performanceDays` (one row per local
 * day with a set, for streaks) and `venueVisits` (one row per mic with a set,
 * for unique venues).
 */
import { v, type Infer } from "convex/values";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { appError, ErrorCode } from "../errors";
import { computeStreaks } from "../lib/streaks";
import { addDaysToDate, parseDateString } from "../lib/time";

/** Most day rows read to recompute streaks (over 27 years of daily sets). */
const PERFORMANCE_DAYS_LIMIT = 10_000;

/** What `stats.mine` returns. */
export const myStatsValidator = v.object({
  totalMinutes: v.number(),
  totalSets: v.number(),
  uniqueVenues: v.number(),
  currentStreak: v.number(),
  longestStreak: v.number(),
  venuesAdded: v.number(),
});
export type MyStats = Infer<typeof myStatsValidator>;

/** The stats of a comedian with no sets: where a new `userStats` row starts. */
export const NO_STATS: MyStats = {
  totalMinutes: 0,
  totalSets: 0,
  uniqueVenues: 0,
  currentStreak: 0,
  longestStreak: 0,
  venuesAdded: 0,
};

/** Whether `s` is a real calendar date written "YYYY-MM-DD". */
export function isDateString(s: string): boolean {
  try {
    const { year, month, day } = parseDateString(s);
    const d = new Date(Date.UTC(year, month - 1, day));
    return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
  } catch {
    return false;
  }
}

/** Rejects a client-sent `today` (the comedian's local date) that is not "YYYY-MM-DD". */
export function assertToday(today: string | undefined): void {
  if (today !== undefined && !isDateString(today)) {
    throw appError(ErrorCode.INVALID_INPUT, "today must be a date (YYYY-MM-DD)");
  }
}

/** The facts of one set that the totals depend on. */
export type SetFacts = {
  minutes: number;
  performanceDate: string;
  sceneItemId?: Id<"sceneItems">;
};

async function readStats(ctx: QueryCtx, userId: Id<"users">): Promise<Doc<"userStats"> | null> {
  return await ctx.db
    .query("userStats")
    .withIndex("by_userId", (q) => q.eq("userId", userId))
    .unique();
}

/**
 * The comedian's totals; all zeros before their first set or venue. The
 * stored current streak is as of the last set change; given the comedian's
 * local `today`, a streak whose last set is older than yesterday reads 0
 * (queries cannot read the clock, so the client passes its date).
 */
export async function getMyStats(ctx: QueryCtx, userId: Id<"users">, today?: string): Promise<MyStats> {
  const row = await readStats(ctx, userId);
  const lapsed = today !== undefined && row?.lastSetDate !== undefined && row.lastSetDate < addDaysToDate(today, -1);
  return {
    totalMinutes: row?.totalMinutes ?? 0,
    totalSets: row?.totalSets ?? 0,
    uniqueVenues: row?.uniqueVenues ?? 0,
    currentStreak: lapsed ? 0 : (row?.currentStreak ?? 0),
    longestStreak: row?.longestStreak ?? 0,
    venuesAdded: row?.venuesAdded ?? 0,
  };
}

async function getOrCreateStats(ctx: MutationCtx, userId: Id<"users">): Promise<Doc<"userStats">> {
  const row = await readStats(ctx, userId);
  if (row !== null) return row;
  const id = await ctx.db.insert("userStats", { userId, ...NO_STATS });
  return (await ctx.db.get("userStats", id))!;
}

/**
 * Moves the comedian's count of the mics they added (`venuesAdded`) by
 * `delta`; called by the mic trigger (model/statsTriggers) only.
 */
export async function addVenuesAdded(
  ctx: MutationCtx,
  { userId, delta }: { userId: Id<"users">; delta: number },
): Promise<void> {
  if (delta === 0) return;
  const row = await getOrCreateStats(ctx, userId);
  await ctx.db.patch("userStats", row._id, { venuesAdded: row.venuesAdded + delta });
}

/** Adds `delta` sets to the comedian's row for a local day (deleting it at 0). */
async function bumpDay(
  ctx: MutationCtx,
  { userId, date, delta }: { userId: Id<"users">; date: string; delta: number },
): Promise<void> {
  const day = await ctx.db
    .query("performanceDays")
    .withIndex("by_user_and_date", (q) => q.eq("userId", userId).eq("date", date))
    .unique();
  const sets = (day?.sets ?? 0) + delta;
  if (day === null) {
    if (sets > 0) await ctx.db.insert("performanceDays", { userId, date, sets });
  } else if (sets > 0) {
    await ctx.db.patch("performanceDays", day._id, { sets });
  } else {
    await ctx.db.delete("performanceDays", day._id);
  }
}

/**
 * Adds `delta` sets to the comedian's row for a mic (deleting it at 0).
 * Returns the change in unique venues: +1 for a first set there, -1 when the
 * last one goes.
 */
async function bumpVenue(
  ctx: MutationCtx,
  { userId, sceneItemId, delta }: { userId: Id<"users">; sceneItemId: Id<"sceneItems">; delta: number },
): Promise<number> {
  const visit = await ctx.db
    .query("venueVisits")
    .withIndex("by_user_and_item", (q) => q.eq("userId", userId).eq("sceneItemId", sceneItemId))
    .unique();
  const before = visit?.sets ?? 0;
  const sets = Math.max(0, before + delta);
  if (visit === null) {
    if (sets > 0) await ctx.db.insert("venueVisits", { userId, sceneItemId, sets });
  } else if (sets > 0) {
    await ctx.db.patch("venueVisits", visit._id, { sets });
  } else {
    await ctx.db.delete("venueVisits", visit._id);
  }
  return (sets > 0 ? 1 : 0) - (before > 0 ? 1 : 0);
}

/** Current and longest streak from the comedian's day rows, and their latest set date. */
export async function recomputeStreaks(
  ctx: QueryCtx,
  userId: Id<"users">,
  todayDate: string,
): Promise<{ currentStreak: number; longestStreak: number; lastSetDate: string | undefined }> {
  const days = await ctx.db
    .query("performanceDays")
    .withIndex("by_user_and_date", (q) => q.eq("userId", userId))
    .take(PERFORMANCE_DAYS_LIMIT);
  const dates = days.map((d) => d.date);
  const { current, longest } = computeStreaks(dates, todayDate);
  return { currentStreak: current, longestStreak: longest, lastSetDate: dates[dates.length - 1] };
}

/**
 * Moves the comedian's totals from `before` (null for a new set) to `after`
 * (null for a deleted set): minutes, sets, per-day and per-mic rows, unique
 * venues, then current and longest streak as of `todayDate` (their local
 * today) unless `streaks` is false. Called only by the set trigger
 * (model/statsTriggers). Returns the updated totals.
 */
export async function applySetChange(
  ctx: MutationCtx,
  {
    userId,
    before,
    after,
    todayDate,
    streaks: withStreaks = true,
  }: { userId: Id<"users">; before: SetFacts | null; after: SetFacts | null; todayDate: string; streaks?: boolean },
): Promise<Doc<"userStats">> {
  const row = await getOrCreateStats(ctx, userId);
  // An edit that keeps the day (or the mic) leaves its row alone.
  const sameDay = before !== null && after !== null && before.performanceDate === after.performanceDate;
  const sameVenue = before !== null && after !== null && before.sceneItemId === after.sceneItemId;
  let venueDelta = 0;
  if (before !== null) {
    if (!sameDay) await bumpDay(ctx, { userId, date: before.performanceDate, delta: -1 });
    if (!sameVenue && before.sceneItemId !== undefined) {
      venueDelta += await bumpVenue(ctx, { userId, sceneItemId: before.sceneItemId, delta: -1 });
    }
  }
  if (after !== null) {
    if (!sameDay) await bumpDay(ctx, { userId, date: after.performanceDate, delta: 1 });
    if (!sameVenue && after.sceneItemId !== undefined) {
      venueDelta += await bumpVenue(ctx, { userId, sceneItemId: after.sceneItemId, delta: 1 });
    }
  }
  const streaks = withStreaks ? await recomputeStreaks(ctx, userId, todayDate) : {};
  const patch = {
    totalMinutes: Math.max(0, row.totalMinutes - (before?.minutes ?? 0) + (after?.minutes ?? 0)),
    totalSets: Math.max(0, row.totalSets - (before !== null ? 1 : 0) + (after !== null ? 1 : 0)),
    uniqueVenues: Math.max(0, row.uniqueVenues + venueDelta),
    ...streaks,
  };
  await ctx.db.patch("userStats", row._id, patch);
  return { ...row, ...patch };
}
