import { describe, expect, it } from "vitest";
import { computeStreaks } from "./streaks";

const TODAY = "2026-11-21";

describe("computeStreaks", () => {
  it.each<[string, string[], number, number]>([
    ["no sets", [], 0, 0],
    ["a set today", ["2026-11-21"], 1, 1],
    ["a set yesterday still counts as current", ["2026-11-20"], 1, 1],
    ["a set two days ago breaks the current streak", ["2026-11-19"], 0, 1],
    ["three days in a row ending today", ["2026-11-19", "2026-11-20", "2026-11-21"], 3, 3],
    ["three days in a row ending yesterday", ["2026-11-18", "2026-11-19", "2026-11-20"], 3, 3],
    ["a gap of one day", ["2026-11-17", "2026-11-18", "2026-11-20", "2026-11-21"], 2, 2],
    ["older longest run", ["2026-11-01", "2026-11-02", "2026-11-03", "2026-11-04", "2026-11-20", "2026-11-21"], 2, 4],
    ["old run only", ["2026-10-01", "2026-10-02", "2026-10-03"], 0, 3],
    ["across the month end", ["2026-10-30", "2026-10-31", "2026-11-01"], 0, 3],
    ["duplicates and disorder are tolerated", ["2026-11-21", "2026-11-20", "2026-11-20"], 2, 2],
    ["future dates are ignored", ["2026-11-21", "2026-11-22"], 1, 1],
  ])("%s", (_name, dates, current, longest) => {
    expect(computeStreaks(dates, TODAY)).toEqual({ current, longest });
  });

  it("across a leap day", () => {
    expect(computeStreaks(["2028-02-28", "2028-02-29", "2028-03-01"], "2028-03-01")).toEqual({
      current: 3,
      longest: 3,
    });
    expect(computeStreaks(["2027-02-28", "2027-03-01"], "2027-03-02")).toEqual({ current: 2, longest: 2 });
  });

  it("across the year end", () => {
    expect(computeStreaks(["2026-12-30", "2026-12-31", "2027-01-01"], "2027-01-02")).toEqual({
      current: 3,
      longest: 3,
    });
  });

  it("a 30-day run", () => {
    const dates = Array.from({ length: 30 }, (_, i) => `2026-11-${String(i + 1).padStart(2, "0")}`);
    expect(computeStreaks(dates, "2026-11-30")).toEqual({ current: 30, longest: 30 });
    expect(
      computeStreaks(
        dates.filter((d) => d !== "2026-11-15"),
        "2026-11-30",
      ),
    ).toEqual({ current: 15, longest: 15 });
  });
});
