/**
 * Week boundaries in a comedian's (or item's) time zone. The schedule shows
 * Monday-to-Sunday weeks; the dashboard's weekly goal counts Sunday-to-Saturday.
 * Boundaries are local midnights, so a week holding a DST change is 167 or 169
 * hours long.
 */
import { addDaysToDate, dayOfWeekOfDate, localDateString, parseDateString, startOfLocalDay } from "./time";

export type WeekRange = {
  /** Epoch ms of the first local midnight of the week. */
  startMs: number;
  /** Epoch ms of the last millisecond of the week (23:59:59.999 on its last day). */
  endMs: number;
  /** "YYYY-MM-DD" of the first day. */
  startDate: string;
  /** "YYYY-MM-DD" of the last day. */
  endDate: string;
};

function toLocalDate(dateOrMs: string | number, timeZone: string): string {
  if (typeof dateOrMs === "number") return localDateString(dateOrMs, timeZone);
  // Accept a full ISO string ("2026-11-21T10:00:00Z") by its calendar date, as the ?week= parameter may carry one.
  const date = dateOrMs.slice(0, 10);
  parseDateString(date);
  return date;
}

function weekStartingOn({
  firstDay,
  dateOrMs,
  timeZone,
}: {
  firstDay: number;
  dateOrMs: string | number;
  timeZone: string;
}): WeekRange {
  const date = toLocalDate(dateOrMs, timeZone);
  const startDate = addDaysToDate(date, -((dayOfWeekOfDate(date) - firstDay + 7) % 7));
  const nextStart = addDaysToDate(startDate, 7);
  return {
    startMs: startOfLocalDay(startDate, timeZone),
    endMs: startOfLocalDay(nextStart, timeZone) - 1,
    startDate,
    endDate: addDaysToDate(startDate, 6),
  };
}

/** The Monday 00:00 to Sunday 23:59:59.999 week (schedule) holding the date or instant. */
export function scheduleWeek(dateOrMs: string | number, timeZone: string): WeekRange {
  return weekStartingOn({ firstDay: 1, dateOrMs, timeZone });
}

/** The Sunday 00:00 to Saturday 23:59:59.999 week (weekly goal) holding the date or instant. */
export function goalWeek(dateOrMs: string | number, timeZone: string): WeekRange {
  return weekStartingOn({ firstDay: 0, dateOrMs, timeZone });
}

/** The start date `weeks` weeks later (negative for earlier). */
export function shiftWeek(startDate: string, weeks: number): string {
  return addDaysToDate(startDate, weeks * 7);
}

export const WEEK_GOAL_TEXT = {
  empty: "No minutes yet this week",
  achieved: "Goal achieved! Keep the momentum going!",
} as const;

/**
 * Progress ring value and text of the weekly goal card. The percent is
 * rounded and capped at 100; short of the goal it stops at 99 so the card
 * never says "100% complete" before the goal is met.
 */
export function weekGoalDisplay(minutes: number, goal: number): { percent: number; text: string } {
  if (minutes <= 0) return { percent: 0, text: WEEK_GOAL_TEXT.empty };
  if (goal <= 0 || minutes >= goal) return { percent: 100, text: WEEK_GOAL_TEXT.achieved };
  const percent = Math.min(99, Math.round((minutes / goal) * 100));
  return { percent, text: `${percent}% complete` };
}
