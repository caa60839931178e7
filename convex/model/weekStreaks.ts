/**
 * A comedian's week streak (the rule is lib/weekStreaks): one
 * `performanceWeeks` row per goal week with a set (minutes and that week's
 * goal), and the walked state on their `userStats` row. Both follow the sets
 * and the weekly goal through triggers (model/weekStreakTriggers); the
 * dashboard reads the stored state and one week row.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import {
  emptyWeekStreak,
  goalWeekStartOf,
  MAX_WEEKS_WALKED,
  walkWeeks,
  weekStreakAsOf,
  type GoalWeek,
  type WeekStreakView,
} from "../lib/weekStreaks";
import { DEFAULT_TIME_ZONE, localDateString } from "../lib/time";
import { DEFAULT_WEEKLY_GOAL_MINUTES } from "./profiles";

async function profileOf(ctx: QueryCtx, userId: Id<"users">): Promise<Doc<"profiles"> | null> {
  return await ctx.db
    .query("profiles")
    .withIndex("by_userId", (q) => q.eq("userId", userId))
    .unique();
}

async function weekRow(ctx: QueryCtx, userId: Id<"users">, weekStart: string): Promise<Doc<"performanceWeeks"> | null> {
  return await ctx.db
    .query("performanceWeeks")
    .withIndex("by_user_and_week", (q) => q.eq("userId", userId).eq("weekStart", weekStart))
    .unique();
}

/** Moves one goal week's minutes and sets (deleting the row at 0 sets). A new row takes the current goal. */
export async function bumpWeek(
  ctx: MutationCtx,
  { userId, date, minutes, sets }: { userId: Id<"users">; date: string; minutes: number; sets: number },
): Promise<void> {
  const weekStart = goalWeekStartOf(date);
  const row = await weekRow(ctx, userId, weekStart);
  const nextSets = (row?.sets ?? 0) + sets;
  const nextMinutes = Math.max(0, (row?.minutes ?? 0) + minutes);
  if (row === null) {
    if (nextSets <= 0) return;
    const goal = (await profileOf(ctx, userId))?.weeklyGoalMinutes ?? DEFAULT_WEEKLY_GOAL_MINUTES;
    await ctx.db.insert("performanceWeeks", { userId, weekStart, minutes: nextMinutes, sets: nextSets, goal });
  } else if (nextSets > 0) {
    await ctx.db.patch("performanceWeeks", row._id, { minutes: nextMinutes, sets: nextSets });
  } else {
    await ctx.db.delete("performanceWeeks", row._id);
  }
}

/** The week in progress takes the comedian's new goal; past weeks keep the goal they had. */
export async function applyGoalToThisWeek(ctx: MutationCtx, userId: Id<"users">, goal: number): Promise<void> {
  const profile = await profileOf(ctx, userId);
  const today = localDateString(Date.now(), profile?.timeZone ?? DEFAULT_TIME_ZONE);
  const row = await weekRow(ctx, userId, goalWeekStartOf(today));
  if (row !== null && row.goal !== goal) await ctx.db.patch("performanceWeeks", row._id, { goal });
}

/**
 * Walks the comedian's weeks again up to the week in progress (their local
 * today) and stores the state and the longest streak on their stats row.
 */
export async function recomputeWeekStreak(ctx: MutationCtx, userId: Id<"users">): Promise<void> {
  const stats = await ctx.db
    .query("userStats")
    .withIndex("by_userId", (q) => q.eq("userId", userId))
    .unique();
  if (stats === null) return;
  const profile = await profileOf(ctx, userId);
  const today = localDateString(Date.now(), profile?.timeZone ?? DEFAULT_TIME_ZONE);
  const thisWeek = goalWeekStartOf(today);
  const rows = await ctx.db
    .query("performanceWeeks")
    .withIndex("by_user_and_week", (q) => q.eq("userId", userId))
    .order("desc")
    .take(MAX_WEEKS_WALKED);
  const weeks: GoalWeek[] = rows.map((r) => ({ weekStart: r.weekStart, minutes: r.minutes, goal: r.goal }));
  const first = weeks.length > 0 ? weeks[weeks.length - 1].weekStart : thisWeek;
  const state = walkWeeks(emptyWeekStreak(first < thisWeek ? first : thisWeek), weeks, thisWeek);
  const view = weekStreakAsOf(
    state,
    weeks.find((w) => w.weekStart === thisWeek),
    today,
  );
  await ctx.db.patch("userStats", stats._id, { weekStreak: state, longestWeekStreak: view.longest });
}

/**
 * The week streak as of the comedian's local `today` (one read beside the
 * stats row: the week row the stored state left open). No streak without a
 * stored state or a date.
 */
export async function readWeekStreak(
  ctx: QueryCtx,
  userId: Id<"users">,
  stats: Doc<"userStats"> | null,
  today: string | undefined,
): Promise<WeekStreakView> {
  const state = stats?.weekStreak;
  if (state === undefined || today === undefined) {
    return {
      current: 0,
      longest: stats?.longestWeekStreak ?? 0,
      thisWeekMet: false,
      freezeAvailable: true,
      frozenWeek: null,
    };
  }
  const open = await weekRow(ctx, userId, state.nextWeek);
  return weekStreakAsOf(state, open ?? undefined, today);
}

/** Most sets one comedian's backfill reads. */
const BACKFILL_SETS_LIMIT = 4_000;

/**
 * Builds a comedian's week rows from their sets when they have none (a
 * history from before week streaks), then walks the streak. Returns whether
 * it wrote anything.
 */
export async function backfillWeeks(ctx: MutationCtx, userId: Id<"users">): Promise<boolean> {
  const existing = await ctx.db
    .query("performanceWeeks")
    .withIndex("by_user_and_week", (q) => q.eq("userId", userId))
    .first();
  if (existing !== null) return false;
  const sets = await ctx.db
    .query("performances")
    .withIndex("by_user_and_performedAt", (q) => q.eq("userId", userId))
    .take(BACKFILL_SETS_LIMIT);
  if (sets.length === 0) return false;
  const goal = (await profileOf(ctx, userId))?.weeklyGoalMinutes ?? DEFAULT_WEEKLY_GOAL_MINUTES;
  const weeks = new Map<string, { minutes: number; sets: number }>();
  for (const set of sets) {
    const weekStart = goalWeekStartOf(set.performanceDate);
    const week = weeks.get(weekStart) ?? { minutes: 0, sets: 0 };
    weeks.set(weekStart, { minutes: week.minutes + set.minutes, sets: week.sets + 1 });
  }
  for (const [weekStart, week] of weeks) {
    await ctx.db.insert("performanceWeeks", { userId, weekStart, ...week, goal });
  }
  await recomputeWeekStreak(ctx, userId);
  return true;
}
