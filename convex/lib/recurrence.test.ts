import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import {
  calendarRecurrence,
  INVALID_CUSTOM_RECURRENCE,
  monthlyRuleText,
  nextOccurrence,
  nthWeekdayOfMonth,
  occurrencesInRange,
  ordinal,
  parseCustomRecurrence,
  parseMonthlyRule,
  recurrenceSummary,
  runsOnDate,
  type RecurringItem,
} from "./recurrence";
import { addDaysToDate, localDateString, zonedEpoch } from "./time";

const NY = "America/New_York";
const LA = "America/Los_Angeles";
const at = (date: string, time = "20:00", tz = NY) => zonedEpoch(date, time, tz);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

// Calendar notes: 2026-11-21 is a Saturday; Fridays in Nov 2026 are 6, 13, 20, 27;
// Dec 2026 starts on a Tuesday; 2028-02-29 is a Tuesday.
const SAT_NOON = at("2026-11-21", "12:00");
const fri = (extra: Partial<RecurringItem> = {}): RecurringItem => ({
  dayOfWeek: 5,
  startTimeLocal: "20:00",
  timeZone: NY,
  recurrence: "weekly",
  ...extra,
});

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

describe("calendarRecurrence (.ics export)", () => {
  it.each<[RecurringItem, string | null, string]>([
    [fri(), "FREQ=WEEKLY;BYDAY=FR", "2026-11-27"],
    [fri({ recurrence: "bi-weekly", anchorDate: "2026-11-06" }), "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR", "2026-12-04"],
    [fri({ recurrence: "monthly", monthlyRule: "Monthly on the 31st" }), "FREQ=MONTHLY;BYMONTHDAY=31", "2026-12-31"],
    [
      fri({ recurrence: "monthly", monthlyRule: "last Friday of every month" }),
      "FREQ=MONTHLY;BYDAY=-1FR",
      "2026-11-27",
    ],
    [
      fri({ dayOfWeek: 4, recurrence: "custom", customRecurrenceDescription: "quarterly", anchorDate: "2026-11-19" }),
      "FREQ=MONTHLY;INTERVAL=3;BYDAY=3TH",
      "2027-02-18",
    ],
    [
      fri({ recurrence: "custom", customRecurrenceDescription: "every 3 weeks", anchorDate: "2026-11-06" }),
      "FREQ=WEEKLY;INTERVAL=3;BYDAY=FR",
      "2026-11-27",
    ],
    [fri({ recurrence: "one-time", anchorDate: "2026-11-27" }), null, "2026-11-27"],
  ])("%o -> %s from %s", (item, rrule, firstDate) => {
    const cal = calendarRecurrence(item, SAT_NOON);
    expect(cal).not.toBeNull();
    expect(cal?.rrule).toBe(rrule);
    expect(cal?.timeZone).toBe(NY);
    expect(localDateString(cal?.startMs as number, NY)).toBe(firstDate);
  });

  it("is null when the item never runs again", () => {
    expect(calendarRecurrence(fri({ recurrence: "one-time", anchorDate: "2026-11-20" }), SAT_NOON)).toBeNull();
  });

  it.each<[string, RecurringItem]>([
    ["weekly", fri()],
    ["bi-weekly", fri({ recurrence: "bi-weekly", anchorDate: "2026-11-06" })],
    ["monthly on the 31st", fri({ recurrence: "monthly", monthlyRule: "Monthly on the 31st" })],
    ["monthly on the 29th", fri({ recurrence: "monthly", monthlyRule: "Monthly on the 29th" })],
    ["last Tuesday", fri({ dayOfWeek: 2, recurrence: "monthly", monthlyRule: "last Tuesday of every month" })],
    ["fourth Thursday", fri({ dayOfWeek: 4, recurrence: "monthly", monthlyRule: "fourth Thursday of every month" })],
    [
      "quarterly",
      fri({ dayOfWeek: 4, recurrence: "custom", customRecurrenceDescription: "quarterly", anchorDate: "2026-11-19" }),
    ],
    [
      "every other month, last Friday",
      fri({ recurrence: "custom", customRecurrenceDescription: "every other month", anchorDate: "2026-10-30" }),
    ],
    [
      "every 5 weeks",
      fri({ recurrence: "custom", customRecurrenceDescription: "every 5 weeks", anchorDate: "2026-10-02" }),
    ],
  ])("an independent RRULE expansion (ical.js) gives the same dates: %s", (_name, item) => {
    const cal = calendarRecurrence(item, SAT_NOON);
    if (cal === null || cal.rrule === null) throw new Error("expected a repeating rule");
    const first = localDateString(cal.startMs, NY);
    const [year, month, day] = first.split("-").map(Number);
    const iterator = ICAL.Recur.fromString(cal.rrule).iterator(
      ICAL.Time.fromData({ year, month, day, hour: 20, minute: 0, second: 0, isDate: false }),
    );
    const until = "2029-12-31";
    const expected: string[] = [];
    for (let t = iterator.next(); t && t.toString().slice(0, 10) <= until; t = iterator.next()) {
      expected.push(t.toString().slice(0, 10));
    }
    const ours = occurrencesInRange(item, cal.startMs, at(until, "23:59")).map((ms) => localDateString(ms, NY));
    expect(expected.length).toBeGreaterThan(8);
    expect(ours).toEqual(expected);
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
