import { describe, expect, test } from "vitest";
import { numbersLineParts, numbersLineText, type NumbersLine } from "./micNumbersLine";

describe("a mic's numbers in short", () => {
  const cases: Array<[string, NumbersLine | undefined, string]> = [
    ["not enough nights yet: nothing at all", undefined, ""],
    ["a night that always runs and no other figure", { nights: 5, held: 5 }, "Runs 5 of 5 nights"],
    [
      "fills, then the real start",
      { nights: 10, held: 10, fillRate: 90, fillMinutes: 20, lateMinutes: 15, waitMinutes: 70 },
      "Fills in ~20 min · first set ~15 min late",
    ],
    [
      "seldom fills: the start, then the nights it was cancelled",
      { nights: 10, held: 9, fillRate: 30, fillMinutes: 20, lateMinutes: 15 },
      "First set ~15 min late · runs 9 of 10 nights",
    ],
    [
      "a lottery: its odds come first; a start within 5 minutes is on time",
      { nights: 8, held: 8, lotteryChance: 35, lateMinutes: 3 },
      "35% drawn in the lottery · starts on time",
    ],
    [
      "cancellations say more than the wait",
      { nights: 10, held: 7, waitMinutes: 95 },
      "Runs 7 of 10 nights · ~1 h 35 min wait for a set",
    ],
    ["the wait over hours", { nights: 6, held: 6, waitMinutes: 120 }, "~2 h wait for a set · runs 6 of 6 nights"],
  ];
  test.each(cases)("%s", (_name, line, text) => {
    expect(numbersLineText(line)).toBe(text);
    expect(numbersLineParts(line).length).toBeLessThanOrEqual(2);
  });
});
