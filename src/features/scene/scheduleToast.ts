import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import { localDateString } from "../../../convex/lib/time";
import { scheduleWeek } from "../../../convex/lib/weeks";

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
