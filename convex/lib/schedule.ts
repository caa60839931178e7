/** Rules of the personal schedule shared by the cleanup cron, queries and the page. */
import { DAY_MS, MINUTE_MS } from "./time";

/** A performance counts as over this many minutes after its start, plus its set length. */
export const COMPLETED_AFTER_MIN = 60;

/** The same item cannot be added to a schedule again within 7 days of the last add. */
export const ADD_TO_SCHEDULE_DUPLICATE_WINDOW_MS = 7 * DAY_MS;

/**
 * Epoch ms from which an occurrence counts as completed: its start plus 60
 * minutes plus the item's performance minutes (0 when the item has none).
 */
export function completedAtMs(occurrenceStartMs: number, performanceMinutes: number | undefined): number {
  const extra = performanceMinutes !== undefined && performanceMinutes > 0 ? performanceMinutes : 0;
  return occurrenceStartMs + (COMPLETED_AFTER_MIN + extra) * MINUTE_MS;
}

/**
 * Whether the performance starting at `occurrenceStartMs` is over at `nowMs`
 * (60 minutes after its time plus the item's performance
 * minutes). Inclusive: exactly at that instant it is completed.
 */
export function isPerformanceCompleted({
  occurrenceStartMs,
  performanceMinutes,
  nowMs,
}: {
  occurrenceStartMs: number;
  performanceMinutes: number | undefined;
  nowMs: number;
}): boolean {
  return nowMs >= completedAtMs(occurrenceStartMs, performanceMinutes);
}
