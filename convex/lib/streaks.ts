/** Performance streaks: consecutive local days with at least one set. */
import { addDaysToDate, daysBetweenDates } from "./time";

/**
 * Current and longest streak from the comedian's set dates ("YYYY-MM-DD" in
 * their own time zone, ascending, unique; duplicates and order are tolerated).
 * The current streak is the run ending today, or yesterday (today's set may
 * still come); it is 0 when the latest set is older. Dates after `todayDate`
 * are ignored.
 */
export function computeStreaks(
  sortedUniqueDates: readonly string[],
  todayDate: string,
): { current: number; longest: number } {
  const dates = [...new Set(sortedUniqueDates)].filter((d) => d <= todayDate).sort();
  let longest = 0;
  let run = 0;
  for (let i = 0; i < dates.length; i++) {
    run = i > 0 && daysBetweenDates(dates[i - 1], dates[i]) === 1 ? run + 1 : 1;
    longest = Math.max(longest, run);
  }
  const last = dates[dates.length - 1];
  const current = last !== undefined && (last === todayDate || last === addDaysToDate(todayDate, -1)) ? run : 0;
  return { current, longest };
}
