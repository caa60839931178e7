import type { Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { appError, ErrorCode } from "../errors";
import { nextOccurrence } from "../lib/recurrence";
import { DAY_MS } from "../lib/time";
import { requireActiveItem } from "./scene";

/** The same item cannot be added again within this many ms of the last add. */
export const DUPLICATE_WINDOW_MS = 7 * DAY_MS;
/** Most entries of one comedian for one item handled at once. */
const ENTRIES_PER_ITEM_LIMIT = 100;

/**
 * Adds an active item with a complete schedule (day and start time) to the
 * comedian's schedule, unless they added it less than 7 days ago. Returns the
 * entry and the next time the item runs (null when it never runs again).
 */
export async function addToSchedule(
  ctx: MutationCtx,
  userId: Id<"users">,
  sceneItemId: Id<"sceneItems">,
  nowMs: number,
): Promise<{ entryId: Id<"scheduleEntries">; nextOccurrence: number | null }> {
  const item = await requireActiveItem(ctx, sceneItemId);
  if (item.dayOfWeek === null || item.dayOfWeek === undefined || !item.startTimeLocal) {
    throw appError(ErrorCode.INCOMPLETE_SCHEDULE, "This event doesn't have a complete schedule");
  }
  const latest = await ctx.db
    .query("scheduleEntries")
    .withIndex("by_user_and_item", (q) => q.eq("userId", userId).eq("sceneItemId", sceneItemId))
    .order("desc")
    .first();
  if (latest !== null && nowMs - latest.addedAt < DUPLICATE_WINDOW_MS) {
    throw appError(ErrorCode.ALREADY_EXISTS, "Already in your schedule");
  }
  const entryId = await ctx.db.insert("scheduleEntries", { userId, sceneItemId, addedAt: nowMs });
  return { entryId, nextOccurrence: nextOccurrence(item, nowMs) };
}

function notInSchedule(): never {
  throw appError(ErrorCode.NOT_FOUND, "Event not found in your schedule");
}

/** Deletes one of the comedian's own schedule entries. */
export async function removeEntry(
  ctx: MutationCtx,
  userId: Id<"users">,
  entryId: Id<"scheduleEntries">,
): Promise<void> {
  const entry = await ctx.db.get("scheduleEntries", entryId);
  if (entry === null || entry.userId !== userId) notInSchedule();
  await ctx.db.delete("scheduleEntries", entryId);
}

/** Deletes every entry the comedian has for the item. */
export async function removeByItem(
  ctx: MutationCtx,
  userId: Id<"users">,
  sceneItemId: Id<"sceneItems">,
): Promise<void> {
  const entries = await ctx.db
    .query("scheduleEntries")
    .withIndex("by_user_and_item", (q) => q.eq("userId", userId).eq("sceneItemId", sceneItemId))
    .take(ENTRIES_PER_ITEM_LIMIT);
  if (entries.length === 0) notInSchedule();
  await Promise.all(entries.map((entry) => ctx.db.delete("scheduleEntries", entry._id)));
}
