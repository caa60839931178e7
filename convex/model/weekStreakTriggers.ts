/**
 * Keeps the week streak (model/weekStreaks) in step with its sources: a set
 * moves its goal week's minutes, and a new weekly goal applies to the week in
 * progress. Registered after the stats triggers, so the comedian's stats row
 * exists when the streak is stored on it. Skipped once the account is gone
 * (deletion removes the stats row first, then purges the rest).
 */
import type { Change, Triggers } from "convex-helpers/server/triggers";
import type { DataModel, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { applyGoalToThisWeek, bumpWeek, recomputeWeekStreak } from "./weekStreaks";

/** Registers the week streak triggers (called once, from `convex/triggers.ts`). */
export function registerWeekStreakTriggers(triggers: Triggers<DataModel>): void {
  triggers.register("performances", followSetWeek);
  triggers.register("profiles", followGoal);
}

async function userExists(ctx: MutationCtx, userId: Id<"users">): Promise<boolean> {
  return (await ctx.db.get("users", userId)) !== null;
}

async function followSetWeek(ctx: MutationCtx, change: Change<DataModel, "performances">): Promise<void> {
  const { oldDoc, newDoc } = change;
  if (
    oldDoc !== null &&
    newDoc !== null &&
    oldDoc.userId === newDoc.userId &&
    oldDoc.minutes === newDoc.minutes &&
    oldDoc.performanceDate === newDoc.performanceDate
  ) {
    return; // a change of mic, notes or tags leaves the weeks alone
  }
  const touched = new Set<Id<"users">>();
  for (const [doc, sign] of [
    [oldDoc, -1],
    [newDoc, 1],
  ] as const) {
    if (doc === null || !(await userExists(ctx, doc.userId))) continue;
    await bumpWeek(ctx, { userId: doc.userId, date: doc.performanceDate, minutes: sign * doc.minutes, sets: sign });
    touched.add(doc.userId);
  }
  for (const userId of touched) await recomputeWeekStreak(ctx, userId);
}

async function followGoal(ctx: MutationCtx, change: Change<DataModel, "profiles">): Promise<void> {
  const { oldDoc, newDoc } = change;
  if (newDoc === null || oldDoc === null || oldDoc.weeklyGoalMinutes === newDoc.weeklyGoalMinutes) return;
  if (!(await userExists(ctx, newDoc.userId))) return;
  await applyGoalToThisWeek(ctx, newDoc.userId, newDoc.weeklyGoalMinutes);
  await recomputeWeekStreak(ctx, newDoc.userId);
}
