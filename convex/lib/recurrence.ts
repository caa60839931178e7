/**
 * When a scene item runs: its recurrence resolved to a rule over dates, the
 * next occurrence, the occurrences in a range and the calendar (.ics) rule.
 * The words (custom patterns, monthly rule text, summaries) are in
 * lib/recurrenceText, re-exported here. All wall-clock times are in the item's own time zone, so a 20:00
 * mic stays at 20:00 across daylight-saving changes.
 */
import {
  DEFAULT_TIME_ZONE,
  addDaysToDate,
  dayOfWeekOfDate,
  daysBetweenDates,
  daysInMonth,
  formatDateParts,
  localDateString,
  parseDateString,
  parseHHMM,
  zonedEpoch,
} from "./time";
import {
  nthWeekdayOfDate,
  parseCustomRecurrence,
  parseMonthlyRule,
  type NthWeekday,
  type RecurringItem,
} from "./recurrenceText";

export {
  INVALID_CUSTOM_RECURRENCE,
  RECURRENCES,
  RECURRENCE_OPTIONS,
  monthlyRuleText,
  nthWeekdayOfDate,
  ordinal,
  parseCustomRecurrence,
  parseMonthlyRule,
  parseWeekdayName,
  recurrenceSummary,
  type CustomRecurrence,
  type MonthlyRule,
  type NthWeekday,
  type Recurrence,
  type RecurringItem,
} from "./recurrenceText";

/** A resolved rule over local calendar dates. */
type DateRule =
  | { kind: "weeks"; weekday: number; interval: number; anchor: string }
  | { kind: "month_day"; day: number }
  | { kind: "nth_weekday"; nth: NthWeekday; weekday: number; interval: number; anchorMonth: number }
  | { kind: "once"; date: string };

/** First date on or after `date` that falls on `weekday`. */
function onOrAfterWeekday(date: string, weekday: number): string {
  return addDaysToDate(date, (weekday - dayOfWeekOfDate(date) + 7) % 7);
}

/** Months since year 0, for "every N months" arithmetic. */
function monthIndex(date: string): number {
  const { year, month } = parseDateString(date);
  return year * 12 + (month - 1);
}

/** The date of the nth (or last, -1) weekday of a month; month 1..12. */
export function nthWeekdayOfMonth({
  year,
  month,
  nth,
  weekday,
}: {
  year: number;
  month: number;
  nth: NthWeekday;
  weekday: number;
}): string {
  if (nth === -1) {
    const last = formatDateParts(year, month, daysInMonth(year, month));
    return addDaysToDate(last, -((dayOfWeekOfDate(last) - weekday + 7) % 7));
  }
  const first = onOrAfterWeekday(formatDateParts(year, month, 1), weekday);
  return addDaysToDate(first, (nth - 1) * 7);
}

const mod = (a: number, n: number) => ((a % n) + n) % n;

/**
 * Turns an item into a rule over local dates (the schedule, the cards and the .ics export share it). Without an
 * anchor date the next `dayOfWeek` from `fromMs` stands in for the anchored occurrence.
 */
function resolveRule(item: RecurringItem, fromMs: number): DateRule | null {
  const timeZone = item.timeZone || DEFAULT_TIME_ZONE;
  const hhmm = item.startTimeLocal ?? "";
  const rawAnchor =
    item.anchorDate ?? (item._creationTime !== undefined ? localDateString(item._creationTime, timeZone) : null);
  const weekday =
    item.dayOfWeek !== null && item.dayOfWeek !== undefined && item.dayOfWeek >= 0 && item.dayOfWeek <= 6
      ? item.dayOfWeek
      : rawAnchor !== null
        ? dayOfWeekOfDate(rawAnchor)
        : null;
  const fromDate = localDateString(fromMs, timeZone);
  /** A known occurrence date on `weekday`. */
  const anchorOnWeekday = (wd: number) =>
    rawAnchor !== null ? onOrAfterWeekday(rawAnchor, wd) : onOrAfterWeekday(fromDate, wd);

  const weeks = (interval: number, wd: number | null): DateRule | null => {
    if (wd === null) return null;
    if (interval === 1) return { kind: "weeks", weekday: wd, interval: 1, anchor: onOrAfterWeekday(fromDate, wd) };
    if (rawAnchor !== null) return { kind: "weeks", weekday: wd, interval, anchor: onOrAfterWeekday(rawAnchor, wd) };
    // No anchor: this Monday-to-Sunday week's occurrence, pushed a full cycle once it has passed.
    const monday = addDaysToDate(fromDate, -mod(dayOfWeekOfDate(fromDate) - 1, 7));
    let anchor = addDaysToDate(monday, mod(wd - 1, 7));
    if (zonedEpoch(anchor, hhmm, timeZone) < fromMs) anchor = addDaysToDate(anchor, 7 * interval);
    return { kind: "weeks", weekday: wd, interval, anchor };
  };

  const months = (interval: number): DateRule | null => {
    if (weekday === null) return null;
    const known = anchorOnWeekday(weekday);
    return { kind: "nth_weekday", nth: nthWeekdayOfDate(known), weekday, interval, anchorMonth: monthIndex(known) };
  };

  switch (item.recurrence) {
    case "weekly":
      return weeks(1, weekday);
    case "bi-weekly": // every 14 days from the first `dayOfWeek` on or after the anchor date
      return weeks(2, weekday);
    case "monthly": {
      const rule = item.monthlyRule ? parseMonthlyRule(item.monthlyRule) : null;
      if (rule?.kind === "month_day") return rule; // "Monthly on the 31st" skips shorter months, as RRULE BYMONTHDAY
      if (rule?.kind === "nth_weekday") return { ...rule, interval: 1, anchorMonth: 0 };
      return months(1); // no rule: the anchored occurrence's nth weekday
    }
    case "one-time": {
      if (rawAnchor !== null) {
        return { kind: "once", date: weekday !== null ? onOrAfterWeekday(rawAnchor, weekday) : rawAnchor };
      }
      return weekday === null ? null : { kind: "once", date: onOrAfterWeekday(fromDate, weekday) };
    }
    case "custom": {
      const custom = parseCustomRecurrence(item.customRecurrenceDescription ?? "");
      if (custom === null) return weeks(1, weekday); // unparseable text falls back to weekly
      if (custom.kind === "every_n_weeks") return weeks(custom.n, custom.weekday ?? weekday);
      if (custom.kind === "every_n_months") return months(custom.n); // and quarterly: the anchor's nth weekday
      return { kind: "nth_weekday", nth: custom.nth, weekday: custom.weekday, interval: 1, anchorMonth: 0 };
    }
  }
}

/** Local dates of the rule between two dates, both inclusive, ascending. */
function ruleDates({ rule, startDate, endDate }: { rule: DateRule; startDate: string; endDate: string }): string[] {
  const out: string[] = [];
  switch (rule.kind) {
    case "once":
      if (rule.date >= startDate && rule.date <= endDate) out.push(rule.date);
      return out;
    case "weeks": {
      for (let d = onOrAfterWeekday(startDate, rule.weekday); d <= endDate; d = addDaysToDate(d, 7)) {
        if (mod(daysBetweenDates(rule.anchor, d) / 7, rule.interval) === 0) out.push(d);
      }
      return out;
    }
    case "month_day":
    case "nth_weekday": {
      for (let mi = monthIndex(startDate); mi <= monthIndex(endDate); mi++) {
        if (rule.kind === "nth_weekday" && mod(mi - rule.anchorMonth, rule.interval) !== 0) continue;
        const year = Math.floor(mi / 12);
        const month = (mi % 12) + 1;
        let date: string;
        if (rule.kind === "month_day") {
          if (rule.day > daysInMonth(year, month)) continue;
          date = formatDateParts(year, month, rule.day);
        } else {
          date = nthWeekdayOfMonth({ year, month, nth: rule.nth, weekday: rule.weekday });
        }
        if (date >= startDate && date <= endDate) out.push(date);
      }
      return out;
    }
  }
}

const SEARCH_WINDOW_DAYS = 400;
const SEARCH_WINDOWS = 8;

/**
 * Epoch ms of the item's next start at or after `fromMs` (see resolveRule for
 * each recurrence), or null when it has no start time, no usable day, or (one-time)
 * its date has passed. DST-correct in the item's time zone.
 */
export function nextOccurrence(item: RecurringItem, fromMs: number): number | null {
  if (!item.startTimeLocal || !parseHHMM(item.startTimeLocal)) return null;
  const rule = resolveRule(item, fromMs);
  if (rule === null) return null;
  const timeZone = item.timeZone || DEFAULT_TIME_ZONE;
  // A start on the previous local day is always before fromMs, so start at fromMs's own date.
  let start = localDateString(fromMs, timeZone);
  for (let i = 0; i < SEARCH_WINDOWS; i++) {
    const end = addDaysToDate(start, SEARCH_WINDOW_DAYS - 1);
    for (const date of ruleDates({ rule, startDate: start, endDate: end })) {
      const ms = zonedEpoch(date, item.startTimeLocal, timeZone);
      if (ms >= fromMs) return ms;
    }
    if (rule.kind === "once") return null;
    start = addDaysToDate(end, 1);
  }
  return null;
}

/** How far back {@link lastOccurrence} looks: two months covers every weekly, bi-weekly and monthly mic. */
const LOOKBACK_DAYS = 63;

/**
 * Epoch ms of the item's latest start at or before `atMs` (its "last night"),
 * or null when it has none in the past two months (or no start time).
 */
export function lastOccurrence(item: RecurringItem, atMs: number): number | null {
  const starts = occurrencesInRange(item, atMs - LOOKBACK_DAYS * 24 * 60 * 60_000, atMs);
  return starts.length > 0 ? starts[starts.length - 1] : null;
}

/**
 * Epoch ms of every start with fromMs <= start <= toMs (both inclusive, to
 * match week ends at 23:59:59.999), ascending. Bi-weekly items without an
 * anchor take their cadence from `fromMs`, as nextOccurrence does.
 */
export function occurrencesInRange(item: RecurringItem, fromMs: number, toMs: number): number[] {
  if (toMs < fromMs || !item.startTimeLocal || !parseHHMM(item.startTimeLocal)) return [];
  const rule = resolveRule(item, fromMs);
  if (rule === null) return [];
  const timeZone = item.timeZone || DEFAULT_TIME_ZONE;
  const startDate = localDateString(fromMs, timeZone);
  const endDate = localDateString(toMs, timeZone);
  const hhmm = item.startTimeLocal;
  return ruleDates({ rule, startDate, endDate })
    .map((date) => zonedEpoch(date, hhmm, timeZone))
    .filter((ms) => ms >= fromMs && ms <= toMs);
}

/**
 * Whether the item runs on the local date "YYYY-MM-DD" (its own time zone):
 * false on a bi-weekly item's off week or a monthly item's other weeks. The
 * check-in window itself follows the spec and looks only at the weekday;
 * callers that want "does it run tonight" combine the two.
 */
export function runsOnDate(item: RecurringItem, date: string): boolean {
  if (!item.startTimeLocal || !parseHHMM(item.startTimeLocal)) return false;
  const timeZone = item.timeZone || DEFAULT_TIME_ZONE;
  const rule = resolveRule(item, zonedEpoch(date, "00:00", timeZone));
  return rule !== null && ruleDates({ rule, startDate: date, endDate: date }).length > 0;
}

const RRULE_DAYS = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"] as const;

/**
 * The item as a calendar event for an .ics export: the first start at or
 * after `fromMs` (DTSTART) and an RFC 5545 RRULE that repeats exactly like
 * nextOccurrence/occurrencesInRange (null for one-time items). Interpret the
 * start in the item's own time zone. Null when the item never runs again.
 */
export function calendarRecurrence(
  item: RecurringItem,
  fromMs: number,
): { startMs: number; timeZone: string; rrule: string | null } | null {
  const startMs = nextOccurrence(item, fromMs);
  if (startMs === null) return null;
  const timeZone = item.timeZone || DEFAULT_TIME_ZONE;
  const rule = resolveRule(item, fromMs) as DateRule;
  const interval = (n: number) => (n > 1 ? `;INTERVAL=${n}` : "");
  let rrule: string | null;
  switch (rule.kind) {
    case "once":
      rrule = null;
      break;
    case "weeks":
      rrule = `FREQ=WEEKLY${interval(rule.interval)};BYDAY=${RRULE_DAYS[rule.weekday]}`;
      break;
    case "month_day":
      rrule = `FREQ=MONTHLY;BYMONTHDAY=${rule.day}`;
      break;
    case "nth_weekday":
      rrule = `FREQ=MONTHLY${interval(rule.interval)};BYDAY=${rule.nth}${RRULE_DAYS[rule.weekday]}`;
      break;
  }
  return { startMs, timeZone, rrule };
}
