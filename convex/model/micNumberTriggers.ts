/**
 * Keeps each night's `micNights` row, and the mic's summary and short line
 * (model/micNumbers), in step with its list and its mic. The list document is
 * followed because every host action writes it, while sign-ups insert their
 * own spot alone and never touch the row; the mic is followed for the nights
 * its host confirms.
 */
import type { Change, Triggers } from "convex-helpers/server/triggers";
import type { DataModel } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { MAX_CONFIRMED_DATES } from "../lib/tonight";
import { followConfirmedDates, followNightList, refreshSummary } from "./micNumbers";

/** Registers the mic numbers triggers (called once, from `convex/triggers.ts`). */
export function registerMicNumberTriggers(triggers: Triggers<DataModel>): void {
  triggers.register("nightLists", followList);
  triggers.register("sceneItems", followMic);
}

async function followList(ctx: MutationCtx, change: Change<DataModel, "nightLists">): Promise<void> {
  await followNightList(ctx, change.id, change.newDoc);
}

async function followMic(ctx: MutationCtx, change: Change<DataModel, "sceneItems">): Promise<void> {
  if (change.operation === "delete") return await refreshSummary(ctx, change.id, null);
  if (change.operation !== "update") return;
  const before = new Set(change.oldDoc.confirmedDates ?? []);
  const after = new Set(change.newDoc.confirmedDates ?? []);
  // A date the full list pushed out (older than all it keeps) was not taken back: its night stays confirmed.
  const oldest = [...after].sort()[0];
  const pushedOut = (date: string) => after.size >= MAX_CONFIRMED_DATES && oldest !== undefined && date < oldest;
  const changed = [...before, ...after].filter((date) => before.has(date) !== after.has(date) && !pushedOut(date));
  if (changed.length > 0) await followConfirmedDates(ctx, change.newDoc, changed);
}
