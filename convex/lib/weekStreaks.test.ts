import { describe, expect, it } from "vitest";
import { goalWeek } from "./weeks";
import {
  emptyWeekStreak,
  freezeMonthOf,
  goalWeekStartOf,
  walkWeeks,
  weekStreakAsOf,
  weekStreakNudge,
  type GoalWeek,
} from "./weekStreaks";

/** The Sunday `n` weeks after 2026-01-04 (a Sunday). */
function sunday(n: number): string {
  return new Date(Date.UTC(2026, 0, 4 + 7 * n)).toISOString().slice(0, 10);
}

function weeks(minutes: Record<number, number>, goal = 15): GoalWeek[] {
  return Object.entries(minutes).map(([n, m]) => ({ weekStart: sunday(Number(n)), minutes: m, goal }));
}

/** The streak on the Wednesday of week `now`, from weeks with sets. */
function at(now: number, list: GoalWeek[]) {
  const thisWeek = sunday(now);
  const first = list.length > 0 ? list.map((w) => w.weekStart).sort()[0] : thisWeek;
  const state = walkWeeks(emptyWeekStreak(first), list, thisWeek);
  const wednesday = new Date(Date.parse(`${thisWeek}T00:00:00Z`) + 3 * 86_400_000).toISOString().slice(0, 10);
  return weekStreakAsOf(
    state,
    list.find((w) => w.weekStart === thisWeek),
    wednesday,
  );
}

describe("goal weeks", () => {
  it.each([
    ["2026-11-22", "2026-11-22"], // a Sunday is its own week's start
    ["2026-11-28", "2026-11-22"], // Saturday closes it
    ["2026-11-29", "2026-11-29"],
    ["2026-03-14", "2026-03-08"], // the US spring-forward week (Sunday March 8)
    ["2026-11-07", "2026-11-01"], // the US fall-back week (Sunday November 1)
  ])("%s is in the week of %s, as the dashboard counts it", (date, start) => {
    expect(goalWeekStartOf(date)).toBe(start);
    expect(goalWeek(date, "America/New_York").startDate).toBe(start);
  });

  it("a week spanning two months uses the freeze of its Saturday's month", () => {
    expect(freezeMonthOf("2026-11-29")).toBe("2026-12");
    expect(freezeMonthOf("2026-11-22")).toBe("2026-11");
  });
});

describe("week streaks", () => {
  it("counts weeks in a row with the goal met, this week once met", () => {
    expect(at(3, weeks({ 0: 15, 1: 20, 2: 30 }))).toMatchObject({ current: 3, longest: 3, thisWeekMet: false });
    expect(at(3, weeks({ 0: 15, 1: 20, 2: 30, 3: 15 }))).toMatchObject({ current: 4, thisWeekMet: true });
  });

  it("a week short of its goal is missed; the week in progress never breaks the streak", () => {
    const v = at(3, weeks({ 0: 15, 1: 15, 2: 15, 3: 5 }));
    expect(v).toMatchObject({ current: 3, thisWeekMet: false, freezeAvailable: true });
  });

  it("each week keeps its own goal", () => {
    const list = [
      { weekStart: sunday(0), minutes: 15, goal: 15 },
      { weekStart: sunday(1), minutes: 20, goal: 30 },
    ];
    // Week 1 missed its 30, the freeze saves it; week 0 counts.
    expect(at(2, list)).toMatchObject({ current: 1, frozenWeek: sunday(1) });
  });

  it("one missed week a month is saved by that month's freeze, used by itself", () => {
    // January 2026: weeks 0..3 (Saturdays Jan 10 .. Jan 31). Week 2 missed.
    const v = at(4, weeks({ 0: 15, 1: 15, 3: 15 }));
    expect(v).toMatchObject({ current: 3, longest: 3, frozenWeek: sunday(2) });
  });

  it("a second missed week in the same month ends the streak", () => {
    const v = at(4, weeks({ 0: 15, 2: 15 }));
    // Week 1 is frozen (January); week 3 (Saturday Jan 31) has no freeze left.
    expect(v).toMatchObject({ current: 0, longest: 2, frozenWeek: null });
  });

  it("at a month boundary each month has its own freeze", () => {
    // Week 3 ends Sat Jan 31 (January's freeze); week 4 ends Sat Feb 7 (February's).
    const v = at(6, weeks({ 0: 15, 1: 15, 2: 15, 5: 15 }));
    expect(v).toMatchObject({ current: 4, frozenWeek: sunday(4) });
    // February's freeze is spent, so this week (also February) shows none left.
    expect(v.freezeAvailable).toBe(false);
  });

  it("a freeze never starts a streak, and there is no streak before the first met week", () => {
    expect(at(2, weeks({ 0: 5 }))).toMatchObject({ current: 0, longest: 0, frozenWeek: null });
    expect(at(0, [])).toMatchObject({ current: 0, longest: 0, freezeAvailable: true });
  });

  it("weeks with no sets since the stored state are missed when read later", () => {
    const list = weeks({ 0: 15, 1: 15 });
    const state = walkWeeks(emptyWeekStreak(sunday(0)), list, sunday(1));
    const open = list[1];
    // Read in week 2: week 1 met (from the open row), streak 2.
    expect(weekStreakAsOf(state, open, sunday(2))).toMatchObject({ current: 2 });
    // Read in week 3: week 2 had no sets and January's freeze saves it.
    expect(weekStreakAsOf(state, open, sunday(3))).toMatchObject({ current: 2, frozenWeek: sunday(2) });
    // Read in week 4: week 3 missed too, in the same month: over.
    expect(weekStreakAsOf(state, open, sunday(4))).toMatchObject({ current: 0, longest: 2 });
  });

  it("a streak running through a DST change counts the same as any other week", () => {
    // Sunday March 8 2026 is the spring-forward week in New York.
    const list: GoalWeek[] = ["2026-02-22", "2026-03-01", "2026-03-08", "2026-03-15"].map((w) => ({
      weekStart: w,
      minutes: 20,
      goal: 15,
    }));
    const state = walkWeeks(emptyWeekStreak("2026-02-22"), list, "2026-03-15");
    expect(weekStreakAsOf(state, list[3], "2026-03-21")).toMatchObject({ current: 4, thisWeekMet: true });
  });
});

describe("the dashboard's nudge", () => {
  const view = { current: 3, longest: 3, thisWeekMet: false, freezeAvailable: true, frozenWeek: null };
  it.each([
    [view, 3, 15, "Keep your streak: 12 minutes to go by Saturday"],
    [view, 14, 15, "Keep your streak: 1 minute to go by Saturday"],
    [{ ...view, current: 0 }, 0, 15, "Start a week streak: 15 minutes to go by Saturday"],
    [{ ...view, thisWeekMet: true }, 15, 15, null],
    [view, 20, 15, null],
  ])("%o with %i of %i minutes: %s", (v, minutes, goal, text) => {
    expect(weekStreakNudge(v, minutes, goal)).toBe(text);
  });
});
