/**
 * Rules of the night view, shared by the server (the tonight query, host
 * confirmation) and the app (badges, filters, the schedule's overlap note).
 * Everything that needs "now" takes it as an argument.
 */
import { runsOnDate, type RecurringItem } from "./recurrence";
import { completedAtMs } from "./schedule";
import {
  addDaysToDate,
  daysBetweenDates,
  DEFAULT_TIME_ZONE,
  localDateString,
  MINUTE_MS,
  parseHHMM,
  zonedEpoch,
} from "./time";

/** What a mic shows for one night: cancelled by its host, confirmed by its host (or an admin), or nothing. */
export type NightStatus = "cancelled" | "confirmed" | null;

export const NIGHT_STATUS_LABELS = {
  cancelled: "Cancelled tonight",
  confirmed: "Host confirmed tonight",
} as const;

/** Most nights a mic keeps confirmed (the latest ones stay). */
export const MAX_CONFIRMED_DATES = 60;

/** A night's status from the mic's cancelled and confirmed dates; cancelled wins. */
export function nightStatus(
  item: { cancelledDates?: readonly string[]; confirmedDates?: readonly string[] },
  date: string,
): NightStatus {
  if (item.cancelledDates?.includes(date)) return "cancelled";
  if (item.confirmedDates?.includes(date)) return "confirmed";
  return null;
}

/** Graded freshness of a listing from its last confirmation of any kind; "new" while a fresh listing awaits its first. */
export type FreshnessGrade = "new" | "fresh" | "ageing" | "stale";
/** Fresh: confirmed within this many days; new: never confirmed and added within as many. */
export const FRESH_DAYS = 14;
/** Ageing: confirmed within this many days (and not fresh); older or never is stale. */
export const AGEING_DAYS = 45;

/** Epoch ms of the latest confirmation (a check-in, a host confirmation, an admin edit), or null. */
export function lastConfirmationMs(item: { lastCheckInAt?: number; lastConfirmedAt?: number }): number | null {
  const times = [item.lastCheckInAt, item.lastConfirmedAt].filter((t): t is number => typeof t === "number");
  return times.length === 0 ? null : Math.max(...times);
}

/**
 * The freshness grade at `nowMs`: whole calendar days since the last
 * confirmation in the mic's time zone; 14 or fewer fresh, 45 or fewer ageing,
 * else stale. Never confirmed: new when added 14 or fewer days ago, else stale.
 */
export function freshness(
  item: { lastCheckInAt?: number; lastConfirmedAt?: number; timeZone?: string; _creationTime?: number },
  nowMs: number,
): { grade: FreshnessGrade; lastMs: number | null; days: number | null } {
  const lastMs = lastConfirmationMs(item);
  const timeZone = item.timeZone || DEFAULT_TIME_ZONE;
  const daysSince = (ms: number) => daysBetweenDates(localDateString(ms, timeZone), localDateString(nowMs, timeZone));
  if (lastMs === null) {
    // Calendar days, so a mic added seconds after the viewer's per-minute clock is new too.
    const added = item._creationTime === undefined ? null : daysSince(item._creationTime);
    const isNew = added !== null && added >= 0 && added <= FRESH_DAYS;
    return { grade: isNew ? "new" : "stale", lastMs, days: null };
  }
  const days = Math.max(0, daysSince(lastMs));
  const grade: FreshnessGrade = days <= FRESH_DAYS ? "fresh" : days <= AGEING_DAYS ? "ageing" : "stale";
  return { grade, lastMs, days };
}

/** The time-of-day filter: before 7 PM, 7 to 9 PM, after 9 PM (local start time). */
export type TimeOfDay = "early" | "prime" | "late";
export const TIME_OF_DAY_LABELS: Record<TimeOfDay, string> = {
  early: "Before 7 PM",
  prime: "7–9 PM",
  late: "After 9 PM",
};
/** Start-time bounds ("HH:MM", from inclusive, to exclusive) of each time of day. */
export const TIME_OF_DAY_RANGES: Record<TimeOfDay, { from: string; to: string }> = {
  early: { from: "00:00", to: "19:00" },
  prime: { from: "19:00", to: "21:00" },
  late: { from: "21:00", to: "24:00" },
};

/** Zero-padded "HH:MM" of a start time, or null when it is not a time. */
export function normalizedHHMM(hhmm: string | undefined): string | null {
  const t = hhmm ? parseHHMM(hhmm) : null;
  if (!t) return null;
  return `${String(t.hours).padStart(2, "0")}:${String(t.minutes).padStart(2, "0")}`;
}

/** Whether a local start time falls in the time of day. */
export function inTimeOfDay(startTimeLocal: string | undefined, timeOfDay: TimeOfDay): boolean {
  const hhmm = normalizedHHMM(startTimeLocal);
  if (hhmm === null) return false;
  const { from, to } = TIME_OF_DAY_RANGES[timeOfDay];
  return hhmm >= from && hhmm < to;
}

export type NightItem = RecurringItem & { performanceMinutes?: number };

/** One night of a mic: its local date, start and end (start + 60 min + set length). */
export type Night = { date: string; startMs: number; endMs: number };

/** The mic's night on the local date, or null when it does not run that day. */
export function nightOn(item: NightItem, date: string): Night | null {
  if (!item.startTimeLocal || !runsOnDate(item, date)) return null;
  const startMs = zonedEpoch(date, item.startTimeLocal, item.timeZone || DEFAULT_TIME_ZONE);
  return { date, startMs, endMs: completedAtMs(startMs, item.performanceMinutes) };
}

/**
 * The mic's night that counts as "tonight" at `nowMs`, in the mic's own time
 * zone: yesterday's night while it is still running (past midnight), else
 * today's night if it has not ended; null otherwise.
 */
export function tonightNight(item: NightItem, nowMs: number): Night | null {
  const today = localDateString(nowMs, item.timeZone || DEFAULT_TIME_ZONE);
  const yesterday = nightOn(item, addDaysToDate(today, -1));
  if (yesterday && yesterday.endMs > nowMs) return yesterday;
  const night = nightOn(item, today);
  return night && night.endMs > nowMs ? night : null;
}

/** The mic's night on the day after the viewer's today (in the mic's time zone), or null. */
export function tomorrowNight(item: NightItem, nowMs: number): Night | null {
  const today = localDateString(nowMs, item.timeZone || DEFAULT_TIME_ZONE);
  return nightOn(item, addDaysToDate(today, 1));
}

/** Minutes after the set length a planned night keeps a comedian at a mic. */
export const OVERLAP_MARGIN_MIN = 30;

/** The stretch a comedian plans for a night: start to start + set length + 30 minutes. */
export function plannedWindow(startMs: number, performanceMinutes: number | undefined): { from: number; to: number } {
  const minutes = (performanceMinutes && performanceMinutes > 0 ? performanceMinutes : 0) + OVERLAP_MARGIN_MIN;
  return { from: startMs, to: startMs + minutes * MINUTE_MS };
}

/** Whether two planned nights overlap (touching ends do not). */
export function nightsOverlap(
  a: { startMs: number; performanceMinutes?: number },
  b: { startMs: number; performanceMinutes?: number },
): boolean {
  const x = plannedWindow(a.startMs, a.performanceMinutes);
  const y = plannedWindow(b.startMs, b.performanceMinutes);
  return x.from < y.to && y.from < x.to;
}

/** Latest plausible "now" a client may send, and the earliest. */
export const MIN_NOW_MS = Date.UTC(2000, 0, 1);
export const MAX_NOW_MS = Date.UTC(2200, 0, 1);

/** The filters comedians plan by (free only, sign-up method, time of day, hide stale). */
export type PlanFilters = {
  freeOnly: boolean;
  signup: "any" | "in_person" | "online";
  timeOfDay: "any" | TimeOfDay;
  hideStale: boolean;
};

/** Whether a mic passes the plan filters at `nowMs` (the stale filter needs the time). */
export function matchesPlanFilters(
  item: {
    costInfo?: { type: string } | null;
    signupMethod?: string;
    startTimeLocal?: string;
    lastCheckInAt?: number;
    lastConfirmedAt?: number;
    timeZone?: string;
  },
  filters: PlanFilters,
  nowMs: number,
): boolean {
  if (filters.freeOnly && item.costInfo?.type !== "free") return false;
  if (filters.signup !== "any" && item.signupMethod !== filters.signup) return false;
  if (filters.timeOfDay !== "any" && !inTimeOfDay(item.startTimeLocal, filters.timeOfDay)) return false;
  if (filters.hideStale && freshness(item, nowMs).grade === "stale") return false;
  return true;
}

/** Whether any plan filter is on. */
export function anyPlanFilter(filters: PlanFilters): boolean {
  return filters.freeOnly || filters.signup !== "any" || filters.timeOfDay !== "any" || filters.hideStale;
}
