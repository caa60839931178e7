import type { Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { v, type Infer } from "convex/values";
import { badgeProgress, earnedBadgeCodes, type BadgeInputs } from "../lib/badges";
import { DEFAULT_TIME_ZONE, localDateString, zonedEpoch } from "../lib/time";

/** Most check-ins counted for the month (far above any badge threshold). */
const MONTH_CHECK_INS_LIMIT = 1000;

/** Epoch ms of the first instant of the calendar month containing `nowMs` in `timeZone`. */
export function startOfLocalMonth(nowMs: number, timeZone: string): number {
  const firstOfMonth = `${localDateString(nowMs, timeZone).slice(0, 8)}01`;
  return zonedEpoch(firstOfMonth, "00:00", timeZone);
}

/** Everything the badge rules look at, for one comedian at `nowMs` (the
 * month of community_builder is the calendar month in their time zone). A
 * comedian without a stats row yet counts as all zeros. */
export async function badgeInputs(ctx: QueryCtx, userId: Id<"users">, nowMs: number): Promise<BadgeInputs> {
  const profile = await ctx.db
    .query("profiles")
    .withIndex("by_userId", (q) => q.eq("userId", userId))
    .unique();
  const monthStart = startOfLocalMonth(nowMs, profile?.timeZone ?? DEFAULT_TIME_ZONE);
  return await badgeInputsSince(ctx, userId, monthStart);
}

/** The badge inputs with check-ins counted from `monthStartMs` (queries
 * take it from the client, since they never read the clock). */
export async function badgeInputsSince(ctx: QueryCtx, userId: Id<"users">, monthStartMs: number): Promise<BadgeInputs> {
  const [stats, monthCheckIns] = await Promise.all([
    ctx.db
      .query("userStats")
      .withIndex("by_userId", (q) => q.eq("userId", userId))
      .unique(),
    ctx.db
      .query("checkIns")
      .withIndex("by_user_and_time", (q) => q.eq("userId", userId).gte("checkedInAt", monthStartMs))
      .take(MONTH_CHECK_INS_LIMIT),
  ]);
  return {
    sets: stats?.totalSets ?? 0,
    minutes: stats?.totalMinutes ?? 0,
    uniqueVenues: stats?.uniqueVenues ?? 0,
    venuesAdded: stats?.venuesAdded ?? 0,
    currentStreak: stats?.currentStreak ?? 0,
    longestStreak: stats?.longestStreak ?? 0,
    weekStreak: stats?.longestWeekStreak ?? 0,
    monthCheckIns: monthCheckIns.length,
  };
}

/** Most badge rows a comedian can hold (far above the number of badges). */
const HELD_BADGES_LIMIT = 100;

/** The comedian's badges, oldest first. */
export async function myBadges(ctx: QueryCtx, userId: Id<"users">): Promise<{ code: string; awardedAt: number }[]> {
  const rows = await ctx.db
    .query("userBadges")
    .withIndex("by_user_and_code", (q) => q.eq("userId", userId))
    .take(HELD_BADGES_LIMIT);
  return rows
    .map((r) => ({ code: r.badgeCode, awardedAt: r.awardedAt }))
    .sort((a, b) => a.awardedAt - b.awardedAt || a.code.localeCompare(b.code));
}

export const badgeProgressValidator = v.object({
  code: v.string(),
  earned: v.boolean(),
  earnedAt: v.union(v.number(), v.null()),
  current: v.number(),
  required: v.number(),
  percentage: v.number(),
});
export type BadgeProgressRow = Infer<typeof badgeProgressValidator>;

/**
 * Progress towards every badge in definition order. An earned badge stays
 * earned (and shows 100%) even when its metric has since gone down, e.g.
 * after a set was deleted.
 */
export async function myBadgeProgress(
  ctx: QueryCtx,
  userId: Id<"users">,
  monthStartMs: number,
): Promise<BadgeProgressRow[]> {
  const [inputs, held] = await Promise.all([badgeInputsSince(ctx, userId, monthStartMs), myBadges(ctx, userId)]);
  const earnedAt = new Map(held.map((b) => [b.code, b.awardedAt]));
  return badgeProgress(inputs).map((p) => {
    const at = earnedAt.get(p.code);
    return {
      code: p.code,
      earned: at !== undefined,
      earnedAt: at ?? null,
      current: p.current,
      required: p.required,
      percentage: at !== undefined ? 100 : p.percentage,
    };
  });
}

/**
 * Awards every badge whose requirement the comedian now meets and does not
 * hold yet (badges are never re-awarded). Call it in the same transaction as
 * the change that moved an input. Returns the codes awarded now.
 */
export async function awardEarnedBadges(ctx: MutationCtx, userId: Id<"users">, nowMs: number): Promise<string[]> {
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
