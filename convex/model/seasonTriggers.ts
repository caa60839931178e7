/**
 * Keeps a comedian's season month rows (model/season) in step with their
 * sets: a logged, edited or deleted set moves its month's sets, minutes, day
 * and mic. Skipped once the account is gone (deletion purges the rest).
 */
import type { Change, Triggers } from "convex-helpers/server/triggers";
import type { DataModel } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { bumpSeasonMonth, seasonSetOf } from "./season";

/** Registers the season trigger (called once, from `convex/triggers.ts`). */
export function registerSeasonTriggers(triggers: Triggers<DataModel>): void {
  triggers.register("performances", followSetMonth);
}

async function followSetMonth(ctx: MutationCtx, change: Change<DataModel, "performances">): Promise<void> {
  const { oldDoc, newDoc } = change;
  if (
    oldDoc !== null &&
    newDoc !== null &&
    oldDoc.userId === newDoc.userId &&
    JSON.stringify(seasonSetOf(oldDoc)) === JSON.stringify(seasonSetOf(newDoc))
  ) {
    return; // notes or tags: the month is unchanged
  }
  for (const [doc, sign] of [
    [oldDoc, -1],
    [newDoc, 1],
  ] as const) {
    if (doc === null || (await ctx.db.get("users", doc.userId)) === null) continue;
    await bumpSeasonMonth(ctx, { userId: doc.userId, set: seasonSetOf(doc), sign });
  }
}
