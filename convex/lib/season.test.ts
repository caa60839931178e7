import { describe, expect, it } from "vitest";
import {
  addMonths,
  emptyMonth,
  foldSeason,
  monthCount,
  MONTH_MICS_CAP,
  moveSet,
  periodProblem,
  type MonthFacts,
} from "./season";

function monthWith(month: string, sets: { day: number; minutes: number; mic?: string; venue?: string }[]): MonthFacts {
  return sets.reduce(
    (row, s) =>
      moveSet(
        row,
        {
          minutes: s.minutes,
          performanceDate: `${month}-${String(s.day).padStart(2, "0")}`,
          ...(s.mic ? { sceneItemId: s.mic } : {}),
          ...(s.venue ? { venueName: s.venue } : {}),
        },
        1,
      ),
    emptyMonth(month),
  );
}

describe("month arithmetic", () => {
  it.each([
    ["2026-12", 1, "2027-01"],
    ["2026-01", -1, "2025-12"],
    ["2026-05", 0, "2026-05"],
    ["2026-05", 24, "2028-05"],
  ])("%s + %i = %s", (month, n, expected) => {
    expect(addMonths(month, n)).toBe(expected);
  });

  it.each([
    ["2026-01", "2026-12", 12],
    ["2025-12", "2026-01", 2],
    ["2026-03", "2026-03", 1],
    ["2026-04", "2026-03", 0],
  ])("%s to %s holds %i months", (from, to, n) => {
    expect(monthCount(from, to)).toBe(n);
  });

  it.each([
    [{ from: "2026-01", to: "2026-12" }, null],
    [{ from: "2017-02", to: "2027-01" }, null],
    [{ from: "2017-01", to: "2027-01" }, "Choose a period of at most 10 years."],
    [{ from: "2026-02", to: "2026-01" }, "The end month must not be before the start month."],
    [{ from: "2026-00", to: "2026-01" }, "Choose a start and end month."],
    [{ from: "1969-12", to: "1970-01" }, "Choose a start and end month."],
    [{ from: "2026-01-01", to: "2026-02" }, "Choose a start and end month."],
  ])("period %o: %s", (period, problem) => {
    expect(periodProblem(period)).toBe(problem);
  });
});

describe("one month's row", () => {
  it("counts sets, minutes, days and mics, and a removal undoes an addition", () => {
    const row = monthWith("2026-03", [
      { day: 1, minutes: 5, mic: "a" },
      { day: 1, minutes: 7, venue: "Room" },
      { day: 31, minutes: 3, mic: "a" },
      { day: 2, minutes: 4 },
    ]);
    expect(row).toMatchObject({ sets: 4, minutes: 19, otherSets: 1 });
    expect(row.days.slice(0, 3)).toEqual([2, 1, 0]);
    expect(row.days[30]).toBe(1);
    expect(row.mics).toEqual([
      { sceneItemId: "a", sets: 2 },
      { venueName: "Room", sets: 1 },
    ]);
    const back = moveSet(row, { minutes: 3, performanceDate: "2026-03-31", sceneItemId: "a" }, -1);
    expect(back).toMatchObject({ sets: 3, minutes: 16 });
    expect(back.days[30]).toBe(0);
    expect(back.mics[0]).toEqual({ sceneItemId: "a", sets: 1 });
  });

  it("keeps at most its cap of mics; sets at further mics count without one", () => {
    const sets = Array.from({ length: MONTH_MICS_CAP + 2 }, (_, i) => ({
      day: (i % 28) + 1,
      minutes: 5,
      venue: `Room ${i}`,
    }));
    const row = monthWith("2026-03", sets);
    expect(row.mics).toHaveLength(MONTH_MICS_CAP);
    expect(row).toMatchObject({ sets: MONTH_MICS_CAP + 2, otherSets: 2 });
    // Removing one of the uncounted ones takes it from the rest.
    const back = moveSet(row, { minutes: 5, performanceDate: "2026-03-01", venueName: `Room ${MONTH_MICS_CAP}` }, -1);
    expect(back).toMatchObject({ otherSets: 1 });
    expect(back.mics).toHaveLength(MONTH_MICS_CAP);
  });
});

describe("folding a period", () => {
  it("sums months inside the period only; a streak runs across months and years", () => {
    const rows = [
      monthWith("2025-12", [
        { day: 30, minutes: 5 },
        { day: 31, minutes: 5 },
      ]),
      monthWith("2026-01", [
        { day: 1, minutes: 6 },
        { day: 3, minutes: 6 },
      ]),
      monthWith("2026-03", [{ day: 1, minutes: 10, mic: "x" }]),
    ];
    expect(foldSeason(rows, { from: "2025-12", to: "2026-03" })).toMatchObject({
      sets: 5,
      minutes: 32,
      longestDayStreak: 3,
      busiestMonth: { month: "2025-12", sets: 2, minutes: 10 },
    });
    expect(foldSeason(rows, { from: "2026-01", to: "2026-12" })).toMatchObject({ sets: 3, longestDayStreak: 1 });
    // February 2026 has 28 days: a set on the 28th and March 1st are two days in a row.
    const feb = [monthWith("2026-02", [{ day: 28, minutes: 5 }]), monthWith("2026-03", [{ day: 1, minutes: 5 }])];
    expect(foldSeason(feb, { from: "2026-02", to: "2026-03" }).longestDayStreak).toBe(2);
  });

  it("an empty period has no busiest month and no mics", () => {
    expect(foldSeason([], { from: "2026-01", to: "2026-12" })).toEqual({
      sets: 0,
      minutes: 0,
      busiestMonth: null,
      longestDayStreak: 0,
      mics: [],
    });
  });

  it("merges each mic across months, most sets first", () => {
    const rows = [
      monthWith("2026-01", [
        { day: 1, minutes: 5, mic: "a" },
        { day: 2, minutes: 5, mic: "b" },
      ]),
      monthWith("2026-02", [
        { day: 1, minutes: 5, mic: "b" },
        { day: 2, minutes: 5, venue: "a" },
      ]),
    ];
    expect(foldSeason(rows, { from: "2026-01", to: "2026-02" }).mics).toEqual([
      { sceneItemId: "b", sets: 2 },
      { sceneItemId: "a", sets: 1 },
      { venueName: "a", sets: 1 },
    ]);
  });
});
