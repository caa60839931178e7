import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import { localDateString } from "@convex/lib/time";
import { scheduleWeek } from "@convex/lib/weeks";

/**
 * The wording of the 'Added to your schedule' toasts (loaded by
 * useAddToSchedule when a comedian adds a mic, not with the scene: date-fns's
 * format is not part of the first paint).
 */

/** "Wed, Nov 25 at 8:00 PM", in the venue's time zone. */
export function formatOccurrence(epochMs: number, timeZone: string): string {
  return format(new TZDate(epochMs, timeZone), "EEE, MMM d 'at' h:mm a");
}

/**
 * What the 'Added to your schedule' toast says about the next occurrence: its
 * date, plus (when it is not in the viewer's current Monday-to-Sunday week) the
 * ISO date of the week to jump to.
 */
export function nextOccurrenceNote(
  nextOccurrence: number,
  nowMs: number,
  viewerTimeZone: string,
  itemTimeZone: string,
): { description: string; jumpToWeek: string | null } {
  const description = `Next: ${formatOccurrence(nextOccurrence, itemTimeZone)}`;
  const week = scheduleWeek(nowMs, viewerTimeZone);
  const inThisWeek = nextOccurrence >= week.startMs && nextOccurrence <= week.endMs;
  return {
    description,
    jumpToWeek: inThisWeek ? null : localDateString(nextOccurrence, viewerTimeZone),
  };
}

/** "8:00 PM": when an overlapping night starts, in the viewer's own time. */
export function overlapStartText(startMs: number): string {
  return format(new Date(startMs), "h:mm a");
}
