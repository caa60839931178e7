import { beforeEach, describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { goalWeek } from "./lib/weeks";
import { expectAppError } from "./testing/test.expect";
import { createSceneItem, createUser, newTest, type TestBackend } from "./testing/test.setup";

const ZONE = "America/Chicago";
/** Sunday 2026-11-15 00:00 to Saturday 2026-11-21 23:59:59.999 in Chicago. */
const WEEK = goalWeek("2026-11-18", ZONE);
const weekArgs = { goalWeekStartMs: WEEK.startMs, goalWeekEndMs: WEEK.endMs };

let t: TestBackend;

beforeEach(() => {
  t = newTest();
});

async function logSet(userId: Id<"users">, performedAt: number, minutes: number, sceneItemId?: Id<"sceneItems">) {
  await t.run(async (ctx) => {
    await ctx.db.insert("performances", {
      userId,
      minutes,
      performedAt,
      performanceDate: new Date(performedAt).toISOString().slice(0, 10),
      sceneItemId,
      tags: [],
    });
  });
}

async function setStats(
  userId: Id<"users">,
  fields: {
    totalMinutes: number;
    totalSets: number;
    currentStreak?: number;
    longestStreak?: number;
    lastSetDate?: string;
  },
) {
  await t.run(async (ctx) => {
    const row = await ctx.db
      .query("userStats")
      .withIndex("by_userId", (q) => q.eq("userId", userId))
      .unique();
    await ctx.db.patch("userStats", row!._id, fields);
  });
}

describe("dashboard.summary", () => {
  test("the week's minutes count only sets within the Sunday-to-Saturday week passed in", async () => {
    expect(WEEK.startMs).toBe(Date.parse("2026-11-15T00:00:00-06:00"));
    const comic = await createUser(t, { withStats: true, profile: { timeZone: ZONE } });
    const mic = await createSceneItem(t);
    await logSet(comic.userId, WEEK.startMs - 1, 100); // Saturday before, 23:59:59.999
    await logSet(comic.userId, WEEK.startMs, 5, mic); // Sunday 00:00
    await logSet(comic.userId, Date.parse("2026-11-18T21:00:00-06:00"), 7);
    await logSet(comic.userId, WEEK.endMs, 3); // Saturday 23:59:59.999
    await logSet(comic.userId, WEEK.endMs + 1, 200); // next Sunday 00:00
    // Another comedian's set in the same week never counts.
    const other = await createUser(t);
    await logSet(other.userId, WEEK.startMs + 1000, 50);

    const summary = await comic.asUser.query(api.dashboard.summary, weekArgs);
    expect(summary.weekMinutes).toBe(15);

    const nextWeek = goalWeek(WEEK.endMs + 1, ZONE);
    const later = await comic.asUser.query(api.dashboard.summary, {
      goalWeekStartMs: nextWeek.startMs,
      goalWeekEndMs: nextWeek.endMs,
    });
    expect(later.weekMinutes).toBe(200);
  });

  test("a new comedian: their first name, zero figures, the default goal and no badges", async () => {
    const comic = await createUser(t, { name: "Jane Q. Comic" });
    const summary = await comic.asUser.query(api.dashboard.summary, weekArgs);
    const user = await t.run(async (ctx) => await ctx.db.get("users", comic.userId));
    expect(summary).toEqual({
      displayName: "Jane Q. Comic",
      firstName: "Jane",
      memberSince: user!._creationTime,
      weeklyGoalMinutes: 15,
      weekMinutes: 0,
      totalMinutes: 0,
      totalSets: 0,
      averageMinutes: 0,
      currentStreak: 0,
      longestStreak: 0,
      badges: [],
      weekStreak: { current: 0, longest: 0, thisWeekMet: false, freezeAvailable: true, frozenWeek: null },
    });
  });

  test("the first word of the display name greets the comedian, before and after a set", async () => {
    const comic = await createUser(t, { name: "  Jane Q. Comic", withStats: true });
    expect((await comic.asUser.query(api.dashboard.summary, weekArgs)).firstName).toBe("Jane");
    await setStats(comic.userId, { totalMinutes: 100, totalSets: 3, currentStreak: 2, longestStreak: 4 });
    const summary = await comic.asUser.query(api.dashboard.summary, weekArgs);
    expect(summary).toMatchObject({
      firstName: "Jane",
      totalMinutes: 100,
      totalSets: 3,
      averageMinutes: 33,
      currentStreak: 2,
      longestStreak: 4,
    });
  });

  test("the goal follows goals.update", async () => {
    const comic = await createUser(t);
    await comic.asUser.mutation(api.goals.update, { weeklyGoalMinutes: 45 });
    expect((await comic.asUser.query(api.dashboard.summary, weekArgs)).weeklyGoalMinutes).toBe(45);
  });

  test("shows the first 3 badges earned, oldest first", async () => {
    const comic = await createUser(t);
    const other = await createUser(t);
    await t.run(async (ctx) => {
      for (const [badgeCode, awardedAt] of [
        ["streak_3", 400],
        ["first_set", 100],
        ["venue_pioneer", 300],
        ["century_club", 200],
      ] as const) {
        await ctx.db.insert("userBadges", { userId: comic.userId, badgeCode, awardedAt });
      }
      await ctx.db.insert("userBadges", { userId: other.userId, badgeCode: "streak_legend", awardedAt: 1 });
    });
    const { badges } = await comic.asUser.query(api.dashboard.summary, weekArgs);
    expect(badges).toEqual([
      { code: "first_set", awardedAt: 100 },
      { code: "century_club", awardedAt: 200 },
      { code: "venue_pioneer", awardedAt: 300 },
    ]);
  });

  test("with today passed, a streak whose last set is older than yesterday reads 0", async () => {
    const comic = await createUser(t, { withStats: true });
    await setStats(comic.userId, {
      totalMinutes: 10,
      totalSets: 2,
      currentStreak: 2,
      longestStreak: 2,
      lastSetDate: "2026-11-19",
    });
    const on = (today: string) => comic.asUser.query(api.dashboard.summary, { ...weekArgs, today });
    expect((await on("2026-11-20")).currentStreak).toBe(2);
    expect((await on("2026-11-21")).currentStreak).toBe(0);
    expect((await on("2026-11-21")).longestStreak).toBe(2);
  });

  test("signed-out callers and ranges that are not a week are refused", async () => {
    await expectAppError(t.query(api.dashboard.summary, weekArgs), "NOT_SIGNED_IN", /sign in/i);
    const comic = await createUser(t);
    for (const args of [
      { goalWeekStartMs: WEEK.endMs, goalWeekEndMs: WEEK.startMs },
      { goalWeekStartMs: WEEK.startMs, goalWeekEndMs: WEEK.startMs + 30 * 24 * 3600_000 },
    ]) {
      await expectAppError(comic.asUser.query(api.dashboard.summary, args), "INVALID_INPUT", /Please choose a week/);
    }
    await expectAppError(
      comic.asUser.query(api.dashboard.summary, { ...weekArgs, today: "21/11/2026" }),
      "INVALID_INPUT",
      /YYYY-MM-DD/,
    );
  });
});
