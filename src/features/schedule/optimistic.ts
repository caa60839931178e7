import type { FunctionReturnType } from "convex/server";
import type { api } from "@convex/_generated/api";

export type ScheduleWeekResult = FunctionReturnType<typeof api.schedule.week>;

/**
 * The week as it will look once `entryId` is removed: its occurrences gone and
 * the Upcoming tile lowered by as many. Returns `week` itself when the entry
 * is not in it (so the caller leaves that query alone).
 */
export function withoutEntry(week: ScheduleWeekResult, entryId: string): ScheduleWeekResult {
  const items = week.items.filter((item) => !(item.kind === "scheduled" && item.entryId === entryId));
  const removed = week.items.length - items.length;
  if (removed === 0) return week;
  return { items, stats: { ...week.stats, upcoming: Math.max(0, week.stats.upcoming - removed) } };
}
