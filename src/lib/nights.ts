import { DEFAULT_TIME_ZONE, localDateString } from "@convex/lib/time";

/** A mic's per-night statuses, as the scene and the event page receive them. */
type NightDates = { confirmedDates?: string[]; cancelledDates?: string[]; timeZone?: string };

/** True when the host (or an admin) has confirmed tonight (the venue's local date) runs. */
export function isConfirmedTonight(item: NightDates, nowMs: number): boolean {
  if (!item.confirmedDates?.length) return false;
  const today = localDateString(nowMs, item.timeZone || DEFAULT_TIME_ZONE);
  return item.confirmedDates.includes(today) && !(item.cancelledDates ?? []).includes(today);
}
