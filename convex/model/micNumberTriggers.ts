/**
 * Keeps each night's `micNights` row (model/micNumbers) in step with its
 * list. Only the list document is followed: every host action writes it,
 * while sign-ups insert their own spot alone and never touch the row.
 */
import type { Change, Triggers } from "convex-helpers/server/triggers";
import type { DataModel } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { followNightList } from "./micNumbers";

/** Registers the mic numbers trigger (called once, from `convex/triggers.ts`). */
export function registerMicNumberTriggers(triggers: Triggers<DataModel>): void {
  triggers.register("nightLists", followList);
}

async function followList(ctx: MutationCtx, change: Change<DataModel, "nightLists">): Promise<void> {
  await followNightList(ctx, change.id, change.newDoc);
}
