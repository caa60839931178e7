/**
 * When a schedule entry is next due (its mic's next occurrence is over) and
 * the five-minute cleanup that marks finished occurrences and removes entries
 * whose mic will not run again.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { nextOccurrence, occurrencesInRange } from "../lib/recurrence";
import { completedAtMs, isPerformanceCompleted } from "../lib/schedule";
import { DAY_MS } from "../lib/time";
import { micsById } from "./scene";

/** Entries looked at per cleanup transaction (plus one mic read each). */
export const CLEANUP_BATCH = 100;
/** How far back the cleanup looks for the latest finished occurrence. */
const CLEANUP_LOOKBACK_MS = 400 * DAY_MS;
/**
 * The start of the latest occurrence of the entry's mic that is over at
 * `nowMs` and later than the one already marked, or null when there is none.
 * Occurrences already over when the mic was added do not count.
 */
export function latestFinishedOccurrence(
  item: Doc<"sceneItems">,
  entry: Pick<Doc<"scheduleEntries">, "addedAt" | "completedAt">,
  nowMs: number,
): number | null {
  // An occurrence is over once start + (60 + set length) minutes has come.
  const overAfter = completedAtMs(0, item.performanceMinutes);
  const fromMs = Math.max(
    entry.completedAt === undefined ? -Infinity : entry.completedAt + 1,
    entry.addedAt - overAfter + 1,
    nowMs - CLEANUP_LOOKBACK_MS,
  );
  const starts = occurrencesInRange(item, fromMs, nowMs - overAfter).filter((start) =>
    isPerformanceCompleted({ occurrenceStartMs: start, performanceMinutes: item.performanceMinutes, nowMs }),
  );
  return starts.length === 0 ? null : starts[starts.length - 1];
}

/**
 * When the cleanup next looks at `item`'s entry: when its next occurrence not over at `nowMs` ends
 * (start + 60 minutes + set length), or `nowMs` when the mic will not run again (removable). An edit
 * of the day or time can make this late by one occurrence at most; the week hides finished ones.
 */
export function entryDueAt(
  item: Doc<"sceneItems"> | null,
  entry: Pick<Doc<"scheduleEntries">, "addedAt" | "completedAt">,
  nowMs: number,
): number {
  if (item === null) return nowMs;
  const overAfter = completedAtMs(0, item.performanceMinutes);
  const fromMs = Math.max(
    nowMs - overAfter + 1,
    entry.completedAt === undefined ? -Infinity : entry.completedAt + 1,
    entry.addedAt - overAfter + 1,
  );
  const start = nextOccurrence(item, fromMs);
  if (start === null) return nowMs;
  return start + overAfter;
}

/**
 * One batch of entries by `dueAt` (due at or before the instant, or, with
 * null, those without a `dueAt`) with their mics, and whether more remain.
 */
async function entryBatch(
  ctx: MutationCtx,
  { dueAtOrBefore }: { dueAtOrBefore: number | null },
): Promise<{ batch: Doc<"scheduleEntries">[]; items: Map<Id<"sceneItems">, Doc<"sceneItems">>; more: boolean }> {
  const rows = await ctx.db
    .query("scheduleEntries")
    .withIndex("by_dueAt", (q) => (dueAtOrBefore === null ? q.eq("dueAt", undefined) : q.lte("dueAt", dueAtOrBefore)))
    .take(CLEANUP_BATCH + 1);
  const batch = rows.slice(0, CLEANUP_BATCH);
  const items = await micsById(
    ctx,
    batch.map((e) => e.sceneItemId),
  );
  return { batch, items, more: rows.length > CLEANUP_BATCH };
}

/**
 * One batch of the five-minute cleanup, reading only due entries: an occurrence that is over sets
 * `completedAt` (hidden from the week), a mic that will not run again deletes the entry, and every kept
 * entry gets its next `dueAt`, so it leaves the range read; `more`: due entries remain.
 */
export async function cleanupCompleted(
  ctx: MutationCtx,
  nowMs: number,
): Promise<{ marked: number; removed: number; more: boolean }> {
  // Entries without dueAt (added before it existed) sort first and are in range.
  const { batch, items, more } = await entryBatch(ctx, { dueAtOrBefore: nowMs });
  let marked = 0;
  let removed = 0;
  for (const entry of batch) {
    const item = items.get(entry.sceneItemId) ?? null;
    const latest = item === null ? null : latestFinishedOccurrence(item, entry, nowMs);
    const completedAt = latest ?? entry.completedAt;
    const dueAt = entryDueAt(item, { addedAt: entry.addedAt, completedAt }, nowMs);
    if (dueAt <= nowMs) {
      await ctx.db.delete("scheduleEntries", entry._id);
      removed += 1;
    } else {
      await ctx.db.patch("scheduleEntries", entry._id, latest === null ? { dueAt } : { completedAt: latest, dueAt });
      if (latest !== null) marked += 1;
    }
  }
  return { marked, removed, more };
}

/**
 * One batch of the `dueAt` migration: gives entries written before the field
 * existed their `dueAt` (the cleanup also handles them, as due, until then).
 * Returns how many were set and whether more remain.
 */
export async function backfillDueAt(ctx: MutationCtx, nowMs: number): Promise<{ updated: number; more: boolean }> {
  const { batch, items, more } = await entryBatch(ctx, { dueAtOrBefore: null });
  for (const entry of batch) {
    const dueAt = entryDueAt(items.get(entry.sceneItemId) ?? null, entry, nowMs);
    await ctx.db.patch("scheduleEntries", entry._id, { dueAt });
  }
  return { updated: batch.length, more };
}
