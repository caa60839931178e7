import { format } from "date-fns";
import { localDateString } from "@convex/lib/time";

/** "Dec 7, 2026" for a local "YYYY-MM-DD" date (read as a calendar day, not an instant). */
export function cancelledDateLabel(date: string): string {
  const [y, m, d] = date.split("-").map(Number);
  return format(new Date(y, m - 1, d), "MMM d, yyyy");
}

/**
 * What the event page says about cancelled nights, given the item's
 * cancelled dates, its time zone and now: 'Cancelled tonight' when today's
 * local date is cancelled, and 'Cancelled on {date}' for each later one.
 */
export function cancellationNotices(
  cancelledDates: readonly string[] | undefined,
  timeZone: string,
  nowMs: number,
): { tonight: boolean; upcoming: string[] } {
  const today = localDateString(nowMs, timeZone);
  const dates = [...(cancelledDates ?? [])].sort();
  return {
    tonight: dates.includes(today),
    upcoming: dates.filter((d) => d > today),
  };
}

export const REPORT_KINDS = [
  { value: "no_longer_runs", label: "This mic no longer runs" },
  { value: "wrong_time", label: "Wrong day or time" },
  { value: "other", label: "Other" },
] as const;

export type ReportKind = (typeof REPORT_KINDS)[number]["value"];
