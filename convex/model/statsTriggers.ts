/** Totals derived from sets and comedians, kept by triggers (README.md, "Derived data"). */
import type { Change, Triggers } from "convex-helpers/server/triggers";
import type { DataModel, Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { DEFAULT_TIME_ZONE, localDateString } from "../lib/time";
import { addToCommunityTotal } from "./stats";
import { addVenuesAdded, applySetChange, type SetFacts } from "./userStats";

/** Registers the stats triggers (called once, from `convex/triggers.ts`). */
export function registerStatsTriggers(triggers: Triggers<DataModel>): void {
  triggers.register("performances", followSet);
  triggers.register("userStats", followComedianMinutes);
  triggers.register("profiles", countComedian);
  triggers.register("sceneItems", countVenuesAdded);
}

function factsOf(set: Doc<"performances">): SetFacts {
  return { minutes: set.minutes, performanceDate: set.performanceDate, sceneItemId: set.sceneItemId };
}

/** The comedian's local date now, in their profile's zone (the zone their set dates are in). */
async function comedianToday(ctx: MutationCtx, userId: Id<"users">): Promise<string> {
  const profile = await ctx.db
    .query("profiles")
    .withIndex("by_userId", (q) => q.eq("userId", userId))
    .unique();
  return localDateString(Date.now(), profile?.timeZone ?? DEFAULT_TIME_ZONE);
}

/**
 * Moves one comedian's totals from `before` to `after`. Skipped once the
 * account is gone: account deletion removes the stats row first and then
 * purges the sets, days and visits in batches, so nothing is left to keep.
 */
async function moveComedian(
  ctx: MutationCtx,
  { userId, before, after }: { userId: Id<"users">; before: SetFacts | null; after: SetFacts | null },
): Promise<void> {
  if ((await ctx.db.get("users", userId)) === null) return;
  // A set that only lost (or changed) its mic link, as when a mic is deleted,
  // keeps its day: the streaks stay as they are, not re-read per set.
  const linkOnly =
    before !== null &&
    after !== null &&
    before.performanceDate === after.performanceDate &&
    before.minutes === after.minutes &&
    before.sceneItemId !== after.sceneItemId;
  await applySetChange(ctx, { userId, before, after, todayDate: await comedianToday(ctx, userId), streaks: !linkOnly });
}

/** A set was logged, edited or deleted. */
async function followSet(ctx: MutationCtx, change: Change<DataModel, "performances">): Promise<void> {
  const { oldDoc, newDoc } = change;
  if (oldDoc !== null && newDoc !== null && oldDoc.userId !== newDoc.userId) {
    // Never done by the app, but a set that changes hands moves between two comedians.
    await moveComedian(ctx, { userId: oldDoc.userId, before: factsOf(oldDoc), after: null });
    await moveComedian(ctx, { userId: newDoc.userId, before: null, after: factsOf(newDoc) });
    return;
  }
  const userId = (newDoc ?? oldDoc)!.userId;
  await moveComedian(ctx, { userId, before: oldDoc && factsOf(oldDoc), after: newDoc && factsOf(newDoc) });
}

/** The community minutes follow each comedian's total. */
async function followComedianMinutes(ctx: MutationCtx, change: Change<DataModel, "userStats">): Promise<void> {
  const delta = (change.newDoc?.totalMinutes ?? 0) - (change.oldDoc?.totalMinutes ?? 0);
  await addToCommunityTotal(ctx, "minutesLogged", delta);
}

/** A comedian is counted while their profile exists. */
async function countComedian(ctx: MutationCtx, change: Change<DataModel, "profiles">): Promise<void> {
  if (change.operation === "insert") await addToCommunityTotal(ctx, "comedians", 1);
  else if (change.operation === "delete") await addToCommunityTotal(ctx, "comedians", -1);
}

/**
 * A mic counts for its creator while its `createdBy` names them. Skipped for
 * an account that is gone (its stats row went first; deletion then unlinks
 * its mics).
 */
async function countVenuesAdded(ctx: MutationCtx, change: Change<DataModel, "sceneItems">): Promise<void> {
  const before = change.oldDoc?.createdBy;
  const after = change.newDoc?.createdBy;
  if (before === after) return;
  for (const [userId, delta] of [
    [before, -1],
    [after, 1],
  ] as const) {
    if (userId !== undefined && (await ctx.db.get("users", userId)) !== null) {
      await addVenuesAdded(ctx, { userId, delta });
    }
  }
}
