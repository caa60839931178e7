import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { BADGES } from "./lib/badges";
import { awardEarnedBadges, startOfLocalMonth } from "./model/badges";
import { expectAppError } from "./testing/test.expect";
import { createUser, createSceneItem, newTest, type TestBackend } from "./testing/test.setup";

/** 2026-11-20 12:00 in New York. */
const NOW = Date.parse("2026-11-20T12:00:00-05:00");

async function award(t: TestBackend, userId: Id<"users">, nowMs = NOW) {
  return await t.run(async (ctx) => await awardEarnedBadges(ctx, userId, nowMs));
}

async function badgeCodes(t: TestBackend, userId: Id<"users">) {
  const rows = await t.run(async (ctx) =>
    ctx.db
      .query("userBadges")
      .withIndex("by_user_and_code", (q) => q.eq("userId", userId))
      .collect(),
  );
  return rows.map((r) => r.badgeCode).sort();
}

async function addCheckIns(t: TestBackend, userId: Id<"users">, times: number[]) {
  const mic = await createSceneItem(t);
  await t.run(async (ctx) => {
    for (const [i, checkedInAt] of times.entries()) {
      await ctx.db.insert("checkIns", {
        userId,
        sceneItemId: mic,
        checkedInAt,
        localDate: `2026-11-${String(i + 1).padStart(2, "0")}`,
      });
    }
  });
}

describe("startOfLocalMonth", () => {
  test.each([
    ["New York", NOW, "America/New_York", "2026-11-01T00:00:00-04:00"],
    ["Los Angeles", NOW, "America/Los_Angeles", "2026-11-01T00:00:00-07:00"],
    // 03:00 UTC on 1 December is still November in New York.
    ["month edge", Date.parse("2026-12-01T03:00:00Z"), "America/New_York", "2026-11-01T00:00:00-04:00"],
    ["Tokyo", Date.parse("2026-11-30T16:00:00Z"), "Asia/Tokyo", "2026-12-01T00:00:00+09:00"],
  ])("%s", (_name, now, tz, expected) => {
    expect(startOfLocalMonth(now, tz)).toBe(Date.parse(expected));
  });
});

describe("awardEarnedBadges", () => {
  test("a comedian without a stats row or check-ins earns nothing", async () => {
    const t = newTest();
    const comic = await createUser(t);
    expect(await award(t, comic.userId)).toEqual([]);
    expect(await badgeCodes(t, comic.userId)).toEqual([]);
  });

  test("awards each met badge once and never again", async () => {
    const t = newTest();
    const comic = await createUser(t, {
      stats: { totalMinutes: 120, totalSets: 3, uniqueVenues: 2, currentStreak: 1, longestStreak: 3, venuesAdded: 1 },
    });
    const first = await award(t, comic.userId);
    expect([...first].sort()).toEqual(["century_club", "first_set", "streak_3", "venue_pioneer"]);
    expect(await award(t, comic.userId)).toEqual([]);
    expect(await badgeCodes(t, comic.userId)).toEqual(["century_club", "first_set", "streak_3", "venue_pioneer"]);
  });

  test("community_builder counts check-ins from the first of the month in the comedian's time zone", async () => {
    const t = newTest();
    const newYorker = await createUser(t);
    const angeleno = await createUser(t, { profile: { timeZone: "America/Los_Angeles" } });
    // 05:00 UTC on 1 November: already November in New York, still October in Los Angeles.
    const edge = Date.parse("2026-11-01T05:00:00Z");
    const during = [3, 5, 7, 9].map((d) => Date.parse(`2026-11-${String(d).padStart(2, "0")}T20:00:00-05:00`));
    await addCheckIns(t, newYorker.userId, [edge, ...during]);
    await addCheckIns(t, angeleno.userId, [edge, ...during]);
    expect(await award(t, newYorker.userId)).toEqual(["community_builder"]);
    expect(await award(t, angeleno.userId)).toEqual([]);
  });

  test("four check-ins in the month are not enough", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const times = [3, 5, 7, 9].map((d) => Date.parse(`2026-11-${String(d).padStart(2, "0")}T20:00:00-05:00`));
    await addCheckIns(t, comic.userId, times);
    expect(await award(t, comic.userId)).toEqual([]);
  });
});

describe("badges.mine and badges.progress", () => {
  test("refuse anonymous callers", async () => {
    const t = newTest();
    await expectAppError(t.query(api.badges.mine, {}), "NOT_SIGNED_IN", /sign in/i);
    await expectAppError(t.query(api.badges.progress, { monthStartMs: 0 }), "NOT_SIGNED_IN", /sign in/i);
  });

  test("mine lists the caller's badges oldest first, and only theirs", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const other = await createUser(t);
    await t.run(async (ctx) => {
      await ctx.db.insert("userBadges", { userId: comic.userId, badgeCode: "streak_3", awardedAt: NOW });
      await ctx.db.insert("userBadges", { userId: comic.userId, badgeCode: "first_set", awardedAt: NOW - 1000 });
      await ctx.db.insert("userBadges", { userId: other.userId, badgeCode: "century_club", awardedAt: NOW });
    });
    expect(await comic.asUser.query(api.badges.mine, {})).toEqual([
      { code: "first_set", awardedAt: NOW - 1000 },
      { code: "streak_3", awardedAt: NOW },
    ]);
    expect(await other.asUser.query(api.badges.mine, {})).toEqual([{ code: "century_club", awardedAt: NOW }]);
  });

  test("progress follows the definitions with current, required and a capped percentage", async () => {
    const t = newTest();
    const comic = await createUser(t, {
      stats: { totalMinutes: 250, totalSets: 4, uniqueVenues: 3, currentStreak: 0, longestStreak: 2, venuesAdded: 0 },
    });
    await t.run(async (ctx) => {
      await ctx.db.insert("userBadges", { userId: comic.userId, badgeCode: "first_set", awardedAt: NOW - 5000 });
    });
    const monthStart = startOfLocalMonth(NOW, "America/New_York");
    await addCheckIns(t, comic.userId, [monthStart - 1, monthStart + 1000, monthStart + 2000]);
    const progress = await comic.asUser.query(api.badges.progress, { monthStartMs: monthStart });
    expect(progress.map((p) => p.code)).toEqual(BADGES.map((b) => b.code));
    const byCode = Object.fromEntries(progress.map((p) => [p.code, p]));
    expect(byCode.first_set).toEqual({
      code: "first_set",
      earned: true,
      earnedAt: NOW - 5000,
      current: 4,
      required: 1,
      percentage: 100,
    });
    // 250 of 100 minutes caps at 100%, but it is not earned until the server awards it.
    expect(byCode.century_club).toMatchObject({ earned: false, earnedAt: null, current: 250, percentage: 100 });
    expect(byCode.scene_regular).toMatchObject({ current: 3, required: 10, percentage: 30 });
    expect(byCode.venue_pioneer).toMatchObject({ current: 0, percentage: 0 });
    // Only the two check-ins from the month start on count.
    expect(byCode.community_builder).toMatchObject({ current: 2, required: 5, percentage: 40 });
    // Streak badges count the longest streak.
    expect(byCode.streak_3).toMatchObject({ current: 2, required: 3, percentage: 67 });
  });

  test("an earned badge shows as earned after its metric goes down", async () => {
    const t = newTest();
    const comic = await createUser(t, { withStats: true });
    await t.run(async (ctx) => {
      await ctx.db.insert("userBadges", { userId: comic.userId, badgeCode: "first_set", awardedAt: NOW });
    });
    const progress = await comic.asUser.query(api.badges.progress, { monthStartMs: 0 });
    expect(progress.find((p) => p.code === "first_set")).toMatchObject({ earned: true, current: 0, percentage: 100 });
  });
});
