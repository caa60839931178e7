/**
 * Wall-clock helpers. Scene item times are "HH:MM" in the item's own IANA time
 * zone; everything that needs "now" takes it as an argument.
 */
import { TZDate } from "@date-fns/tz";

export { DEFAULT_TIME_ZONE } from "./defaultTimeZone";

export const DAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;
export const DAY_SHORT = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] as const;

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

const pad2 = (n: number) => String(n).padStart(2, "0");

const checkedZones = new Map<string, boolean>();
const MAX_CHECKED_ZONES = 1_000;

/** Whether `timeZone` is an IANA zone this runtime knows ("America/Chicago"); validate items' zones with it. */
export function isValidTimeZone(timeZone: string): boolean {
  if (!timeZone) return false;
  const known = checkedZones.get(timeZone);
  if (known !== undefined) return known;
  let valid: boolean;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone }).format(0);
    valid = true;
  } catch {
    valid = false;
  }
  // Building a formatter costs far more than the lookup; every list view and sign-up asks.
  if (checkedZones.size >= MAX_CHECKED_ZONES) checkedZones.clear();
  checkedZones.set(timeZone, valid);
  return valid;
}

/** UTC under its other names ("Etc/UTC", "GMT", "Zulu"...): a clock, not a place anyone's mics are. */
const PLACELESS_ZONE = /^(?:Etc\/)?(?:UTC|UCT|GMT|GMT[+-]?0|Greenwich|Universal|Zulu)$/i;

/** Whether `timeZone` names UTC rather than a place: a browser reporting it says nothing of where the viewer is. */
export function isPlacelessTimeZone(timeZone: string): boolean {
  return PLACELESS_ZONE.test(timeZone);
}

/** "00:00", "00:15", ... "23:45": the 15-minute time slots of the log-a-set wizard. */
export const QUARTER_HOUR_SLOTS: readonly string[] = Array.from(
  { length: 96 },
  (_, i) => `${pad2(Math.floor(i / 4))}:${pad2((i % 4) * 15)}`,
);

/** Parses "HH:MM" or "HH:MM:SS" (24-hour); null when malformed or out of range. */
export function parseHHMM(s: string): { hours: number; minutes: number } | null {
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(s.trim());
  if (!m) return null;
  const hours = Number(m[1]);
  const minutes = Number(m[2]);
  const seconds = m[3] === undefined ? 0 : Number(m[3]);
  if (hours > 23 || minutes > 59 || seconds > 59) return null;
  return { hours, minutes };
}

/** "19:30" -> "7:30 PM", "00:05" -> "12:05 AM"; returns the input when malformed. */
export function formatTime12h(hhmm: string): string {
  const t = parseHHMM(hhmm);
  if (!t) return hhmm;
  const suffix = t.hours < 12 ? "AM" : "PM";
  const h12 = t.hours % 12 === 0 ? 12 : t.hours % 12;
  return `${h12}:${pad2(t.minutes)} ${suffix}`;
}

/** 45 -> "45min", 120 -> "2h", 95 -> "1h 35min" (rounded to whole minutes). */
export function formatDuration(minutes: number): string {
  const total = Math.max(0, Math.round(minutes));
  if (total < 60) return `${total}min`;
  const h = Math.floor(total / 60);
  const m = total % 60;
  return m === 0 ? `${h}h` : `${h}h ${m}min`;
}

/** "YYYY-MM-DD" of the instant in `timeZone`. */
export function localDateString(epochMs: number, timeZone: string): string {
  const d = new TZDate(epochMs, timeZone);
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}`;
}

/** Day of week (0 = Sunday) of the instant in `timeZone`. */
export function localDayOfWeek(epochMs: number, timeZone: string): number {
  return new TZDate(epochMs, timeZone).getDay();
}

/** Splits "YYYY-MM-DD" into numbers; throws on a malformed date. */
export function parseDateString(date: string): { year: number; month: number; day: number } {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) throw new Error(`Invalid date "${date}", expected YYYY-MM-DD`);
  return { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
}

/**
 * Epoch ms of wall-clock `hhmm` on `dateYYYYMMDD` in `timeZone`. On a
 * spring-forward day a time inside the gap moves forward by the gap (02:30 ->
 * 03:30 EDT); on a fall-back day an ambiguous time is the first (daylight) one.
 */
export function zonedEpoch(dateYYYYMMDD: string, hhmm: string, timeZone: string): number {
  const { year, month, day } = parseDateString(dateYYYYMMDD);
  const t = parseHHMM(hhmm);
  if (!t) throw new Error(`Invalid time "${hhmm}", expected HH:MM`);
  return TZDate.tz(timeZone, year, month - 1, day, t.hours, t.minutes).getTime();
}

/** Epoch ms of local midnight starting `dateYYYYMMDD` in `timeZone`. */
export function startOfLocalDay(dateYYYYMMDD: string, timeZone: string): number {
  return zonedEpoch(dateYYYYMMDD, "00:00", timeZone);
}

/** Calendar arithmetic on "YYYY-MM-DD" (no time zone involved). */
export function addDaysToDate(date: string, days: number): string {
  const { year, month, day } = parseDateString(date);
  const d = new Date(Date.UTC(year, month - 1, day + days));
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`;
}

/** Day of week (0 = Sunday) of a calendar date. */
export function dayOfWeekOfDate(date: string): number {
  const { year, month, day } = parseDateString(date);
  return new Date(Date.UTC(year, month - 1, day)).getUTCDay();
}

/** Whole days from `a` to `b` (positive when b is later). */
export function daysBetweenDates(a: string, b: string): number {
  const pa = parseDateString(a);
  const pb = parseDateString(b);
  return Math.round((Date.UTC(pb.year, pb.month - 1, pb.day) - Date.UTC(pa.year, pa.month - 1, pa.day)) / DAY_MS);
}

/** Number of days in a month (month 1..12). */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** "YYYY-MM-DD" from parts (month 1..12). */
export function formatDateParts(year: number, month: number, day: number): string {
  return `${year}-${pad2(month)}-${pad2(day)}`;
}

/** `hhmm` minus `minutes`, wrapping at midnight ("00:15" - 30 -> "23:45"). */
export function minusMinutesHHMM(hhmm: string, minutes: number): string {
  const t = parseHHMM(hhmm);
  if (!t) throw new Error(`Invalid time "${hhmm}", expected HH:MM`);
  const total = (((t.hours * 60 + t.minutes - minutes) % 1440) + 1440) % 1440;
  return `${pad2(Math.floor(total / 60))}:${pad2(total % 60)}`;
}

/**
 * Local wall-clock "HH:MM" of the instant rounded to the nearest 15 minutes
 * (the log wizard's default time). 23:53 rounds to "00:00".
 */
export function roundToQuarterHour(epochMs: number, timeZone: string): string {
  const d = new TZDate(epochMs, timeZone);
  const total = d.getHours() * 60 + d.getMinutes() + d.getSeconds() / 60;
  const rounded = (Math.round(total / 15) * 15) % 1440;
  return `${pad2(Math.floor(rounded / 60))}:${pad2(rounded % 60)}`;
}

/**
 * Orders scene items the way every list shows them: Sunday first and items
 * without a day last, then by start time ("HH:MM" sorts as text), then by title.
 */
export function compareWeeklySlots(
  a: { dayOfWeek?: number | null; startTimeLocal?: string; title: string },
  b: { dayOfWeek?: number | null; startTimeLocal?: string; title: string },
): number {
  return (
    (a.dayOfWeek ?? 7) - (b.dayOfWeek ?? 7) ||
    (a.startTimeLocal ?? "").localeCompare(b.startTimeLocal ?? "") ||
    a.title.localeCompare(b.title)
  );
}
