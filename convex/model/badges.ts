import type { Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { earnedBadgeCodes, type BadgeInputs } from "../lib/badges";
import { DEFAULT_TIME_ZONE, localDateString, zonedEpoch } from "../lib/time";

/** Most check-ins counted for the month (far above any badge threshold). */
const MONTH_CHECK_INS_LIMIT = 1000;

/** Epoch ms of the first instant of the calendar month containing `nowMs` in `timeZone`. */
export function startOfLocalMonth(nowMs: number, timeZone: string): number {
  const firstOfMonth = `${localDateString(nowMs, timeZone).slice(0, 8)}01`;
  return zonedEpoch(firstOfMonth, "00:00", timeZone);
}

/** Everything the badge rules look at, for one comedian at `nowMs`. A
 * comedian without a stats row yet counts as all zeros. */
export async function badgeInputs(
  ctx: QueryCtx,
  userId: Id<"users">,
  nowMs: number,
): Promise<BadgeInputs> {
  const [stats, profile] = await Promise.all([
    ctx.db
      .query("userStats")
      .withIndex("by_userId", (q) => q.eq("userId", userId))
      .unique(),
    ctx.db
      .query("profiles")
      .withIndex("by_userId", (q) => q.eq("userId", userId))
      .unique(),
  ]);
  const monthStart = startOfLocalMonth(nowMs, profile?.timeZone ?? DEFAULT_TIME_ZONE);
  const monthCheckIns = await ctx.db
    .query("checkIns")
    .withIndex("by_user_and_time", (q) => q.eq("userId", userId).gte("checkedInAt", monthStart))
    .take(MONTH_CHECK_INS_LIMIT);
  return {
    sets: stats?.totalSets ?? 0,
    minutes: stats?.totalMinutes ?? 0,
    uniqueVenues: stats?.uniqueVenues ?? 0,
    venuesAdded: stats?.venuesAdded ?? 0,
    currentStreak: stats?.currentStreak ?? 0,
    longestStreak: stats?.longestStreak ?? 0,
    monthCheckIns: monthCheckIns.length,
  };
}

/**
 * Awards every badge whose requirement the comedian now meets and does not
 * hold yet (badges are never re-awarded). Call it in the same transaction as
 * the change that moved an input. Returns the codes awarded now.
 */
export async function awardEarnedBadges(
  ctx: MutationCtx,
  userId: Id<"users">,
  nowMs: number,
): Promise<string[]> {
  const inputs = await badgeInputs(ctx, userId, nowMs);
  const earned = earnedBadgeCodes(inputs);
  const held = await Promise.all(
    earned.map((code) =>
      ctx.db
        .query("userBadges")
        .withIndex("by_user_and_code", (q) => q.eq("userId", userId).eq("badgeCode", code))
        .first(),
    ),
  );
  const awarded: string[] = [];
  for (const [i, code] of earned.entries()) {
    if (held[i] !== null) continue;
    await ctx.db.insert("userBadges", { userId, badgeCode: code, awardedAt: nowMs });
    awarded.push(code);
  }
  return awarded;
}
