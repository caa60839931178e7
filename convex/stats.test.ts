import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
// Load @date-fns/tz before fake timers replace Date.
import "./lib/time";
import { expectAppError } from "./testing/test.expect";
import { communityTotals, createSceneItem, createUser, newComicAndMic, newTest } from "./testing/test.setup";
import { useFrozenClock } from "./testing/test.clock";
import { NOW, ZERO_STATS } from "./testing/test.performances";

useFrozenClock(NOW);

describe("stats.mine", () => {
  test("refuses anonymous callers", async () => {
    const t = newTest();
    await expectAppError(t.query(api.stats.mine, {}), "NOT_SIGNED_IN", /sign in/i);
  });

  test("is all zeros before the first set", async () => {
    const t = newTest();
    const comic = await createUser(t);
    expect(await comic.asUser.query(api.stats.mine, {})).toEqual(ZERO_STATS);
  });

  test("follows inserts, edits and deletes, per comedian", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const other = await createUser(t);
    const a = await createSceneItem(t, { venueName: "A" });
    const b = await createSceneItem(t, { venueName: "B" });
    const log = (sceneItemId: typeof a, minutes: number, performedAt: number) =>
      comic.asUser.mutation(api.performances.log, { sceneItemId, minutes, performedAt, tags: [] });
    const yesterday = NOW - 24 * 3600_000;
    const s1 = await log(a, 5, yesterday);
    await log(b, 7, NOW);
    await other.asUser.mutation(api.performances.log, { sceneItemId: a, minutes: 30, performedAt: NOW, tags: [] });
    expect(await comic.asUser.query(api.stats.mine, {})).toEqual({
      totalMinutes: 12,
      totalSets: 2,
      uniqueVenues: 2,
      currentStreak: 2,
      longestStreak: 2,
      venuesAdded: 0,
    });
    // Moving the first set to venue B's day and changing its minutes.
    await comic.asUser.mutation(api.performances.update, { id: s1.performanceId, minutes: 20, performedAt: NOW });
    expect(await comic.asUser.query(api.stats.mine, {})).toMatchObject({
      totalMinutes: 27,
      totalSets: 2,
      uniqueVenues: 2,
      currentStreak: 1,
      longestStreak: 1,
    });
    await comic.asUser.mutation(api.performances.remove, { id: s1.performanceId });
    expect(await comic.asUser.query(api.stats.mine, {})).toMatchObject({
      totalMinutes: 7,
      totalSets: 1,
      uniqueVenues: 1,
    });
    expect(await other.asUser.query(api.stats.mine, {})).toMatchObject({ totalMinutes: 30, totalSets: 1 });
    // The community total follows every change.
    expect((await communityTotals(t)).minutesLogged).toBe(37);
  });
});

describe("stats.mine with the client's date", () => {
  test("a streak whose last set is older than yesterday reads 0; the longest stays", async () => {
    const { comic, mic } = await newComicAndMic();
    for (const daysAgo of [2, 1, 0]) {
      await comic.asUser.mutation(api.performances.log, {
        sceneItemId: mic,
        minutes: 5,
        performedAt: NOW - daysAgo * 24 * 3600_000,
        tags: [],
      });
    }
    expect(await comic.asUser.query(api.stats.mine, { today: "2026-11-20" })).toMatchObject({ currentStreak: 3 });
    // Tomorrow the streak is still alive (a set may still come), the day after it is gone.
    expect(await comic.asUser.query(api.stats.mine, { today: "2026-11-21" })).toMatchObject({ currentStreak: 3 });
    expect(await comic.asUser.query(api.stats.mine, { today: "2026-11-22" })).toMatchObject({
      currentStreak: 0,
      longestStreak: 3,
    });
    await expectAppError(comic.asUser.query(api.stats.mine, { today: "soon" }), "INVALID_INPUT", /YYYY-MM-DD/);
  });
});
