import { describe, expect, test } from "vitest";
import { initials, weeklySlotText } from "./format";
import { formatCompact } from "./formatCompact";

describe("formatCompact", () => {
  test.each([
    [0, "0"],
    [-5, "0"],
    [Number.NaN, "0"],
    [7, "7"],
    [7.9, "7"],
    [999, "999"],
    [1000, "1k"],
    [1049, "1k"],
    [1234, "1.2k"],
    [1299, "1.2k"],
    [2500, "2.5k"],
    [15_300, "15.3k"],
    [123_456, "123k"],
    [999_999, "999k"],
    [1_000_000, "1M"],
    [1_290_000, "1.2M"],
    [3_000_000_000, "3B"],
  ])("%d → %s", (value, expected) => {
    expect(formatCompact(value)).toBe(expected);
  });
});

describe("weeklySlotText", () => {
  test.each([
    [{ dayOfWeek: 1, startTimeLocal: "19:00" }, "Mondays at 7:00 PM"],
    [{ dayOfWeek: 0, startTimeLocal: "21:30" }, "Sundays at 9:30 PM"],
    [{ dayOfWeek: 5 }, "Fridays"],
    [{ dayOfWeek: null, startTimeLocal: "20:00" }, "8:00 PM"],
    [{ startTimeLocal: "" }, ""],
    [{}, ""],
  ])("%o → %s", (item, expected) => {
    expect(weeklySlotText(item)).toBe(expected);
  });
});

describe("initials", () => {
  test.each([
    ["Jane Q. Comic", "JQ"],
    ['Tom "Tiny" Lee', "TT"],
    ['"T" Bone', "TB"],
    ["  ada  ", "A"],
    ['" "', "?"],
    ["", "?"],
    [undefined, "?"],
  ])("%j → %j", (name, expected) => {
    expect(initials(name)).toBe(expected);
  });
});
