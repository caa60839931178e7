import { describe, expect, it } from "vitest";
import {
  compareWeeklySlots,
  DAY_NAMES,
  DAY_SHORT,
  DEFAULT_TIME_ZONE,
  QUARTER_HOUR_SLOTS,
  addDaysToDate,
  dayOfWeekOfDate,
  daysBetweenDates,
  daysInMonth,
  formatDuration,
  formatTime12h,
  isPlacelessTimeZone,
  isValidTimeZone,
  localDateString,
  localDayOfWeek,
  minusMinutesHHMM,
  parseHHMM,
  roundToQuarterHour,
  zonedEpoch,
} from "./time";

const NY = "America/New_York";
const LA = "America/Los_Angeles";

describe("parseHHMM", () => {
  it.each([
    ["19:30", { hours: 19, minutes: 30 }],
    ["00:05", { hours: 0, minutes: 5 }],
    ["20:00:00", { hours: 20, minutes: 0 }],
    ["7:15", { hours: 7, minutes: 15 }],
    ["23:59:59", { hours: 23, minutes: 59 }],
  ])("%s parses", (s, expected) => {
    expect(parseHHMM(s)).toEqual(expected);
  });

  it.each(["24:00", "12:60", "noon", "", "12", "12:5", "12:00:60"])("%j is rejected", (s) => {
    expect(parseHHMM(s)).toBeNull();
  });
});

describe("formatTime12h", () => {
  it.each([
    ["19:30", "7:30 PM"],
    ["00:05", "12:05 AM"],
    ["12:00", "12:00 PM"],
    ["11:59", "11:59 AM"],
    ["20:00:00", "8:00 PM"],
    ["09:00", "9:00 AM"],
  ])("%s -> %s", (input, out) => {
    expect(formatTime12h(input)).toBe(out);
  });
});

describe("formatDuration", () => {
  it.each([
    [0, "0min"],
    [5, "5min"],
    [59, "59min"],
    [60, "1h"],
    [120, "2h"],
    [95, "1h 35min"],
    [61, "1h 1min"],
    [7.6, "8min"],
  ])("%d -> %s", (m, out) => {
    expect(formatDuration(m)).toBe(out);
  });
});

describe("local dates", () => {
  it.each([
    // 03:59 UTC is still the previous evening in New York.
    ["2026-11-21T03:59:00Z", NY, "2026-11-20", 5],
    ["2026-11-21T05:00:00Z", NY, "2026-11-21", 6],
    ["2026-11-21T07:59:00Z", LA, "2026-11-20", 5],
    ["2027-01-01T04:59:59Z", NY, "2026-12-31", 4],
    ["2027-01-01T05:00:00Z", NY, "2027-01-01", 5],
    ["2026-11-21T12:00:00Z", "Asia/Tokyo", "2026-11-21", 6],
  ])("%s in %s is %s (day %d)", (iso, tz, date, dow) => {
    const ms = Date.parse(iso);
    expect(localDateString(ms, tz)).toBe(date);
    expect(localDayOfWeek(ms, tz)).toBe(dow);
  });

  it("defaults and names", () => {
    expect(DEFAULT_TIME_ZONE).toBe("America/New_York");
    expect(DAY_NAMES[0]).toBe("Sunday");
    expect(DAY_NAMES[6]).toBe("Saturday");
    expect(DAY_SHORT).toEqual(["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]);
  });
});

describe("zonedEpoch", () => {
  it.each([
    ["2026-11-21", "19:30", NY, "2026-11-22T00:30:00.000Z"],
    ["2026-07-01", "19:30", NY, "2026-07-01T23:30:00.000Z"],
    ["2026-11-21", "19:30", LA, "2026-11-22T03:30:00.000Z"],
    // Spring forward in New York: 02:00 jumps to 03:00.
    ["2026-03-08", "01:30", NY, "2026-03-08T06:30:00.000Z"],
    ["2026-03-08", "02:30", NY, "2026-03-08T07:30:00.000Z"],
    ["2026-03-08", "03:00", NY, "2026-03-08T07:00:00.000Z"],
    ["2026-03-08", "20:00", NY, "2026-03-09T00:00:00.000Z"],
    // Fall back: 01:30 happens twice; the first (EDT) is taken.
    ["2026-11-01", "01:30", NY, "2026-11-01T05:30:00.000Z"],
    ["2026-11-01", "02:00", NY, "2026-11-01T07:00:00.000Z"],
    ["2026-11-01", "20:00", NY, "2026-11-02T01:00:00.000Z"],
    ["2026-03-08", "20:00", LA, "2026-03-09T03:00:00.000Z"],
  ])("%s %s in %s is %s", (date, hhmm, tz, iso) => {
    expect(new Date(zonedEpoch(date, hhmm, tz)).toISOString()).toBe(iso);
  });

  it("accepts HH:MM:SS and round-trips through localDateString", () => {
    const ms = zonedEpoch("2026-12-31", "23:45:00", NY);
    expect(localDateString(ms, NY)).toBe("2026-12-31");
    expect(() => zonedEpoch("2026-13-40x", "20:00", NY)).toThrow();
    expect(() => zonedEpoch("2026-12-31", "25:00", NY)).toThrow();
  });
});

describe("calendar arithmetic", () => {
  it.each([
    ["2026-12-31", 1, "2027-01-01"],
    ["2028-02-28", 1, "2028-02-29"],
    ["2027-02-28", 1, "2027-03-01"],
    ["2026-03-01", -1, "2026-02-28"],
    ["2026-11-21", 14, "2026-12-05"],
  ])("%s + %d = %s", (d, n, out) => {
    expect(addDaysToDate(d, n)).toBe(out);
    expect(daysBetweenDates(d, out)).toBe(n);
  });

  it("weekday and month length", () => {
    expect(dayOfWeekOfDate("2026-11-21")).toBe(6);
    expect(dayOfWeekOfDate("2028-02-29")).toBe(2);
    expect(daysInMonth(2028, 2)).toBe(29);
    expect(daysInMonth(2026, 2)).toBe(28);
    expect(daysInMonth(2026, 12)).toBe(31);
  });
});

describe("minusMinutesHHMM", () => {
  it.each([
    ["20:00", 30, "19:30"],
    ["19:15", 30, "18:45"],
    ["00:15", 30, "23:45"],
    ["00:00", 30, "23:30"],
    ["12:00", -30, "12:30"],
    ["23:50", -30, "00:20"],
  ])("%s - %d = %s", (t, m, out) => {
    expect(minusMinutesHHMM(t, m)).toBe(out);
  });
});

describe("roundToQuarterHour", () => {
  it.each([
    ["2026-11-21T00:07:00Z", NY, "19:00"],
    ["2026-11-21T00:08:00Z", NY, "19:15"],
    ["2026-11-21T00:52:30Z", NY, "20:00"],
    ["2026-11-21T04:53:00Z", NY, "00:00"],
    ["2026-11-21T03:22:00Z", LA, "19:15"],
  ])("%s in %s -> %s", (iso, tz, out) => {
    expect(roundToQuarterHour(Date.parse(iso), tz)).toBe(out);
  });
});

describe("isValidTimeZone and time slots", () => {
  it.each([
    ["America/New_York", true],
    ["America/Los_Angeles", true],
    ["Europe/London", true],
    ["UTC", true],
    ["", false],
    ["Mars/Olympus_Mons", false],
    ["New York", false],
  ])("%j -> %s", (tz, ok) => {
    expect(isValidTimeZone(tz)).toBe(ok);
  });

  it("tells UTC's names from places", () => {
    for (const tz of ["UTC", "Etc/UTC", "etc/utc", "GMT", "Etc/GMT+0", "GMT0", "Zulu", "Universal", "Greenwich"]) {
      expect(isPlacelessTimeZone(tz)).toBe(true);
    }
    for (const tz of ["Europe/London", "Africa/Abidjan", "America/Detroit", "Etc/GMT+5", "UTC+1", ""]) {
      expect(isPlacelessTimeZone(tz)).toBe(false);
    }
  });

  it("has 96 quarter-hour slots", () => {
    expect(QUARTER_HOUR_SLOTS).toHaveLength(96);
    expect(QUARTER_HOUR_SLOTS.slice(0, 3)).toEqual(["00:00", "00:15", "00:30"]);
    expect(QUARTER_HOUR_SLOTS[95]).toBe("23:45");
    expect(QUARTER_HOUR_SLOTS).toContain(roundToQuarterHour(Date.parse("2026-11-21T04:53:00Z"), NY));
  });
});

describe("compareWeeklySlots", () => {
  const slot = (title: string, dayOfWeek?: number | null, startTimeLocal?: string) => ({
    title,
    dayOfWeek,
    startTimeLocal,
  });
  it.each([
    ["an earlier day first", slot("B", 1, "21:00"), slot("A", 2, "18:00"), -1],
    ["Sunday before Saturday", slot("B", 0, "23:00"), slot("A", 6, "08:00"), -1],
    ["no day after every day", slot("A", undefined, "18:00"), slot("B", 6, "23:00"), 1],
    ["a null day after every day", slot("A", null, "18:00"), slot("B", 6, "23:00"), 1],
    ["an earlier time on the same day first", slot("B", 3, "19:00"), slot("A", 3, "20:30"), -1],
    ["no time before any time", slot("B", 3, undefined), slot("A", 3, "07:00"), -1],
    ["the title breaks a tie", slot("Alpha", 3, "20:00"), slot("Beta", 3, "20:00"), -1],
    ["equal slots", slot("Same", 3, "20:00"), slot("Same", 3, "20:00"), 0],
  ])("%s", (_case, a, b, sign) => {
    expect(Math.sign(compareWeeklySlots(a, b))).toBe(sign);
    expect(Math.sign(compareWeeklySlots(b, a))).toBe(-sign || 0);
  });
});
