import { describe, expect, it } from "vitest";
import {
  lastOccurrence,
  nextOccurrence,
  nthWeekdayOfMonth,
  occurrencesInRange,
  runsOnDate,
  type RecurringItem,
} from "./recurrence";
import { at, fri, iso, LA, NY, SAT_NOON } from "../testing/test.recurrence";
import { localDateString, zonedEpoch } from "./time";

describe("nthWeekdayOfMonth", () => {
  it.each([
    [2026, 11, 1, 1, "2026-11-02"],
    [2026, 11, 4, 4, "2026-11-26"],
    [2026, 11, -1, 4, "2026-11-26"],
    [2026, 11, -1, 1, "2026-11-30"],
    [2028, 2, -1, 2, "2028-02-29"],
    [2027, 2, -1, 0, "2027-02-28"],
    [2027, 2, 4, 1, "2027-02-22"],
    [2026, 12, 1, 2, "2026-12-01"],
  ] as const)("%d-%d nth %d weekday %d -> %s", (y, m, nth, wd, date) => {
    expect(nthWeekdayOfMonth({ year: y, month: m, nth, weekday: wd })).toBe(date);
  });
});

describe("nextOccurrence", () => {
  it.each<[string, RecurringItem, number, string | null]>([
    // weekly
    ["weekly, later this week", fri(), SAT_NOON, "2026-11-27"],
    ["weekly, later today", fri({ dayOfWeek: 6 }), SAT_NOON, "2026-11-21"],
    ["weekly, earlier today has passed", fri({ dayOfWeek: 6, startTimeLocal: "11:00" }), SAT_NOON, "2026-11-28"],
    ["weekly, exactly at the start", fri(), at("2026-11-20"), "2026-11-20"],
    ["weekly, one ms after the start", fri(), at("2026-11-20") + 1, "2026-11-27"],
    ["weekly across the year end", fri({ dayOfWeek: 4 }), at("2026-12-31", "21:00"), "2027-01-07"],
    // bi-weekly
    [
      "bi-weekly from an anchor, passed this week",
      fri({ recurrence: "bi-weekly", anchorDate: "2026-11-06" }),
      SAT_NOON,
      "2026-12-04",
    ],
    [
      "bi-weekly from an anchor, tonight",
      fri({ recurrence: "bi-weekly", anchorDate: "2026-11-06" }),
      at("2026-11-20", "19:00"),
      "2026-11-20",
    ],
    ["bi-weekly, off week", fri({ recurrence: "bi-weekly", anchorDate: "2026-11-06" }), at("2026-11-10"), "2026-11-20"],
    [
      "bi-weekly anchor snaps to the item's day",
      fri({ recurrence: "bi-weekly", anchorDate: "2026-11-03" }),
      SAT_NOON,
      "2026-12-04",
    ],
    [
      "bi-weekly anchored by creation time",
      fri({ recurrence: "bi-weekly", _creationTime: Date.parse("2026-11-06T15:00:00Z") }),
      SAT_NOON,
      "2026-12-04",
    ],
    [
      "bi-weekly without anchor: this week's date if not passed",
      fri({ recurrence: "bi-weekly" }),
      at("2026-11-18", "12:00"),
      "2026-11-20",
    ],
    ["bi-weekly without anchor: +14 days once passed", fri({ recurrence: "bi-weekly" }), SAT_NOON, "2026-12-04"],
    [
      "bi-weekly without anchor, Monday item seen on Saturday",
      fri({ recurrence: "bi-weekly", dayOfWeek: 1 }),
      SAT_NOON,
      "2026-11-30",
    ],
    // monthly with a stored rule
    ["monthly on the 15th", fri({ recurrence: "monthly", monthlyRule: "Monthly on the 15th" }), SAT_NOON, "2026-12-15"],
    [
      "monthly on the 15th, same day",
      fri({ recurrence: "monthly", monthlyRule: "Monthly on the 15th" }),
      at("2026-11-15", "19:00"),
      "2026-11-15",
    ],
    [
      "monthly on the 31st in November",
      fri({ recurrence: "monthly", monthlyRule: "Monthly on the 31st" }),
      SAT_NOON,
      "2026-12-31",
    ],
    [
      "monthly on the 31st skips short months",
      fri({ recurrence: "monthly", monthlyRule: "Monthly on the 31st" }),
      at("2027-01-31", "21:00"),
      "2027-03-31",
    ],
    [
      "monthly on the 29th in a leap year",
      fri({ recurrence: "monthly", monthlyRule: "Monthly on the 29th" }),
      at("2028-02-01"),
      "2028-02-29",
    ],
    [
      "monthly on the 29th in a common year",
      fri({ recurrence: "monthly", monthlyRule: "Monthly on the 29th" }),
      at("2027-02-01"),
      "2027-03-29",
    ],
    [
      "last Friday of every month",
      fri({ recurrence: "monthly", monthlyRule: "last Friday of every month" }),
      SAT_NOON,
      "2026-11-27",
    ],
    [
      "last Friday, after this month's",
      fri({ recurrence: "monthly", monthlyRule: "last Friday of every month" }),
      at("2026-11-27", "21:00"),
      "2026-12-25",
    ],
    [
      "last Tuesday in a leap February",
      fri({ dayOfWeek: 2, recurrence: "monthly", monthlyRule: "last Tuesday of every month" }),
      at("2028-02-01"),
      "2028-02-29",
    ],
    [
      "first Monday of every month",
      fri({ dayOfWeek: 1, recurrence: "monthly", monthlyRule: "first Monday of every month" }),
      SAT_NOON,
      "2026-12-07",
    ],
    // monthly without a rule
    [
      "monthly, nth weekday of the anchor",
      fri({ dayOfWeek: 4, recurrence: "monthly", anchorDate: "2026-11-19" }),
      SAT_NOON,
      "2026-12-17",
    ],
    [
      "monthly, a 5th-weekday anchor means last",
      fri({ recurrence: "monthly", anchorDate: "2026-10-30" }),
      SAT_NOON,
      "2026-11-27",
    ],
    ["monthly, no rule and no anchor: next matching day", fri({ recurrence: "monthly" }), SAT_NOON, "2026-11-27"],
    // one-time
    ["one-time, ahead", fri({ recurrence: "one-time", anchorDate: "2026-11-27" }), SAT_NOON, "2026-11-27"],
    [
      "one-time, exactly at the start",
      fri({ recurrence: "one-time", anchorDate: "2026-11-27" }),
      at("2026-11-27"),
      "2026-11-27",
    ],
    ["one-time, in the past", fri({ recurrence: "one-time", anchorDate: "2026-11-20" }), SAT_NOON, null],
    [
      "one-time, created on Monday for Friday",
      fri({ recurrence: "one-time", anchorDate: "2026-11-23" }),
      SAT_NOON,
      "2026-11-27",
    ],
    [
      "one-time without a day",
      fri({ recurrence: "one-time", dayOfWeek: null, anchorDate: "2026-12-02" }),
      SAT_NOON,
      "2026-12-02",
    ],
    // custom
    [
      "custom every 3 weeks",
      fri({ recurrence: "custom", customRecurrenceDescription: "every 3 weeks", anchorDate: "2026-11-06" }),
      SAT_NOON,
      "2026-11-27",
    ],
    [
      "custom every 3 weeks, after one",
      fri({ recurrence: "custom", customRecurrenceDescription: "every 3 weeks", anchorDate: "2026-11-06" }),
      at("2026-11-28"),
      "2026-12-18",
    ],
    [
      "custom every other Tuesday",
      fri({
        dayOfWeek: 2,
        recurrence: "custom",
        customRecurrenceDescription: "every other Tuesday",
        anchorDate: "2026-11-03",
      }),
      SAT_NOON,
      "2026-12-01",
    ],
    [
      "custom quarterly (third Thursday)",
      fri({ dayOfWeek: 4, recurrence: "custom", customRecurrenceDescription: "quarterly", anchorDate: "2026-11-19" }),
      SAT_NOON,
      "2027-02-18",
    ],
    [
      "custom every 3 months before the first",
      fri({
        dayOfWeek: 4,
        recurrence: "custom",
        customRecurrenceDescription: "every 3 months",
        anchorDate: "2026-11-19",
      }),
      at("2026-11-01"),
      "2026-11-19",
    ],
    [
      "custom last Friday of each month",
      fri({ recurrence: "custom", customRecurrenceDescription: "last Friday of each month" }),
      SAT_NOON,
      "2026-11-27",
    ],
    [
      "custom first Monday across the year end",
      fri({ dayOfWeek: 1, recurrence: "custom", customRecurrenceDescription: "first Monday of each month" }),
      at("2026-12-07", "21:00"),
      "2027-01-04",
    ],
    [
      "custom text that does not parse falls back to weekly",
      fri({ recurrence: "custom", customRecurrenceDescription: "whenever" }),
      SAT_NOON,
      "2026-11-27",
    ],
    // incomplete
    ["no start time", fri({ startTimeLocal: undefined }), SAT_NOON, null],
    ["no day and no anchor", fri({ dayOfWeek: null }), SAT_NOON, null],
  ])("%s", (_name, item, from, date) => {
    const next = nextOccurrence(item, from);
    if (date === null) {
      expect(next).toBeNull();
    } else {
      expect(next).not.toBeNull();
      expect(localDateString(next as number, item.timeZone ?? NY)).toBe(date);
      expect(next).toBe(zonedEpoch(date, item.startTimeLocal as string, item.timeZone ?? NY));
      expect(next as number).toBeGreaterThanOrEqual(from);
    }
  });

  it.each([
    [
      "weekly Sunday 20:00 after the fall-back",
      fri({ dayOfWeek: 0 }),
      at("2026-10-31", "21:00"),
      "2026-11-02T01:00:00.000Z",
    ],
    [
      "weekly Sunday 20:00 after the spring-forward",
      fri({ dayOfWeek: 0 }),
      at("2026-03-07"),
      "2026-03-09T00:00:00.000Z",
    ],
    [
      "a 02:30 mic on the spring-forward Sunday starts at 03:30 EDT",
      fri({ dayOfWeek: 0, startTimeLocal: "02:30" }),
      at("2026-03-07"),
      "2026-03-08T07:30:00.000Z",
    ],
    [
      "second Sunday of March (DST day)",
      fri({ dayOfWeek: 0, recurrence: "monthly", monthlyRule: "second Sunday of every month" }),
      at("2026-03-01"),
      "2026-03-09T00:00:00.000Z",
    ],
    ["Los Angeles item keeps its own wall clock", fri({ timeZone: LA }), SAT_NOON, "2026-11-28T04:00:00.000Z"],
    ["HH:MM:SS start time", fri({ startTimeLocal: "20:00:00" }), SAT_NOON, "2026-11-28T01:00:00.000Z"],
  ])("%s", (_name, item, from, expected) => {
    expect(iso(nextOccurrence(item, from))).toBe(expected);
  });
});

describe("occurrencesInRange", () => {
  const dates = (item: RecurringItem, from: number, to: number) =>
    occurrencesInRange(item, from, to).map((ms) => localDateString(ms, item.timeZone ?? NY));

  it.each<[string, RecurringItem, string, string, string[]]>([
    ["weekly in one schedule week", fri(), "2026-11-16", "2026-11-22", ["2026-11-20"]],
    [
      "weekly over November",
      fri(),
      "2026-11-01",
      "2026-11-30",
      ["2026-11-06", "2026-11-13", "2026-11-20", "2026-11-27"],
    ],
    [
      "bi-weekly over November",
      fri({ recurrence: "bi-weekly", anchorDate: "2026-11-06" }),
      "2026-11-01",
      "2026-11-30",
      ["2026-11-06", "2026-11-20"],
    ],
    [
      "bi-weekly, the off week is empty",
      fri({ recurrence: "bi-weekly", anchorDate: "2026-11-06" }),
      "2026-11-09",
      "2026-11-15",
      [],
    ],
    [
      "last Friday over three months",
      fri({ recurrence: "monthly", monthlyRule: "last Friday of every month" }),
      "2026-11-01",
      "2027-01-31",
      ["2026-11-27", "2026-12-25", "2027-01-29"],
    ],
    [
      "the 31st over four months",
      fri({ recurrence: "monthly", monthlyRule: "Monthly on the 31st" }),
      "2026-11-01",
      "2027-02-28",
      ["2026-12-31", "2027-01-31"],
    ],
    [
      "quarterly over a year",
      fri({ dayOfWeek: 4, recurrence: "custom", customRecurrenceDescription: "quarterly", anchorDate: "2026-11-19" }),
      "2026-11-01",
      "2027-10-31",
      ["2026-11-19", "2027-02-18", "2027-05-20", "2027-08-19"],
    ],
    [
      "one-time outside the range",
      fri({ recurrence: "one-time", anchorDate: "2026-11-27" }),
      "2026-11-16",
      "2026-11-22",
      [],
    ],
    [
      "one-time inside the range",
      fri({ recurrence: "one-time", anchorDate: "2026-11-27" }),
      "2026-11-23",
      "2026-11-29",
      ["2026-11-27"],
    ],
  ])("%s", (_name, item, from, to, expected) => {
    expect(dates(item, at(from, "00:00"), at(to, "23:59") + 59_999)).toEqual(expected);
  });

  it("includes both edges and is DST-correct", () => {
    const start = at("2026-11-20");
    expect(occurrencesInRange(fri(), start, start)).toEqual([start]);
    expect(occurrencesInRange(fri(), start + 1, start + 1000)).toEqual([]);
    expect(
      occurrencesInRange(fri({ dayOfWeek: 0 }), at("2026-10-25", "00:00"), at("2026-11-08", "23:59")).map(iso),
    ).toEqual(["2026-10-26T00:00:00.000Z", "2026-11-02T01:00:00.000Z", "2026-11-09T01:00:00.000Z"]);
    expect(occurrencesInRange(fri(), at("2026-11-30"), at("2026-11-01"))).toEqual([]);
  });
});

describe("runsOnDate", () => {
  it.each<[string, RecurringItem, string, boolean]>([
    ["weekly on its day", fri(), "2026-11-20", true],
    ["weekly on another day", fri(), "2026-11-21", false],
    ["bi-weekly on week", fri({ recurrence: "bi-weekly", anchorDate: "2026-11-06" }), "2026-11-20", true],
    ["bi-weekly off week", fri({ recurrence: "bi-weekly", anchorDate: "2026-11-06" }), "2026-11-13", false],
    ["last Friday, yes", fri({ recurrence: "monthly", monthlyRule: "last Friday of every month" }), "2026-11-27", true],
    [
      "last Friday, an earlier Friday",
      fri({ recurrence: "monthly", monthlyRule: "last Friday of every month" }),
      "2026-11-20",
      false,
    ],
    ["one-time on its date", fri({ recurrence: "one-time", anchorDate: "2026-11-27" }), "2026-11-27", true],
    ["one-time a week later", fri({ recurrence: "one-time", anchorDate: "2026-11-27" }), "2026-12-04", false],
    ["no start time", fri({ startTimeLocal: undefined }), "2026-11-20", false],
  ])("%s", (_name, item, date, expected) => {
    expect(runsOnDate(item, date)).toBe(expected);
  });
});

describe("lastOccurrence", () => {
  const tuesdays: RecurringItem = { dayOfWeek: 2, startTimeLocal: "20:00", timeZone: NY, recurrence: "weekly" };
  it("is the latest start at or before the moment: last night, or a week ago before tonight's start", () => {
    const wednesdayNoon = zonedEpoch("2026-11-25", "12:00", NY);
    expect(lastOccurrence(tuesdays, wednesdayNoon)).toBe(zonedEpoch("2026-11-24", "20:00", NY));
    const tuesdayEvening = zonedEpoch("2026-11-24", "19:00", NY);
    expect(lastOccurrence(tuesdays, tuesdayEvening)).toBe(zonedEpoch("2026-11-17", "20:00", NY));
    expect(lastOccurrence(tuesdays, zonedEpoch("2026-11-24", "20:00", NY))).toBe(zonedEpoch("2026-11-24", "20:00", NY));
  });

  it("is null without a start time or with no start in the last two months", () => {
    expect(lastOccurrence({ ...tuesdays, startTimeLocal: undefined }, Date.now())).toBeNull();
    const once: RecurringItem = {
      startTimeLocal: "20:00",
      timeZone: NY,
      recurrence: "one-time",
      anchorDate: "2027-01-01",
    };
    expect(lastOccurrence(once, zonedEpoch("2026-11-25", "12:00", NY))).toBeNull();
  });
});
