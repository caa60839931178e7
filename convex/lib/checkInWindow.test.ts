import { describe, expect, it } from "vitest";
import { checkInWindow } from "./checkInWindow";
import { zonedEpoch } from "./time";

const NY = "America/New_York";
const LA = "America/Los_Angeles";
const MIN = 60_000;

// 2026-11-20 is a Friday (5), 2026-11-21 a Saturday (6).
const fridayMic = { dayOfWeek: 5, startTimeLocal: "20:00", timeZone: NY };
const fridayStart = zonedEpoch("2026-11-20", "20:00", NY);

describe("checkInWindow around a Friday 20:00 mic in New York", () => {
  it.each([
    ["morning of the mic", -10 * 60 * MIN, "upcoming", "Check-in opens in 9h 30m"],
    ["1h 35m before", -95 * MIN, "upcoming", "Check-in opens in 1h 5m"],
    ["75 minutes before", -75 * MIN, "upcoming", "Check-in opens in 45m"],
    ["just before opening", -30 * MIN - 1, "upcoming", "Check-in opens in 1m"],
    ["opening edge (inclusive)", -30 * MIN, "open", "Check-in Available"],
    ["at the start", 0, "open", "Check-in Available"],
    ["during", 60 * MIN, "open", "Check-in Available"],
    ["just before closing", 120 * MIN - 1, "open", "Check-in Available"],
    ["closing edge (exclusive)", 120 * MIN, "closed", "Check-in window closed"],
    ["after", 180 * MIN, "closed", "Check-in window closed"],
  ])("%s", (_name, offset, status, label) => {
    const w = checkInWindow(fridayMic, fridayStart + offset);
    expect(w.status).toBe(status);
    expect(w.label).toBe(label);
    expect(w.localDate).toBe("2026-11-20");
    expect(w.occurrenceStartMs).toBe(fridayStart);
  });

  it("reports minutes until open, until start and since start", () => {
    const before = checkInWindow(fridayMic, fridayStart - 95 * MIN);
    expect(before.minutesUntilOpen).toBe(65);
    expect(before.minutesUntilStart).toBe(95);
    expect(before.minutesSinceStart).toBeNull();
    const during = checkInWindow(fridayMic, fridayStart + 61 * MIN + 30_000);
    expect(during.minutesUntilOpen).toBeNull();
    expect(during.minutesUntilStart).toBeNull();
    expect(during.minutesSinceStart).toBe(61);
  });

  it.each([
    ["Thursday", zonedEpoch("2026-11-19", "20:00", NY)],
    ["Saturday evening", zonedEpoch("2026-11-21", "20:00", NY)],
  ])("is closed on %s with no occurrence", (_name, now) => {
    const w = checkInWindow(fridayMic, now);
    expect(w.status).toBe("closed");
    expect(w.occurrenceStartMs).toBeNull();
    expect(w.localDate).toBeNull();
  });
});

describe("windows across midnight", () => {
  const lateMic = { dayOfWeek: 5, startTimeLocal: "23:30", timeZone: NY };
  it.each([
    ["Friday 23:00", "2026-11-20", "23:00", "open", "2026-11-20"],
    ["Saturday 00:30", "2026-11-21", "00:30", "open", "2026-11-20"],
    ["Saturday 01:29", "2026-11-21", "01:29", "open", "2026-11-20"],
    ["Saturday 01:30", "2026-11-21", "01:30", "closed", null],
  ])("a Friday 23:30 mic at %s is %s", (_n, date, time, status, localDate) => {
    const w = checkInWindow(lateMic, zonedEpoch(date, time, NY));
    expect(w.status).toBe(status);
    expect(w.localDate).toBe(localDate);
  });

  const afterMidnight = { dayOfWeek: 6, startTimeLocal: "00:15", timeZone: NY };
  it.each([
    ["Friday 23:44", "2026-11-20", "23:44", "closed", null],
    ["Friday 23:45", "2026-11-20", "23:45", "open", "2026-11-21"],
    ["Saturday 00:00", "2026-11-21", "00:00", "open", "2026-11-21"],
    ["Saturday 02:15", "2026-11-21", "02:15", "closed", "2026-11-21"],
  ])("a Saturday 00:15 mic at %s is %s", (_n, date, time, status, localDate) => {
    const w = checkInWindow(afterMidnight, zonedEpoch(date, time, NY));
    expect(w.status).toBe(status);
    expect(w.localDate).toBe(localDate);
  });
});

describe("time zones", () => {
  const laMic = { dayOfWeek: 5, startTimeLocal: "20:00", timeZone: LA };
  const laStart = zonedEpoch("2026-11-20", "20:00", LA);

  it("uses the item's own zone", () => {
    // 20:00 in Los Angeles is 23:00 in New York.
    expect(checkInWindow(laMic, zonedEpoch("2026-11-20", "23:00", NY)).status).toBe("open");
    expect(checkInWindow(laMic, laStart - 31 * MIN).status).toBe("upcoming");
    expect(checkInWindow(laMic, laStart + 120 * MIN).status).toBe("closed");
    // The same wall-clock item in New York closed three hours earlier.
    expect(checkInWindow({ ...laMic, timeZone: NY }, laStart).status).toBe("closed");
  });

  it("counts the local date of the item, not UTC", () => {
    // 21:00 Friday in LA is 05:00 Saturday UTC.
    const w = checkInWindow(laMic, laStart + 60 * MIN);
    expect(w.localDate).toBe("2026-11-20");
  });

  it("defaults to America/New_York", () => {
    const w = checkInWindow({ dayOfWeek: 5, startTimeLocal: "20:00" }, fridayStart);
    expect(w.status).toBe("open");
    expect(w.occurrenceStartMs).toBe(fridayStart);
  });
});

describe("daylight-saving change days in New York", () => {
  it.each([
    // Sunday 2026-03-08: clocks jump 02:00 -> 03:00.
    ["spring forward, evening mic", "2026-03-08", "20:00", "2026-03-08T23:30:00Z", "open"],
    ["spring forward, evening mic closing", "2026-03-08", "20:00", "2026-03-09T02:00:00Z", "closed"],
    ["spring forward, a mic started before the jump", "2026-03-08", "01:30", "2026-03-08T07:29:00Z", "open"],
    [
      "spring forward, a mic started before the jump closes 2 real hours later",
      "2026-03-08",
      "01:30",
      "2026-03-08T08:30:00Z",
      "closed",
    ],
    // Sunday 2026-11-01: clocks fall back 02:00 -> 01:00.
    ["fall back, evening mic", "2026-11-01", "20:00", "2026-11-02T00:30:00Z", "open"],
    ["fall back, evening mic before opening", "2026-11-01", "20:00", "2026-11-02T00:29:00Z", "upcoming"],
    ["fall back, a mic at 01:00 (EDT) during the repeated hour", "2026-11-01", "01:00", "2026-11-01T06:30:00Z", "open"],
    ["fall back, 01:00 mic closes after 2 real hours", "2026-11-01", "01:00", "2026-11-01T07:00:00Z", "closed"],
  ])("%s", (_name, date, time, nowIso, status) => {
    const w = checkInWindow({ dayOfWeek: 0, startTimeLocal: time, timeZone: NY }, Date.parse(nowIso));
    expect(w.status).toBe(status);
    expect(w.localDate).toBe(date);
  });
});

describe("unscheduled items", () => {
  it.each([
    [{ dayOfWeek: null, startTimeLocal: "20:00" }],
    [{ dayOfWeek: undefined, startTimeLocal: "20:00" }],
    [{ dayOfWeek: 5 }],
    [{ dayOfWeek: 5, startTimeLocal: "late" }],
    [{ dayOfWeek: 9, startTimeLocal: "20:00" }],
  ])("%o", (item) => {
    const w = checkInWindow(item, fridayStart);
    expect(w.status).toBe("unscheduled");
    expect(w.label).toBe("Check-in unavailable");
    expect(w.localDate).toBeNull();
  });

  it("accepts HH:MM:SS start times", () => {
    expect(checkInWindow({ dayOfWeek: 5, startTimeLocal: "20:00:00", timeZone: NY }, fridayStart).status).toBe("open");
  });
});
