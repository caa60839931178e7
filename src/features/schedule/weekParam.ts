import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import { localDateString, parseDateString, startOfLocalDay } from "@convex/lib/time";
import { scheduleWeek, shiftWeek, type WeekRange } from "@convex/lib/weeks";

/**
 * The calendar date ("YYYY-MM-DD") of a `week` query parameter, which is an
 * ISO date ("2026-12-02") or a full ISO timestamp (its date part is used);
 * null when it is missing or not a real date.
 */
export function parseWeekParam(value: string | null | undefined): string | null {
  if (!value) return null;
  const date = value.trim().slice(0, 10);
  try {
    const { year, month, day } = parseDateString(date);
    const d = new Date(Date.UTC(year, month - 1, day));
    if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return null;
    return date;
  } catch {
    return null;
  }
}

/**
 * The Monday that starts the viewed week: the week holding the `week`
 * parameter's date when it is valid, otherwise this week (in `timeZone`).
 */
export function initialWeekStart(param: string | null | undefined, nowMs: number, timeZone: string): string {
  const date = parseWeekParam(param) ?? localDateString(nowMs, timeZone);
  return scheduleWeek(date, timeZone).startDate;
}

/** The Monday-to-Sunday week starting on `startDate`, `offset` weeks later. */
export function weekAt(startDate: string, offset: number, timeZone: string): WeekRange {
  return scheduleWeek(shiftWeek(startDate, offset), timeZone);
}

/** "Nov 16 – 22, 2026", "Nov 30 – Dec 6, 2026", "Dec 28, 2026 – Jan 3, 2027". */
export function weekLabel(week: Pick<WeekRange, "startDate" | "endDate">): string {
  // A calendar date as a local-midnight Date, so date-fns prints that very date.
  const asDate = (date: string) => {
    const { year, month, day } = parseDateString(date);
    return new Date(year, month - 1, day);
  };
  const start = asDate(week.startDate);
  const end = asDate(week.endDate);
  if (start.getFullYear() !== end.getFullYear()) {
    return `${format(start, "MMM d, yyyy")} – ${format(end, "MMM d, yyyy")}`;
  }
  if (start.getMonth() !== end.getMonth()) return `${format(start, "MMM d")} – ${format(end, "MMM d, yyyy")}`;
  return `${format(start, "MMM d")} – ${format(end, "d, yyyy")}`;
}

export type DayGroup<T> = { date: string; label: string; items: T[] };

/**
 * Items grouped by their local day in `timeZone`, days in order, each day's
 * items in the order given (the query sorts by start). Days without items
 * are left out.
 */
export function groupByDay<T extends { startsAt: number }>(items: readonly T[], timeZone: string): DayGroup<T>[] {
  const groups = new Map<string, DayGroup<T>>();
  for (const item of items) {
    const date = localDateString(item.startsAt, timeZone);
    let group = groups.get(date);
    if (!group) {
      group = { date, label: format(new TZDate(startOfLocalDay(date, timeZone), timeZone), "EEEE, MMM d"), items: [] };
      groups.set(date, group);
    }
    group.items.push(item);
  }
  return [...groups.values()].sort((a, b) => a.date.localeCompare(b.date));
}

/** "8:00 PM" in `timeZone`. */
export function timeOfDay(epochMs: number, timeZone: string): string {
  return format(new TZDate(epochMs, timeZone), "h:mm a");
}
