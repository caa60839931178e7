/**
 * The dashboard's figures in one read: profile, the per-comedian stats row,
 * the first three badges, and the minutes of the Sunday-to-Saturday week the
 * client passes (it knows the comedian's zone; queries never read the clock).
 */
import { v, type Infer } from "convex/values";
import type { Id } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";
import { isDefaultStageName } from "../lib/profileRules";
import { myBadges } from "./badges";
import { DEFAULT_WEEKLY_GOAL_MINUTES, displayNameFor, getProfile, memberSinceOf } from "./profiles";
import { assertWeekRange, setsInRange } from "./scheduleWeek";
import { getMyStats } from "./userStats";
import { readWeekStreak } from "./weekStreaks";

/** The badge showcase shows this many. */
export const SHOWCASE_BADGES = 3;

export const summaryValidator = v.object({
  displayName: v.string(),
  /** First word of the display name the comedian gave (null when it has none). */
  firstName: v.union(v.string(), v.null()),
  memberSince: v.number(),
  weeklyGoalMinutes: v.number(),
  weekMinutes: v.number(),
  totalMinutes: v.number(),
  totalSets: v.number(),
  averageMinutes: v.number(),
  currentStreak: v.number(),
  longestStreak: v.number(),
  badges: v.array(v.object({ code: v.string(), awardedAt: v.number() })),
  /** Goal weeks in a row with the goal met (lib/weekStreaks). */
  weekStreak: v.object({
    current: v.number(),
    longest: v.number(),
    thisWeekMet: v.boolean(),
    freezeAvailable: v.boolean(),
    frozenWeek: v.union(v.string(), v.null()),
  }),
});
export type DashboardSummary = Infer<typeof summaryValidator>;

/** The first word of a display name, or null when it has none. */
export function firstWord(name: string): string | null {
  const word = name.trim().split(/\s+/)[0];
  return word ? word : null;
}

/**
 * The comedian's dashboard. `today` ("YYYY-MM-DD", local) is optional: with
 * it, a current streak whose last set is older than yesterday reads 0.
 */
export async function summary(
  ctx: QueryCtx,
  userId: Id<"users">,
  args: { goalWeekStartMs: number; goalWeekEndMs: number; today?: string },
): Promise<DashboardSummary> {
  assertWeekRange(args.goalWeekStartMs, args.goalWeekEndMs);
  const [user, profile, stats, badges, weekSets, statsRow] = await Promise.all([
    ctx.db.get("users", userId),
    getProfile(ctx, userId),
    getMyStats(ctx, userId, args.today),
    myBadges(ctx, userId),
    setsInRange(ctx, { userId, startMs: args.goalWeekStartMs, endMs: args.goalWeekEndMs }),
    ctx.db
      .query("userStats")
      .withIndex("by_userId", (q) => q.eq("userId", userId))
      .unique(),
  ]);
  // Without the client's date, the week last stored is taken as this week.
  const weekStreak = await readWeekStreak(ctx, userId, statsRow, args.today ?? statsRow?.weekStreak?.nextWeek);
  const displayName = profile?.displayName ?? displayNameFor(user);
  const { totalMinutes, totalSets } = stats;
  return {
    displayName,
    // "Welcome back, Comedian" says nothing: no name until one is chosen.
    firstName: isDefaultStageName(displayName) ? null : firstWord(displayName),
    memberSince: memberSinceOf(user, profile),
    weeklyGoalMinutes: profile?.weeklyGoalMinutes ?? DEFAULT_WEEKLY_GOAL_MINUTES,
    weekMinutes: weekSets.reduce((sum, set) => sum + set.minutes, 0),
    totalMinutes,
    totalSets,
    averageMinutes: totalSets > 0 ? Math.round(totalMinutes / totalSets) : 0,
    currentStreak: stats.currentStreak,
    longestStreak: stats.longestStreak,
    badges: badges.slice(0, SHOWCASE_BADGES),
    weekStreak,
  };
}
