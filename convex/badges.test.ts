import { describe, expect, test } from "vitest";
import type { Id } from "./_generated/dataModel";
import { awardEarnedBadges, startOfLocalMonth } from "./model/badges";
import { createUser, createSceneItem, newTest, type TestBackend } from "./test.setup";

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
    const comic = await createUser(t);
    await t.run(async (ctx) => {
      await ctx.db.insert("userStats", {
        userId: comic.userId,
        totalMinutes: 120,
        totalSets: 3,
        uniqueVenues: 2,
        currentStreak: 1,
        longestStreak: 3,
        venuesAdded: 1,
      });
    });
    const first = await award(t, comic.userId);
    expect([...first].sort()).toEqual(["century_club", "first_set", "streak_3", "venue_pioneer"]);
    expect(await award(t, comic.userId)).toEqual([]);
    expect(await badgeCodes(t, comic.userId)).toEqual([
      "century_club",
      "first_set",
      "streak_3",
      "venue_pioneer",
    ]);
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
