/**
 * A comedian's schedule entries: adding a mic (with the duplicate and
 * overlapping-night rules) and removing entries. The week view and the
 * calendar are in model/scheduleWeek, the completed-entry cleanup in
 * model/scheduleDue.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { appError, ErrorCode } from "../errors";
import { nextOccurrence } from "../lib/recurrence";
import { DAY_MS } from "../lib/time";
import { nightsOverlap } from "../lib/tonight";
import { requireActiveItem } from "./scene";
import { entryDueAt } from "./scheduleDue";

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
  { userId, sceneItemId, nowMs }: { userId: Id<"users">; sceneItemId: Id<"sceneItems">; nowMs: number },
): Promise<{
  entryId: Id<"scheduleEntries">;
  nextOccurrence: number | null;
  overlaps: Array<{ title: string; startMs: number }>;
}> {
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
  const entryId = await ctx.db.insert("scheduleEntries", {
    userId,
    sceneItemId,
    addedAt: nowMs,
    dueAt: entryDueAt(item, { addedAt: nowMs, completedAt: undefined }, nowMs),
  });
  const next = nextOccurrence(item, nowMs);
  const overlaps = next === null ? [] : await overlappingNights(ctx, { userId, item, startMs: next, nowMs });
  return { entryId, nextOccurrence: next, overlaps };
}

/** Most of the comedian's schedule entries looked at for an overlap. */
const OVERLAP_ENTRIES_READ = 200;

/**
 * The comedian's other scheduled mics whose next night overlaps the new one's
 * (start to start + set length + 30 minutes): a warning, never a refusal.
 */
async function overlappingNights(
  ctx: MutationCtx,
  { userId, item, startMs, nowMs }: { userId: Id<"users">; item: Doc<"sceneItems">; startMs: number; nowMs: number },
): Promise<Array<{ title: string; startMs: number }>> {
  const entries = await ctx.db
    .query("scheduleEntries")
    .withIndex("by_user_and_item", (q) => q.eq("userId", userId))
    .take(OVERLAP_ENTRIES_READ);
  const otherIds = [...new Set(entries.filter((e) => e.completedAt === undefined).map((e) => e.sceneItemId))].filter(
    (id) => id !== item._id,
  );
  const others = await Promise.all(otherIds.map((id) => ctx.db.get("sceneItems", id)));
  const found: Array<{ title: string; startMs: number }> = [];
  // Nights of the other mics that could touch the new one: from a day before it.
  const from = Math.max(nowMs, startMs - DAY_MS);
  for (const other of others) {
    if (other === null || other.status !== "active") continue;
    const otherStart = nextOccurrence(other, from);
    if (otherStart === null) continue;
    if (
      nightsOverlap(
        { startMs, performanceMinutes: item.performanceMinutes },
        { startMs: otherStart, performanceMinutes: other.performanceMinutes },
      )
    ) {
      found.push({ title: other.title, startMs: otherStart });
    }
  }
  return found.sort((a, b) => a.startMs - b.startMs);
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
