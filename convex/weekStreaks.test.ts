import { afterEach, describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { goalWeek } from "./lib/weeks";
import { createUser, newTest, type TestBackend, type TestUser } from "./testing/test.setup";
import { checkAllInvariants } from "./testing/test.invariants";
import "./lib/time";

const ZONE = "America/New_York";

afterEach(() => {
  vi.useRealTimers();
});

/** The clock at `iso` (a New York wall time), timers real so the scheduler runs. */
function clockAt(iso: string): void {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Date.parse(iso));
}

async function logAt(comic: TestUser, iso: string, minutes: number) {
  return await comic.asUser.mutation(api.performances.log, {
    minutes,
    performedAt: Date.parse(iso),
    venueName: "The Back Room",
    tags: [],
    timeZone: ZONE,
  });
}

async function dashboard(comic: TestUser, today: string) {
  const week = goalWeek(today, ZONE);
  return await comic.asUser.query(api.dashboard.summary, {
    goalWeekStartMs: week.startMs,
    goalWeekEndMs: week.endMs,
    today,
  });
}

async function weekRows(t: TestBackend, userId: Id<"users">) {
  return await t.run(async (ctx) =>
    (
      await ctx.db
        .query("performanceWeeks")
        .withIndex("by_user_and_week", (q) => q.eq("userId", userId))
        .collect()
    ).map((w) => [w.weekStart, w.minutes, w.goal]),
  );
}

describe("week streaks, kept by the set and goal triggers", () => {
  test("four goal weeks in a row, one holding the fall-back DST change, earn the 4-week badge", async () => {
    const t = newTest();
    const comic = await createUser(t, { profile: { timeZone: ZONE } });
    clockAt("2026-11-20T22:00:00-05:00"); // Friday
    await logAt(comic, "2026-10-27T21:00:00-04:00", 15); // week of Oct 25
    // Saturday 23:30 after the clocks went back on Sunday Nov 1: still the week of Nov 1.
    await logAt(comic, "2026-11-07T23:30:00-05:00", 10);
    await logAt(comic, "2026-11-01T00:30:00-04:00", 5);
    await logAt(comic, "2026-11-10T21:00:00-05:00", 20); // week of Nov 8
    const before = await dashboard(comic, "2026-11-20");
    expect(before.weekStreak).toMatchObject({ current: 3, thisWeekMet: false, freezeAvailable: true });
    const third = await logAt(comic, "2026-11-19T21:00:00-05:00", 15); // this week (Nov 15)
    expect(third.newBadges).toContain("week_streak_4");

    expect(await weekRows(t, comic.userId)).toEqual([
      ["2026-10-25", 15, 15],
      ["2026-11-01", 15, 15],
      ["2026-11-08", 20, 15],
      ["2026-11-15", 15, 15],
    ]);
    const after = await dashboard(comic, "2026-11-20");
    expect(after.weekStreak).toMatchObject({ current: 4, longest: 4, thisWeekMet: true, frozenWeek: null });
    expect((await checkAllInvariants(t)).problems).toEqual([]);
  });

  test("a missed week on each side of a month boundary is saved by each month's freeze", async () => {
    const t = newTest();
    const comic = await createUser(t, { profile: { timeZone: ZONE } });
    clockAt("2026-12-10T22:00:00-05:00"); // Thursday, week of Dec 6
    await logAt(comic, "2026-11-10T21:00:00-05:00", 15); // week of Nov 8
    await logAt(comic, "2026-11-17T21:00:00-05:00", 15); // week of Nov 15
    await logAt(comic, "2026-11-24T21:00:00-05:00", 5); // week of Nov 22 (Sat Nov 28): short, November's freeze
    // Week of Nov 29 (Sat Dec 5): no sets, December's freeze.
    await logAt(comic, "2026-12-08T21:00:00-05:00", 3); // this week
    const now = await dashboard(comic, "2026-12-10");
    expect(now.weekStreak).toEqual({
      current: 2,
      longest: 2,
      thisWeekMet: false,
      freezeAvailable: false,
      frozenWeek: "2026-11-29",
    });
    expect(now.weekMinutes).toBe(3);

    // Read a week later with nothing logged: December has no freeze left, the streak is over.
    const later = await dashboard(comic, "2026-12-14");
    expect(later.weekStreak).toMatchObject({ current: 0, longest: 2, frozenWeek: null });

    // Meeting this week's goal instead keeps it going.
    await logAt(comic, "2026-12-09T21:00:00-05:00", 12);
    expect((await dashboard(comic, "2026-12-10")).weekStreak).toMatchObject({ current: 3, thisWeekMet: true });
  });

  test("a new goal applies to the week in progress; past weeks keep the goal they had", async () => {
    const t = newTest();
    const comic = await createUser(t, { profile: { timeZone: ZONE } });
    clockAt("2026-11-20T22:00:00-05:00");
    await logAt(comic, "2026-11-10T21:00:00-05:00", 15);
    await logAt(comic, "2026-11-17T21:00:00-05:00", 15);
    expect((await dashboard(comic, "2026-11-20")).weekStreak).toMatchObject({ current: 2, thisWeekMet: true });

    await comic.asUser.mutation(api.goals.update, { weeklyGoalMinutes: 30 });
    expect(await weekRows(t, comic.userId)).toEqual([
      ["2026-11-08", 15, 15],
      ["2026-11-15", 15, 30],
    ]);
    const raised = await dashboard(comic, "2026-11-20");
    // This week no longer counts anywhere, the longest run included (the badges earned stay).
    expect(raised.weekStreak).toMatchObject({ current: 1, longest: 1, thisWeekMet: false });

    // Back to 15: this week is met again.
    await comic.asUser.mutation(api.goals.update, { weeklyGoalMinutes: 15 });
    expect((await dashboard(comic, "2026-11-20")).weekStreak).toMatchObject({ current: 2 });
  });

  test("deleting a set moves its week; deleting the account removes the week rows", async () => {
    const t = newTest();
    const comic = await createUser(t, { profile: { timeZone: ZONE } });
    clockAt("2026-11-20T22:00:00-05:00");
    const first = await logAt(comic, "2026-11-10T21:00:00-05:00", 15);
    await logAt(comic, "2026-11-17T21:00:00-05:00", 15);
    await comic.asUser.mutation(api.performances.remove, { id: first.performanceId });
    expect(await weekRows(t, comic.userId)).toEqual([["2026-11-15", 15, 15]]);
    expect((await dashboard(comic, "2026-11-20")).weekStreak).toMatchObject({ current: 1, longest: 1 });
    expect((await checkAllInvariants(t)).problems).toEqual([]);

    vi.useFakeTimers();
    await comic.asUser.mutation(api.account.deleteAccount, { confirm: "DELETE" });
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    expect(await weekRows(t, comic.userId)).toEqual([]);
  });
});
