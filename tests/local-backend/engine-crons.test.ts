/** When the local backend runs each kind of `crons.ts` schedule next (all UTC). */
import { describe, expect, test } from "vitest";
import { nextCronTime, nextRun } from "../../local-backend/src/crons";

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe("cron schedules", () => {
  test.each([
    ["*/5 * * * *", "2026-11-21T23:02:10Z", "2026-11-21T23:05:00.000Z"],
    ["0 * * * *", "2026-11-21T23:00:00Z", "2026-11-22T00:00:00.000Z"],
    ["30 9 * * 1-5", "2026-11-21T10:00:00Z", "2026-11-23T09:30:00.000Z"], // Saturday -> Monday
    ["0 0 1 * *", "2026-11-21T10:00:00Z", "2026-12-01T00:00:00.000Z"],
    ["15 14 1,15 * *", "2026-11-02T00:00:00Z", "2026-11-15T14:15:00.000Z"],
    ["0 12 * * 0", "2026-11-21T12:00:00Z", "2026-11-22T12:00:00.000Z"], // Sunday as 0
    ["0 12 * * 7", "2026-11-21T12:00:00Z", "2026-11-22T12:00:00.000Z"], // and as 7
  ])("%s after %s is %s", (expr, after, next) => {
    expect(iso(nextCronTime(expr, at(after)))).toBe(next);
  });

  test("a malformed expression is an error", () => {
    expect(() => nextCronTime("* * *", 0)).toThrow(/5 fields/);
    expect(() => nextCronTime("*/0 * * * *", 0)).toThrow(/Bad cron field/);
  });

  test("intervals, hourly, daily, weekly and monthly schedules", () => {
    const now = at("2026-11-21T23:02:10Z");
    expect(nextRun({ type: "interval", minutes: 5 }, now) - now).toBe(5 * 60_000);
    expect(nextRun({ type: "interval", seconds: 1 }, now) - now).toBe(1000);
    expect(iso(nextRun({ type: "hourly", minuteUTC: 30 }, now))).toBe("2026-11-21T23:30:00.000Z");
    expect(iso(nextRun({ type: "daily", hourUTC: 3 }, now))).toBe("2026-11-22T03:00:00.000Z");
    expect(iso(nextRun({ type: "weekly", dayOfWeek: "monday", hourUTC: 8, minuteUTC: 15 }, now))).toBe(
      "2026-11-23T08:15:00.000Z",
    );
    expect(iso(nextRun({ type: "monthly", day: 1, hourUTC: 0, minuteUTC: 0 }, now))).toBe("2026-12-01T00:00:00.000Z");
  });
});
