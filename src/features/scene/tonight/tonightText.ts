import { CHECK_IN_OPENS_BEFORE_MIN, type CheckInWindow } from "@convex/lib/checkInWindow";
import { DEFAULT_TIME_ZONE, formatTime12h } from "@convex/lib/time";
import type { FreshnessGrade } from "@convex/lib/tonight";

export const FRESHNESS_LABELS: Record<FreshnessGrade, string> = {
  new: "New",
  fresh: "Fresh",
  ageing: "Ageing",
  stale: "Stale",
};
/** The badge colour of each freshness grade (the scene's cards and Tonight). */
export const FRESHNESS_COLORS = { new: "blue", fresh: "green", ageing: "amber", stale: "gray" } as const;

/** "List 7:30 PM · Starts 8:00 PM" for an in-person list, else "Starts 8:00 PM". */
export function nightTimesText(item: {
  signupMethod?: string;
  listTimeLocal?: string;
  startTimeLocal?: string;
}): string {
  const starts = item.startTimeLocal ? `Starts ${formatTime12h(item.startTimeLocal)}` : "";
  if (item.signupMethod === "in_person" && item.listTimeLocal) {
    return `List ${formatTime12h(item.listTimeLocal)}${starts ? ` · ${starts}` : ""}`;
  }
  return starts;
}

/** Check-in that opens within this many minutes reads "Check-in opens in 45m"; later, the clock time. */
export const CHECK_IN_SOON_MIN = 60;

/**
 * Tonight's check-in badge: "Check-in open", "Check-in opens in 45m" when it
 * opens within the hour, "Check-in opens at 7:30 PM" (the mic's time) when
 * later, "Check-in closed" after.
 */
export function checkInBadgeText(
  window: Pick<CheckInWindow, "status" | "minutesUntilOpen" | "occurrenceStartMs">,
  timeZone: string | undefined,
): string {
  if (window.status === "open") return "Check-in open";
  if (window.status !== "upcoming" || window.minutesUntilOpen === null || window.occurrenceStartMs === null)
    return "Check-in closed";
  if (window.minutesUntilOpen <= CHECK_IN_SOON_MIN) return `Check-in opens in ${window.minutesUntilOpen}m`;
  const opensMs = window.occurrenceStartMs - CHECK_IN_OPENS_BEFORE_MIN * 60_000;
  const opens = new Intl.DateTimeFormat("en-US", {
    timeZone: timeZone || DEFAULT_TIME_ZONE,
    hour: "numeric",
    minute: "2-digit",
  }).format(opensMs);
  return `Check-in opens at ${opens}`;
}

/** Nights this close to their start say "starts in 40 min". */
export const STARTS_SOON_MIN = 90;

/** "starts in 40 min", "starts in 1 h 5 min", "on now", or null while it is further off. */
export function startsInText(startMs: number, endMs: number, nowMs: number): string | null {
  if (nowMs >= startMs) return nowMs < endMs ? "on now" : null;
  const minutes = Math.ceil((startMs - nowMs) / 60_000);
  if (minutes > STARTS_SOON_MIN) return null;
  if (minutes < 60) return `starts in ${minutes} min`;
  const rest = minutes % 60;
  return `starts in 1 h${rest ? ` ${rest} min` : ""}`;
}

/** "0.4 mi", "12 mi". */
export function distanceText(miles: number): string {
  return miles < 10 ? `${miles.toFixed(1)} mi` : `${Math.round(miles)} mi`;
}

/** One formatter per zone (making one costs far more than using it). */
const longDates = new Map<string, Intl.DateTimeFormat>();

/** The date of the last confirmation in words: "November 20, 2026". */
export function confirmationDateText(lastMs: number, timeZone: string | undefined): string {
  const zone = timeZone || DEFAULT_TIME_ZONE;
  let formatter = longDates.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", { timeZone: zone, month: "long", day: "numeric", year: "numeric" });
    longDates.set(zone, formatter);
  }
  return formatter.format(lastMs);
}
