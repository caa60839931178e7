/** When the local backend runs each kind of `crons.ts` schedule next (all UTC). */
import { describe, expect, test } from "vitest";
import { CronRunner, nextCronTime, nextRun, plannedRun, splayMs } from "../../local-backend/src/runtime/crons";

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

describe("as Convex's cron executor plans runs", () => {
  const hourly = { type: "hourly", minuteUTC: 30 } as const;
  test("an interval job first runs when it is deployed, then every interval after that run", () => {
    const now = at("2026-11-21T23:02:10Z");
    expect(plannedRun({ type: "interval", minutes: 5 }, null, now, 0)).toBe(now);
    expect(plannedRun({ type: "interval", minutes: 5 }, now, now + 1000, 0)).toBe(now + 5 * 60_000);
    expect(splayMs({ type: "interval", minutes: 5 })).toBe(0);
  });

  test("a pinned minute is spread within that minute, an unpinned one within the hour, by a delay kept per job", () => {
    const now = at("2026-11-21T23:02:10Z");
    expect(splayMs(hourly, () => 0.5)).toBe(30_000);
    expect(splayMs({ type: "cron", cron: "*/5 * * * *" }, () => 0.999)).toBe(59_000);
    expect(splayMs({ type: "daily", hourUTC: 3 }, () => 0.5)).toBe(1800_000);
    const first = plannedRun(hourly, null, now, 30_000);
    expect(iso(first)).toBe("2026-11-21T23:30:30.000Z");
    // The next run keeps the delay: the next occurrence after the run, plus the same 30 s.
    expect(iso(plannedRun(hourly, first, first + 2000, 30_000))).toBe("2026-11-22T00:30:30.000Z");
  });

  test("a reload keeps unchanged jobs' next runs and plans changed and new ones afresh", async () => {
    const ran: string[] = [];
    let jobs: Record<string, unknown> = {
      sweep: { name: "a:sweep", args: [{}], schedule: hourly },
      decay: { name: "a:decay", args: [{}], schedule: { type: "daily", hourUTC: 4, minuteUTC: 0 } },
    };
    const runner = new CronRunner({
      moduleNames: () => ["crons"],
      loadModule: async () => ({ default: { crons: jobs } }),
      runAny: async (name: string) => {
        ran.push(name);
      },
      logError: () => {},
    } as any);
    try {
      await runner.reload();
      const before = runner.nextRuns();
      await runner.reload();
      expect(runner.nextRuns()).toEqual(before);
      jobs = {
        sweep: jobs.sweep,
        decay: { name: "a:decay", args: [{ days: 2 }], schedule: { type: "daily", hourUTC: 4, minuteUTC: 0 } },
        often: { name: "a:often", args: [{}], schedule: { type: "interval", hours: 1 } },
      };
      const reloadedAt = Date.now();
      await runner.reload();
      // The interval job runs at once (its first run is its deployment), then waits an hour.
      for (let i = 0; i < 100 && runner.nextRuns().get("often")! <= reloadedAt + 1000; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const after = runner.nextRuns();
      expect(after.get("sweep")).toBe(before.get("sweep"));
      expect(ran).toEqual(["a:often"]);
      expect(after.get("often")! - reloadedAt).toBeGreaterThanOrEqual(3600_000 - 1000);
    } finally {
      runner.stop();
    }
  });
});
