import { DAY_NAMES, daysBetweenDates, DEFAULT_TIME_ZONE, formatTime12h, localDateString } from "@convex/lib/time";
import type { SceneItem } from "./types";

export const TYPE_LABELS: Record<SceneItem["type"], string> = {
  open_mic: "Open Mic",
  show: "Show",
  booked_show: "Booked Show",
  bringer_show: "Bringer Show",
};

type ScheduleFields = Pick<
  SceneItem,
  "dayOfWeek" | "startTimeLocal" | "recurrence" | "monthlyRule" | "customRecurrenceDescription"
>;

function dayName(dayOfWeek: number | null | undefined): string | null {
  if (dayOfWeek === null || dayOfWeek === undefined) return null;
  return DAY_NAMES[dayOfWeek] ?? null;
}

/**
 * How often and when an item runs, in 12-hour time: "Every Wednesday at 8:00 PM",
 * "Every other Friday at 9:30 PM", "Monthly on the 15th at 7:00 PM",
 * "One time on Saturday at 10:00 PM", or the custom description.
 */
export function scheduleText(item: ScheduleFields): string {
  const day = dayName(item.dayOfWeek);
  const at = item.startTimeLocal ? ` at ${formatTime12h(item.startTimeLocal)}` : "";
  switch (item.recurrence) {
    case "weekly":
      return day ? `Every ${day}${at}` : `Weekly${at}`;
    case "bi-weekly":
      return day ? `Every other ${day}${at}` : `Every other week${at}`;
    case "monthly": {
      const rule = item.monthlyRule?.trim();
      if (rule) return `${rule}${at}`;
      return day ? `Monthly on a ${day}${at}` : `Monthly${at}`;
    }
    case "one-time":
      return day ? `One time on ${day}${at}` : `One time${at}`;
    case "custom": {
      const description = item.customRecurrenceDescription?.trim();
      if (description) return `${description}${at}`;
      return day ? `${day}s${at}` : `Custom schedule${at}`;
    }
  }
}

/** "List at 7:30 PM", or null when the item has no list time. */
export function listTimeText(listTimeLocal: string | undefined): string | null {
  return listTimeLocal ? `List at ${formatTime12h(listTimeLocal)}` : null;
}

/**
 * When a check-in last confirmed the mic runs, counted in calendar days in
 * `timeZone`: "Confirmed today", "Confirmed 1 day ago", "Confirmed 3 days ago",
 * or "Not confirmed yet".
 */
export function freshnessText(
  lastCheckInAt: number | undefined,
  nowMs: number,
  timeZone: string = DEFAULT_TIME_ZONE,
): string {
  if (lastCheckInAt === undefined) return "Not confirmed yet";
  const days = Math.max(
    0,
    daysBetweenDates(localDateString(lastCheckInAt, timeZone), localDateString(nowMs, timeZone)),
  );
  if (days === 0) return "Confirmed today";
  return `Confirmed ${days} ${days === 1 ? "day" : "days"} ago`;
}

/** Verified only while the verification has not expired (the daily cron clears it too). */
export function isVerified(
  item: Pick<SceneItem, "verifiedCheckIns30d" | "verificationExpiresAt">,
  nowMs: number,
): boolean {
  return item.verifiedCheckIns30d > 0 && item.verificationExpiresAt !== undefined && item.verificationExpiresAt > nowMs;
}

/** "1 check-in", "12 check-ins". */
export function checkInCountText(count: number): string {
  return `${count} ${count === 1 ? "check-in" : "check-ins"}`;
}

/** A maps search for the venue, built from its name and city. */
export function mapsUrl(item: Pick<SceneItem, "venueName" | "city">): string {
  const query = [item.venueName, item.city].filter(Boolean).join(", ");
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(query)}`;
}

/** "Free", "$5 cover", "2-item minimum", "$5 cover + 2-item minimum", or null. */
export function costText(costInfo: SceneItem["costInfo"]): string | null {
  if (!costInfo) return null;
  const cover = costInfo.coverAmount !== undefined ? `$${costInfo.coverAmount} cover` : "Cover";
  const minimum = costInfo.minimumItems !== undefined ? `${costInfo.minimumItems}-item minimum` : "Drink minimum";
  switch (costInfo.type) {
    case "free":
      return "Free";
    case "cover":
      return cover;
    case "minimum":
      return minimum;
    case "combo":
      return `${cover} + ${minimum}`;
  }
}

/** True when the mic's owner has marked tonight (the venue's local date) as cancelled. */
export function isCancelledTonight(item: Pick<SceneItem, "cancelledDates" | "timeZone">, nowMs: number): boolean {
  if (!item.cancelledDates?.length) return false;
  return item.cancelledDates.includes(localDateString(nowMs, item.timeZone || DEFAULT_TIME_ZONE));
}
