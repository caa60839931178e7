import { describe, expect, it } from "vitest";
import { goalWeek, scheduleWeek, shiftWeek, weekGoalDisplay } from "./weeks";
import { zonedEpoch } from "./time";

const NY = "America/New_York";
const LA = "America/Los_Angeles";
const HOUR = 3_600_000;

describe("scheduleWeek (Monday to Sunday)", () => {
  it.each([
    ["2026-11-21", NY, "2026-11-16", "2026-11-22"],
    ["2026-11-16", NY, "2026-11-16", "2026-11-22"],
    ["2026-11-22", NY, "2026-11-16", "2026-11-22"],
    ["2026-11-23", NY, "2026-11-23", "2026-11-29"],
    ["2026-12-31", NY, "2026-12-28", "2027-01-03"],
    ["2027-01-01", NY, "2026-12-28", "2027-01-03"],
    ["2027-01-03", NY, "2026-12-28", "2027-01-03"],
    ["2027-01-04", NY, "2027-01-04", "2027-01-10"],
    ["2028-02-29", NY, "2028-02-28", "2028-03-05"],
    ["2026-11-21T10:00:00Z", NY, "2026-11-16", "2026-11-22"],
  ])("%s in %s -> %s..%s", (input, tz, startDate, endDate) => {
    const w = scheduleWeek(input, tz);
    expect(w.startDate).toBe(startDate);
    expect(w.endDate).toBe(endDate);
    expect(w.startMs).toBe(zonedEpoch(startDate, "00:00", tz));
    expect(w.endMs).toBe(zonedEpoch(endDate, "23:59", tz) + 59_999);
  });

  it("uses the local date of an instant", () => {
    const mondayEarlyNY = zonedEpoch("2026-11-23", "00:30", NY);
    expect(scheduleWeek(mondayEarlyNY, NY).startDate).toBe("2026-11-23");
    // The same instant is still Sunday evening in Los Angeles.
    expect(scheduleWeek(mondayEarlyNY, LA).startDate).toBe("2026-11-16");
  });

  it("has exact edges", () => {
    const w = scheduleWeek("2026-11-18", NY);
    expect(scheduleWeek(w.startMs, NY).startDate).toBe("2026-11-16");
    expect(scheduleWeek(w.endMs, NY).startDate).toBe("2026-11-16");
    expect(scheduleWeek(w.startMs - 1, NY).startDate).toBe("2026-11-09");
    expect(scheduleWeek(w.endMs + 1, NY).startDate).toBe("2026-11-23");
    expect(w.endMs - w.startMs + 1).toBe(168 * HOUR);
  });

  it.each([
    // The week ending on the fall-back Sunday has 169 hours; the spring-forward one 167.
    ["2026-11-01", "2026-10-26", 169],
    ["2026-03-08", "2026-03-02", 167],
    ["2026-11-02", "2026-11-02", 168],
  ])("DST week holding %s starts %s and lasts %d h", (date, startDate, hours) => {
    const w = scheduleWeek(date, NY);
    expect(w.startDate).toBe(startDate);
    expect(w.endMs - w.startMs + 1).toBe(hours * HOUR);
  });
});

describe("goalWeek (Sunday to Saturday)", () => {
  it.each([
    ["2026-11-21", "2026-11-15", "2026-11-21"],
    ["2026-11-22", "2026-11-22", "2026-11-28"],
    ["2026-11-15", "2026-11-15", "2026-11-21"],
    ["2026-12-31", "2026-12-27", "2027-01-02"],
    ["2027-01-01", "2026-12-27", "2027-01-02"],
    ["2027-01-03", "2027-01-03", "2027-01-09"],
  ])("%s -> %s..%s", (input, startDate, endDate) => {
    const w = goalWeek(input, NY);
    expect(w.startDate).toBe(startDate);
    expect(w.endDate).toBe(endDate);
    expect(w.startMs).toBe(zonedEpoch(startDate, "00:00", NY));
    expect(w.endMs).toBe(zonedEpoch(endDate, "23:59", NY) + 59_999);
  });

  it.each([
    ["2026-11-01", "2026-11-01", 169, "2026-11-01T04:00:00.000Z"],
    ["2026-03-10", "2026-03-08", 167, "2026-03-08T05:00:00.000Z"],
  ])("DST week holding %s starts %s, lasts %d h", (date, startDate, hours, startIso) => {
    const w = goalWeek(date, NY);
    expect(w.startDate).toBe(startDate);
    expect(new Date(w.startMs).toISOString()).toBe(startIso);
    expect(w.endMs - w.startMs + 1).toBe(hours * HOUR);
  });

  it("counts a Saturday-night set in Los Angeles in that week", () => {
    const saturdayNightLA = zonedEpoch("2026-11-21", "23:30", LA);
    expect(goalWeek(saturdayNightLA, LA).startDate).toBe("2026-11-15");
    expect(goalWeek(saturdayNightLA, NY).startDate).toBe("2026-11-22");
  });
});

describe("shiftWeek", () => {
  it.each([
    ["2026-12-28", 1, "2027-01-04"],
    ["2026-12-28", -1, "2026-12-21"],
    ["2026-11-16", 0, "2026-11-16"],
    ["2026-11-16", 6, "2026-12-28"],
  ])("%s %+d -> %s", (start, n, out) => {
    expect(shiftWeek(start, n)).toBe(out);
  });
});

describe("weekGoalDisplay", () => {
  it.each([
    [0, 15, 0, "No minutes yet this week"],
    [15, 15, 100, "Goal achieved! Keep the momentum going!"],
    [20, 15, 100, "Goal achieved! Keep the momentum going!"],
    [5, 15, 33, "33% complete"],
    [10, 15, 67, "67% complete"],
    [7.5, 15, 50, "50% complete"],
    [149, 150, 99, "99% complete"],
    [1, 1000, 0, "0% complete"],
  ])("%d of %d -> %d%%, %s", (minutes, goal, percent, text) => {
    expect(weekGoalDisplay(minutes, goal)).toEqual({ percent, text });
  });
});
