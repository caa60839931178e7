import { describe, expect, it } from "vitest";
import type { RecurringItem } from "./recurrence";
import {
  INVALID_CUSTOM_RECURRENCE,
  monthlyRuleText,
  ordinal,
  parseCustomRecurrence,
  parseMonthlyRule,
  recurrenceSummary,
} from "./recurrenceText";
import { fri } from "../testing/test.recurrence";
import { addDaysToDate } from "./time";

describe("parseCustomRecurrence", () => {
  it.each([
    ["every 2 weeks", { kind: "every_n_weeks", n: 2 }],
    ["Every 3 Weeks", { kind: "every_n_weeks", n: 3 }],
    ["every 1 week", { kind: "every_n_weeks", n: 1 }],
    ["every week", { kind: "every_n_weeks", n: 1 }],
    ["every other week", { kind: "every_n_weeks", n: 2 }],
    ["every two weeks", { kind: "every_n_weeks", n: 2 }],
    ["every other Tuesday", { kind: "every_n_weeks", n: 2, weekday: 2 }],
    ["quarterly", { kind: "every_n_months", n: 3 }],
    ["Quarterly.", { kind: "every_n_months", n: 3 }],
    ["every quarter", { kind: "every_n_months", n: 3 }],
    ["quarter", { kind: "every_n_months", n: 3 }],
    ["every 3 months", { kind: "every_n_months", n: 3 }],
    ["every 6 months", { kind: "every_n_months", n: 6 }],
    ["every other month", { kind: "every_n_months", n: 2 }],
    ["first Monday of each month", { kind: "nth_weekday", nth: 1, weekday: 1 }],
    ["first Monday of month", { kind: "nth_weekday", nth: 1, weekday: 1 }],
    ["last Friday of every month", { kind: "nth_weekday", nth: -1, weekday: 5 }],
    ["Third thursday of the month", { kind: "nth_weekday", nth: 3, weekday: 4 }],
    ["second tue of month", { kind: "nth_weekday", nth: 2, weekday: 2 }],
    ["  FOURTH   Saturday of each month. ", { kind: "nth_weekday", nth: 4, weekday: 6 }],
    ["2nd Sundays of each month", { kind: "nth_weekday", nth: 2, weekday: 0 }],
  ])("%j", (text, expected) => {
    expect(parseCustomRecurrence(text)).toEqual(expected);
  });

  it.each([
    "",
    "sometimes",
    "every 0 weeks",
    "every few weeks",
    "fifth Monday of each month",
    "first blursday of each month",
    "every blue moon",
    "mondays and thursdays",
  ])("rejects %j", (text) => {
    expect(parseCustomRecurrence(text)).toBeNull();
  });

  it("has the spec's error text", () => {
    expect(INVALID_CUSTOM_RECURRENCE).toEqual({
      title: "Invalid custom recurrence",
      description: "Please use patterns like 'every 2 weeks', 'quarterly', or 'first Monday of each month'",
    });
  });
});

describe("monthlyRuleText", () => {
  it.each([
    ["2026-11-15", "Monthly on the 15th"],
    ["2026-11-01", "Monthly on the 1st"],
    ["2026-11-02", "Monthly on the 2nd"],
    ["2026-11-03", "Monthly on the 3rd"],
    ["2026-11-11", "Monthly on the 11th"],
    ["2026-11-12", "Monthly on the 12th"],
    ["2026-11-13", "Monthly on the 13th"],
    ["2026-11-21", "Monthly on the 21st"],
    ["2026-11-22", "Monthly on the 22nd"],
    ["2026-11-23", "Monthly on the 23rd"],
    ["2026-12-31", "Monthly on the 31st"],
  ])("date mode %s -> %s", (date, text) => {
    expect(monthlyRuleText(date, "date")).toBe(text);
  });

  it.each([
    ["2026-11-02", "first Monday of every month"],
    ["2026-11-10", "second Tuesday of every month"],
    ["2026-11-19", "third Thursday of every month"],
    // The 4th Thursday is also the last in Nov 2026; position wins while it is at most the 4th.
    ["2026-11-26", "fourth Thursday of every month"],
    ["2026-11-30", "last Monday of every month"],
    ["2028-02-29", "last Tuesday of every month"],
    ["2026-12-31", "last Thursday of every month"],
  ])("weekday mode %s -> %s", (date, text) => {
    expect(monthlyRuleText(date, "weekday")).toBe(text);
  });

  it("never says fifth, and every text reads back as a rule", () => {
    for (let d = "2026-01-01"; d <= "2028-12-31"; d = addDaysToDate(d, 1)) {
      const weekday = monthlyRuleText(d, "weekday");
      expect(weekday).not.toMatch(/fifth/);
      expect(parseMonthlyRule(weekday)).not.toBeNull();
      expect(parseMonthlyRule(monthlyRuleText(d, "date"))).not.toBeNull();
    }
  });

  it("ordinal", () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map(ordinal)).toEqual([
      "1st",
      "2nd",
      "3rd",
      "4th",
      "11th",
      "12th",
      "13th",
      "21st",
      "22nd",
      "23rd",
      "101st",
      "111th",
    ]);
  });
});

describe("recurrenceSummary", () => {
  it.each<[RecurringItem, string]>([
    [fri(), "Every Friday"],
    [fri({ recurrence: "bi-weekly" }), "Every other Friday"],
    [fri({ recurrence: "monthly", monthlyRule: "last Friday of every month" }), "Last Friday of every month"],
    [fri({ recurrence: "monthly", monthlyRule: "Monthly on the 15th" }), "Monthly on the 15th"],
    [fri({ recurrence: "one-time" }), "One-time"],
    [fri({ recurrence: "custom", customRecurrenceDescription: "every 3 weeks" }), "Every 3 weeks"],
  ])("%o -> %s", (item, text) => {
    expect(recurrenceSummary(item)).toBe(text);
  });
});
