/**
 * The check-in window of a scene item (the spec's validate_check_in_timing),
 * shared by the card ("Check-in opens in 1h 5m") and the check-in mutation.
 */
import {
  DEFAULT_TIME_ZONE,
  MINUTE_MS,
  addDaysToDate,
  dayOfWeekOfDate,
  localDateString,
  parseHHMM,
  zonedEpoch,
} from "./time";

export const CHECK_IN_OPENS_BEFORE_MIN = 30;
export const CHECK_IN_CLOSES_AFTER_MIN = 120;

export type CheckInWindowStatus = "open" | "upcoming" | "closed" | "unscheduled";

export type CheckInWindow = {
  status: CheckInWindowStatus;
  /** Whole minutes (rounded up) until the window opens; only when upcoming. */
  minutesUntilOpen: number | null;
  /** Whole minutes (rounded up) until the occurrence starts, while it has not started. */
  minutesUntilStart: number | null;
  /** Whole minutes (rounded down) since the occurrence started, once it has. */
  minutesSinceStart: number | null;
  label: string;
  /** Epoch ms of the occurrence this window belongs to (null when there is none today). */
  occurrenceStartMs: number | null;
  /** Item-local "YYYY-MM-DD" of that occurrence: the day a once-per-day check-in counts for. */
  localDate: string | null;
};

export type CheckInWindowItem = {
  dayOfWeek?: number | null;
  startTimeLocal?: string;
  timeZone?: string;
};

export const CHECK_IN_LABELS = {
  open: "Check-in Available",
  closed: "Check-in window closed",
  unscheduled: "Check-in unavailable",
} as const;

/** "1h 5m", "2h 0m", "45m". */
function formatOpensIn(minutes: number): string {
  if (minutes < 60) return `${minutes}m`;
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

/**
 * Where `nowMs` falls relative to the item's weekly occurrence, in its time zone (America/New_York when missing):
 * open from start-30 (inclusive) to start+120 (exclusive), yesterday's and tomorrow's occurrences included.
 */
export function checkInWindow(item: CheckInWindowItem, nowMs: number): CheckInWindow {
  const start = item.startTimeLocal ? parseHHMM(item.startTimeLocal) : null;
  const day = item.dayOfWeek;
  if (day === null || day === undefined || !start || day < 0 || day > 6) {
    return {
      status: "unscheduled",
      minutesUntilOpen: null,
      minutesUntilStart: null,
      minutesSinceStart: null,
      label: CHECK_IN_LABELS.unscheduled,
      occurrenceStartMs: null,
      localDate: null,
    };
  }
  const timeZone = item.timeZone || DEFAULT_TIME_ZONE;
  const today = localDateString(nowMs, timeZone);
  const hhmm = item.startTimeLocal as string;

  const describe = (status: CheckInWindowStatus, date: string, startMs: number): CheckInWindow => {
    const untilOpen = Math.ceil((startMs - CHECK_IN_OPENS_BEFORE_MIN * MINUTE_MS - nowMs) / MINUTE_MS);
    return {
      status,
      minutesUntilOpen: status === "upcoming" ? untilOpen : null,
      minutesUntilStart: nowMs < startMs ? Math.ceil((startMs - nowMs) / MINUTE_MS) : null,
      minutesSinceStart: nowMs >= startMs ? Math.floor((nowMs - startMs) / MINUTE_MS) : null,
      label:
        status === "open"
          ? CHECK_IN_LABELS.open
          : status === "upcoming"
            ? `Check-in opens in ${formatOpensIn(untilOpen)}`
            : CHECK_IN_LABELS.closed,
      occurrenceStartMs: startMs,
      localDate: date,
    };
  };

  // A 23:30 mic is still open at 00:30 (yesterday's), a 00:15 mic already opens at 23:45 (tomorrow's).
  for (const offset of [-1, 0, 1]) {
    const date = addDaysToDate(today, offset);
    if (dayOfWeekOfDate(date) !== day) continue;
    const startMs = zonedEpoch(date, hhmm, timeZone);
    const opens = startMs - CHECK_IN_OPENS_BEFORE_MIN * MINUTE_MS;
    const closes = startMs + CHECK_IN_CLOSES_AFTER_MIN * MINUTE_MS;
    if (nowMs >= opens && nowMs < closes) return describe("open", date, startMs);
  }

  // Upcoming: later today and not open yet; closed: anything else.
  if (dayOfWeekOfDate(today) === day) {
    const startMs = zonedEpoch(today, hhmm, timeZone);
    const opens = startMs - CHECK_IN_OPENS_BEFORE_MIN * MINUTE_MS;
    return describe(nowMs < opens ? "upcoming" : "closed", today, startMs);
  }

  return {
    status: "closed",
    minutesUntilOpen: null,
    minutesUntilStart: null,
    minutesSinceStart: null,
    label: CHECK_IN_LABELS.closed,
    occurrenceStartMs: null,
    localDate: null,
  };
}
