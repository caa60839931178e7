/**
 * A season in review: a comedian's numbers over a run of whole months, folded
 * from one rollup row per month (sets, minutes, sets per day, sets per mic),
 * so a page for any period reads at most one row per month, never the sets.
 */
import { appError, ErrorCode } from "../errors";
import { daysInMonth } from "./time";

/** Longest period a season page covers, in months (ten years). */
export const MAX_SEASON_MONTHS = 120;
/** Mics kept per month row; sets at further mics count in `otherSets`. */
export const MONTH_MICS_CAP = 100;
/** Earliest and latest year a period may name. */
export const FIRST_SEASON_YEAR = 1970;
export const LAST_SEASON_YEAR = 2200;

const MONTH_PATTERN = /^(\d{4})-(\d{2})$/;

/** One mic's sets in a month: a scene mic by id, or a one-time venue by its name. */
export type MonthMic = { sceneItemId?: string; venueName?: string; sets: number };

/** The stored facts of one comedian-month. `days[i]` is the sets on day i + 1. */
export type MonthFacts = {
  month: string;
  sets: number;
  minutes: number;
  days: number[];
  mics: MonthMic[];
  otherSets: number;
};

/** What one set adds to its month. */
export type SeasonSet = { minutes: number; performanceDate: string; sceneItemId?: string; venueName?: string };

/** Whether `s` is a month written "YYYY-MM" within the years a period may name. */
export function isMonth(s: string): boolean {
  const m = MONTH_PATTERN.exec(s);
  if (m === null) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  return year >= FIRST_SEASON_YEAR && year <= LAST_SEASON_YEAR && month >= 1 && month <= 12;
}

function parts(month: string): { year: number; month: number } {
  const m = MONTH_PATTERN.exec(month);
  if (m === null) throw new Error(`Not a month: ${month}`);
  return { year: Number(m[1]), month: Number(m[2]) };
}

/** `month` moved by `n` months ("2026-12" + 1 = "2027-01"). */
export function addMonths(month: string, n: number): string {
  const p = parts(month);
  const index = p.year * 12 + (p.month - 1) + n;
  return `${String(Math.floor(index / 12)).padStart(4, "0")}-${String((index % 12) + 1).padStart(2, "0")}`;
}

/** Months from `from` to `to`, both included (0 when `to` is before `from`). */
export function monthCount(from: string, to: string): number {
  const a = parts(from);
  const b = parts(to);
  return Math.max(0, (b.year - a.year) * 12 + (b.month - a.month) + 1);
}

/** The first and last dates ("YYYY-MM-DD") of a period of months. */
export function periodDates(period: SeasonPeriod): { firstDate: string; lastDate: string } {
  const end = parts(period.to);
  return {
    firstDate: `${period.from}-01`,
    lastDate: `${period.to}-${String(daysInMonth(end.year, end.month)).padStart(2, "0")}`,
  };
}

export type SeasonPeriod = { from: string; to: string };

/** The message of a period the page cannot show; null when it is fine. */
export function periodProblem(period: SeasonPeriod): string | null {
  if (!isMonth(period.from) || !isMonth(period.to)) return "Choose a start and end month.";
  if (period.to < period.from) return "The end month must not be before the start month.";
  if (monthCount(period.from, period.to) > MAX_SEASON_MONTHS) return "Choose a period of at most 10 years.";
  return null;
}

/** Throws INVALID_INPUT when the period is not one the page can show. */
export function assertPeriod(period: SeasonPeriod): void {
  const problem = periodProblem(period);
  if (problem !== null) throw appError(ErrorCode.INVALID_INPUT, problem);
}

/** A calendar year as a period. */
export function yearPeriod(year: number): SeasonPeriod {
  return { from: `${year}-01`, to: `${year}-12` };
}

export function emptyMonth(month: string): MonthFacts {
  return { month, sets: 0, minutes: 0, days: new Array<number>(31).fill(0), mics: [], otherSets: 0 };
}

function sameMic(a: MonthMic, set: SeasonSet): boolean {
  if (set.sceneItemId !== undefined) return a.sceneItemId === set.sceneItemId;
  return a.sceneItemId === undefined && set.venueName !== undefined && a.venueName === set.venueName;
}

/**
 * The month with one set added (`sign` 1) or taken away (-1). A set with
 * neither mic nor venue name, or at a mic beyond {@link MONTH_MICS_CAP}, counts
 * in `otherSets`. Counts never go below zero.
 */
export function moveSet(row: MonthFacts, set: SeasonSet, sign: 1 | -1): MonthFacts {
  const day = Number(set.performanceDate.slice(8, 10));
  const days = [...row.days];
  while (days.length < 31) days.push(0);
  days[day - 1] = Math.max(0, days[day - 1] + sign);
  let mics = row.mics;
  let otherSets = row.otherSets;
  const named = set.sceneItemId !== undefined || (set.venueName !== undefined && set.venueName !== "");
  const at = named ? row.mics.findIndex((m) => sameMic(m, set)) : -1;
  if (at >= 0) {
    const sets = row.mics[at].sets + sign;
    mics = sets > 0 ? row.mics.map((m, i) => (i === at ? { ...m, sets } : m)) : row.mics.filter((_, i) => i !== at);
  } else if (sign === 1 && named && row.mics.length < MONTH_MICS_CAP) {
    const mic: MonthMic =
      set.sceneItemId !== undefined ? { sceneItemId: set.sceneItemId, sets: 1 } : { venueName: set.venueName, sets: 1 };
    mics = [...row.mics, mic];
  } else {
    otherSets = Math.max(0, otherSets + sign);
  }
  return {
    month: row.month,
    sets: Math.max(0, row.sets + sign),
    minutes: Math.max(0, row.minutes + sign * set.minutes),
    days,
    mics,
    otherSets,
  };
}

/** The key that names one mic across months. */
export function micKey(mic: { sceneItemId?: string; venueName?: string }): string {
  return mic.sceneItemId !== undefined ? `mic:${mic.sceneItemId}` : `venue:${mic.venueName ?? ""}`;
}

export type SeasonTotals = {
  sets: number;
  minutes: number;
  /** The month with the most sets (the earlier on a tie), null without sets. */
  busiestMonth: { month: string; sets: number; minutes: number } | null;
  /** Most days in a row with a set inside the period. */
  longestDayStreak: number;
  /** Every mic got up at, most sets first (then by name key, for a stable order). */
  mics: MonthMic[];
};

/**
 * Folds the month rows of a period (any order; months outside it are ignored)
 * into its totals.
 */
export function foldSeason(rows: readonly MonthFacts[], period: SeasonPeriod): SeasonTotals {
  const byMonth = new Map(rows.filter((r) => r.month >= period.from && r.month <= period.to).map((r) => [r.month, r]));
  let sets = 0;
  let minutes = 0;
  let busiestMonth: SeasonTotals["busiestMonth"] = null;
  let run = 0;
  let longestDayStreak = 0;
  const mics = new Map<string, MonthMic>();
  const months = monthCount(period.from, period.to);
  for (let i = 0; i < months; i++) {
    const month = addMonths(period.from, i);
    const row = byMonth.get(month);
    const p = parts(month);
    const length = daysInMonth(p.year, p.month);
    for (let d = 0; d < length; d++) {
      run = (row?.days[d] ?? 0) > 0 ? run + 1 : 0;
      longestDayStreak = Math.max(longestDayStreak, run);
    }
    if (row === undefined || row.sets === 0) continue;
    sets += row.sets;
    minutes += row.minutes;
    if (busiestMonth === null || row.sets > busiestMonth.sets) {
      busiestMonth = { month, sets: row.sets, minutes: row.minutes };
    }
    for (const mic of row.mics) {
      const key = micKey(mic);
      const seen = mics.get(key);
      mics.set(key, { ...mic, sets: (seen?.sets ?? 0) + mic.sets });
    }
  }
  const sorted = [...mics.values()].sort((a, b) => b.sets - a.sets || micKey(a).localeCompare(micKey(b)));
  return { sets, minutes, busiestMonth, longestDayStreak, mics: sorted };
}

/** What a public season link may show, each chosen by the comedian. */
export const SHARE_FIELDS = [
  "name",
  "sets",
  "minutes",
  "mics",
  "cities",
  "streaks",
  "busiestMonth",
  "topMics",
  "map",
  "bits",
] as const;
export type ShareField = (typeof SHARE_FIELDS)[number];

/** Longest token a season link may carry (ours are 43 characters). */
export const MAX_SHARE_TOKEN_LENGTH = 64;
/** What a season link's token may hold: base64url letters, up to the longest. */
export const SHARE_TOKEN_PATTERN = new RegExp(`^[A-Za-z0-9_-]{1,${MAX_SHARE_TOKEN_LENGTH}}$`);
