// Goal weeks (Sunday to Saturday) in a row with the goal met; one freeze a month saves a missed week
// (the month of its Saturday), a second miss that month ends the streak; the week in progress never breaks it.
// Weeks are named by their Sunday's date ("YYYY-MM-DD"): no clock time, so a DST week is like any other.
import { v } from "convex/values";
import { addDaysToDate, dayOfWeekOfDate, parseDateString } from "./time";

/** The badges of week streaks, in weeks. */
export const WEEK_STREAK_MILESTONES = [4, 12, 52] as const;

/** Most weeks walked in one fold (20 years): a cap on work, far above any history. */
export const MAX_WEEKS_WALKED = 1_100;

/** The Sunday of the goal week holding `date` ("YYYY-MM-DD"). */
export function goalWeekStartOf(date: string): string {
  parseDateString(date);
  return addDaysToDate(date, -dayOfWeekOfDate(date));
}

/** The month ("YYYY-MM") whose freeze a week uses: the month of its Saturday, the goal's deadline. */
export function freezeMonthOf(weekStart: string): string {
  return addDaysToDate(weekStart, 6).slice(0, 7);
}

/** One goal week's minutes and the goal it had. */
export type GoalWeek = { weekStart: string; minutes: number; goal: number };

/** Where a walk over complete weeks stands. */
export type WeekStreakState = {
  /** The first week not walked yet. */
  nextWeek: string;
  /** Weeks met in the running streak (0 when there is none). */
  run: number;
  /** The longest run seen. */
  longest: number;
  /** Months whose freeze is used (only the latest two are kept). */
  freezeMonths: string[];
  /** The latest week a freeze saved, if any. */
  lastFrozenWeek?: string;
};

/** The state as stored on the comedian's stats row. */
export const weekStreakStateValidator = v.object({
  nextWeek: v.string(),
  run: v.number(),
  longest: v.number(),
  freezeMonths: v.array(v.string()),
  lastFrozenWeek: v.optional(v.string()),
});

export function emptyWeekStreak(firstWeek: string): WeekStreakState {
  return { nextWeek: firstWeek, run: 0, longest: 0, freezeMonths: [] };
}

function met(week: GoalWeek | undefined): boolean {
  return week !== undefined && week.goal > 0 && week.minutes >= week.goal;
}

/** Walks one complete week (met, or missed when `week` is undefined or short of its goal). */
function step(state: WeekStreakState, weekStart: string, week: GoalWeek | undefined): WeekStreakState {
  const nextWeek = addDaysToDate(weekStart, 7);
  if (met(week)) {
    const run = state.run + 1;
    return { ...state, nextWeek, run, longest: Math.max(state.longest, run) };
  }
  const month = freezeMonthOf(weekStart);
  if (state.run > 0 && !state.freezeMonths.includes(month)) {
    return { ...state, nextWeek, freezeMonths: [...state.freezeMonths, month].slice(-2), lastFrozenWeek: weekStart };
  }
  return { ...state, nextWeek, run: 0 };
}

/**
 * Walks the complete weeks from `state.nextWeek` up to (not including)
 * `untilWeek`. `weeks` lists the weeks that had sets, in any order; a week
 * not listed was missed. Stops walking early once nothing can change (no
 * streak running and no listed week left ahead).
 */
export function walkWeeks(state: WeekStreakState, weeks: readonly GoalWeek[], untilWeek: string): WeekStreakState {
  const byStart = new Map(weeks.map((w) => [w.weekStart, w]));
  const lastListed = weeks.reduce((max, w) => (w.weekStart > max ? w.weekStart : max), "");
  let s = state;
  for (let i = 0; i < MAX_WEEKS_WALKED && s.nextWeek < untilWeek; i++) {
    if (s.run === 0 && s.nextWeek > lastListed) return { ...s, nextWeek: untilWeek };
    s = step(s, s.nextWeek, byStart.get(s.nextWeek));
  }
  return s.nextWeek < untilWeek ? { ...s, nextWeek: untilWeek, run: 0 } : s;
}

/** What the dashboard shows of the week streak. */
export type WeekStreakView = {
  /** Weeks in the streak, this week included once its goal is met. */
  current: number;
  longest: number;
  /** Whether this week's goal is met. */
  thisWeekMet: boolean;
  /** Whether this month's freeze is still there to save a missed week. */
  freezeAvailable: boolean;
  /** The latest week a freeze saved (its Sunday), if it is part of the running streak. */
  frozenWeek: string | null;
};

/**
 * The streak as of the week holding `today`, from the state walked up to
 * `state.nextWeek` and that week's own minutes and goal (`openWeek`, the week
 * in progress when the state was stored). Weeks after it had no sets.
 */
export function weekStreakAsOf(state: WeekStreakState, openWeek: GoalWeek | undefined, today: string): WeekStreakView {
  const thisWeek = goalWeekStartOf(today);
  let s = state;
  let thisWeekRow = openWeek !== undefined && openWeek.weekStart === thisWeek ? openWeek : undefined;
  if (thisWeek > s.nextWeek) {
    s = walkWeeks(s, openWeek ? [openWeek] : [], thisWeek);
    thisWeekRow = undefined;
  }
  const thisWeekMet = met(thisWeekRow);
  const current = s.run + (thisWeekMet ? 1 : 0);
  return {
    current,
    longest: Math.max(s.longest, current),
    thisWeekMet,
    freezeAvailable: !s.freezeMonths.includes(freezeMonthOf(thisWeek)),
    frozenWeek: s.run > 0 && s.lastFrozenWeek !== undefined ? s.lastFrozenWeek : null,
  };
}

/**
 * The dashboard's nudge under the weekly goal, or null once the goal is met:
 * "Keep your streak: 12 minutes to go by Saturday" while a streak runs,
 * "Start a week streak: ..." otherwise.
 */
export function weekStreakNudge(view: WeekStreakView, weekMinutes: number, goal: number): string | null {
  const toGo = Math.max(0, goal - weekMinutes);
  if (view.thisWeekMet || toGo === 0) return null;
  const minutes = `${toGo} ${toGo === 1 ? "minute" : "minutes"} to go by Saturday`;
  return view.current > 0 ? `Keep your streak: ${minutes}` : `Start a week streak: ${minutes}`;
}
