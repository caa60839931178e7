import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
// Load @date-fns/tz before fake timers replace Date: a TZDate class that
// extends the fake Date loses its time zone.
import "./lib/time";
import { computeStreaks } from "./lib/streaks";
import { localDateString } from "./lib/time";
import { createSceneItem, createUser, newComicAndMic, newTest, setsAndFavoritesOf } from "./testing/test.setup";
import { HOUR, NOW, nyEvening, log, stats, rows, badgeCodes } from "./testing/test.performances";
import { useFrozenClock } from "./testing/test.clock";

useFrozenClock(NOW);

describe("badges at their thresholds", () => {
  test("century_club at 100 minutes, not 99", async () => {
    const { comic, mic } = await newComicAndMic();
    await log(comic, mic, 90, nyEvening(0));
    const at99 = await log(comic, mic, 9, nyEvening(0));
    expect(at99.totalMinutes).toBe(99);
    expect(at99.newBadges).toEqual([]);
    const at100 = await log(comic, mic, 1, nyEvening(0));
    expect(at100.newBadges).toEqual(["century_club"]);
    expect((await log(comic, mic, 50, nyEvening(0))).newBadges).toEqual([]);
  });

  test("scene_regular at 10 unique venues, not 9, and repeat venues do not count", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const mics: Id<"sceneItems">[] = [];
    for (let i = 0; i < 10; i++) mics.push(await createSceneItem(t, { venueName: `Room ${i}` }));
    for (let i = 0; i < 9; i++) {
      const r = await log(comic, mics[i], 1, nyEvening(0));
      expect(r.newBadges).not.toContain("scene_regular");
    }
    await log(comic, mics[0], 1, nyEvening(0));
    expect((await stats(comic)).uniqueVenues).toBe(9);
    expect(await badgeCodes(comic)).not.toContain("scene_regular");
    const tenth = await log(comic, mics[9], 1, nyEvening(0));
    expect(tenth.newBadges).toEqual(["scene_regular"]);
    expect((await stats(comic)).uniqueVenues).toBe(10);
  });

  test("streak badges at 3, 7 and 30 consecutive days, each once", async () => {
    const { comic, mic } = await newComicAndMic();
    const earnedOn = new Map<string, number>();
    for (let daysAgo = 29; daysAgo >= 0; daysAgo--) {
      const r = await log(comic, mic, 1, nyEvening(daysAgo));
      for (const code of r.newBadges) earnedOn.set(code, 30 - daysAgo);
    }
    expect(earnedOn.get("first_set")).toBe(1);
    expect(earnedOn.get("streak_3")).toBe(3);
    expect(earnedOn.get("streak_master")).toBe(7);
    expect(earnedOn.get("streak_legend")).toBe(30);
    expect(earnedOn.get("century_club")).toBeUndefined();
    expect(await stats(comic)).toMatchObject({ currentStreak: 30, longestStreak: 30 });
    const codes = await badgeCodes(comic);
    expect(codes.length).toBe(new Set(codes).size);
  });

  test("two days in a row are not a 3-day streak; a set logged for an earlier day can complete one", async () => {
    const { comic, mic } = await newComicAndMic();
    await log(comic, mic, 5, nyEvening(0));
    const two = await log(comic, mic, 5, nyEvening(2));
    expect(two.newBadges).toEqual([]);
    expect(await stats(comic)).toMatchObject({ currentStreak: 1, longestStreak: 1 });
    const filled = await log(comic, mic, 5, nyEvening(1));
    expect(filled.newBadges).toEqual(["streak_3"]);
    expect(await stats(comic)).toMatchObject({ currentStreak: 3, longestStreak: 3 });
  });

  test("badges are never awarded twice, even after the set that earned them is deleted", async () => {
    const { comic, mic } = await newComicAndMic();
    const first = await log(comic, mic, 5, nyEvening(0));
    expect(first.newBadges).toEqual(["first_set"]);
    await comic.asUser.mutation(api.performances.remove, { id: first.performanceId });
    expect(await stats(comic)).toMatchObject({ totalSets: 0, totalMinutes: 0 });
    expect(await badgeCodes(comic)).toEqual(["first_set"]);
    const again = await log(comic, mic, 5, nyEvening(0));
    expect(again.newBadges).toEqual([]);
    expect(await badgeCodes(comic)).toEqual(["first_set"]);
  });
});

describe("streaks across gaps, edits and deletions", () => {
  test("a gap ends the current streak but not the longest", async () => {
    const { comic, mic } = await newComicAndMic();
    for (const daysAgo of [10, 9, 8, 7, 3, 2]) await log(comic, mic, 5, nyEvening(daysAgo));
    // The latest set was two days ago: no current streak.
    expect(await stats(comic)).toMatchObject({ currentStreak: 0, longestStreak: 4 });
    await log(comic, mic, 5, nyEvening(1));
    // Yesterday's set keeps the streak alive until today's set.
    expect(await stats(comic)).toMatchObject({ currentStreak: 3, longestStreak: 4 });
    await log(comic, mic, 5, nyEvening(0));
    expect(await stats(comic)).toMatchObject({ currentStreak: 4, longestStreak: 4 });
  });

  test("two sets on one day count one day; deleting one keeps the day", async () => {
    const { t, comic, mic } = await newComicAndMic();
    await log(comic, mic, 5, nyEvening(1));
    const a = await log(comic, mic, 5, nyEvening(0));
    await log(comic, mic, 5, nyEvening(0) + HOUR);
    expect((await rows(t, comic.userId)).days).toEqual([
      ["2026-11-19", 1],
      ["2026-11-20", 2],
    ]);
    await comic.asUser.mutation(api.performances.remove, { id: a.performanceId });
    expect((await rows(t, comic.userId)).days).toEqual([
      ["2026-11-19", 1],
      ["2026-11-20", 1],
    ]);
    expect(await stats(comic)).toMatchObject({ currentStreak: 2, totalSets: 2, totalMinutes: 10 });
  });

  test("deleting the middle day breaks the current streak and recomputes the longest", async () => {
    const { comic, mic } = await newComicAndMic();
    const ids: Id<"performances">[] = [];
    for (const daysAgo of [4, 3, 2, 1, 0]) ids.push((await log(comic, mic, 5, nyEvening(daysAgo))).performanceId);
    expect(await stats(comic)).toMatchObject({ currentStreak: 5, longestStreak: 5 });
    // Delete the set of two days ago: 4,3 | 1,0.
    await comic.asUser.mutation(api.performances.remove, { id: ids[2] });
    expect(await stats(comic)).toMatchObject({ currentStreak: 2, longestStreak: 2, totalSets: 4 });
    // Delete today's and yesterday's: the latest set is three days old.
    await comic.asUser.mutation(api.performances.remove, { id: ids[4] });
    await comic.asUser.mutation(api.performances.remove, { id: ids[3] });
    expect(await stats(comic)).toMatchObject({ currentStreak: 0, longestStreak: 2, totalSets: 2 });
    // Earned badges stay.
    expect(await badgeCodes(comic)).toContain("streak_3");
  });

  test("moving a set's date by an edit moves its day", async () => {
    const { t, comic, mic } = await newComicAndMic();
    await log(comic, mic, 5, nyEvening(2));
    await log(comic, mic, 5, nyEvening(1));
    const moved = await log(comic, mic, 5, nyEvening(6));
    expect(await stats(comic)).toMatchObject({ currentStreak: 2, longestStreak: 2 });
    const r = await comic.asUser.mutation(api.performances.update, {
      id: moved.performanceId,
      minutes: 5,
      performedAt: nyEvening(0),
    });
    expect(r.newBadges).toEqual(["streak_3"]);
    expect(await stats(comic)).toMatchObject({ currentStreak: 3, longestStreak: 3 });
    expect((await rows(t, comic.userId)).days.map(([d]) => d)).toEqual(["2026-11-18", "2026-11-19", "2026-11-20"]);
    // And back again: the streak shrinks, the badge stays.
    await comic.asUser.mutation(api.performances.update, {
      id: moved.performanceId,
      minutes: 5,
      performedAt: nyEvening(6),
    });
    expect(await stats(comic)).toMatchObject({ currentStreak: 2, longestStreak: 2 });
    expect(await badgeCodes(comic)).toContain("streak_3");
  });
});

type Op =
  | { kind: "log"; venue: number; minutes: number; daysAgo: number }
  | { kind: "update"; pick: number; minutes: number; daysAgo: number }
  | { kind: "remove"; pick: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant("log" as const),
    venue: fc.integer({ min: 0, max: 3 }),
    minutes: fc.integer({ min: 1, max: 60 }),
    daysAgo: fc.integer({ min: 0, max: 6 }),
  }),
  fc.record({
    kind: fc.constant("update" as const),
    pick: fc.nat(),
    minutes: fc.integer({ min: 1, max: 60 }),
    daysAgo: fc.integer({ min: 0, max: 6 }),
  }),
  fc.record({ kind: fc.constant("remove" as const), pick: fc.nat() }),
);

describe("stats stay equal to a recount of the sets", () => {
  test("after any sequence of logs, edits and deletes", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 14 }), async (ops) => {
        const t = newTest();
        const comic = await createUser(t);
        const mics: Id<"sceneItems">[] = [];
        for (let i = 0; i < 4; i++) mics.push(await createSceneItem(t, { venueName: `Room ${i}` }));
        const live: Id<"performances">[] = [];
        for (const op of ops) {
          if (op.kind === "log") {
            const r = await log(comic, mics[op.venue], op.minutes, nyEvening(op.daysAgo));
            live.push(r.performanceId);
          } else if (live.length > 0 && op.kind === "update") {
            const id = live[op.pick % live.length];
            await comic.asUser.mutation(api.performances.update, {
              id,
              minutes: op.minutes,
              performedAt: nyEvening(op.daysAgo),
            });
          } else if (live.length > 0 && op.kind === "remove") {
            const [id] = live.splice(op.pick % live.length, 1);
            await comic.asUser.mutation(api.performances.remove, { id });
          }
        }
        const { sets } = await setsAndFavoritesOf(t, comic.userId);
        const dates = sets.map((p) => p.performanceDate);
        const streaks = computeStreaks(dates, localDateString(NOW, "America/New_York"));
        expect(await stats(comic)).toEqual({
          totalMinutes: sets.reduce((sum, p) => sum + p.minutes, 0),
          totalSets: sets.length,
          uniqueVenues: new Set(sets.map((p) => p.sceneItemId)).size,
          currentStreak: streaks.current,
          longestStreak: streaks.longest,
          venuesAdded: 0,
        });
        const r = await rows(t, comic.userId);
        const perDay = new Map<string, number>();
        for (const d of dates) perDay.set(d, (perDay.get(d) ?? 0) + 1);
        expect(Object.fromEntries(r.days)).toEqual(Object.fromEntries(perDay));
        const perMic = new Map<string, number>();
        for (const p of sets) perMic.set(p.sceneItemId!, (perMic.get(p.sceneItemId!) ?? 0) + 1);
        expect(Object.fromEntries(r.visits)).toEqual(Object.fromEntries(perMic));
        expect(r.siteMinutes).toBe(sets.reduce((sum, p) => sum + p.minutes, 0));
      }),
      { numRuns: 60 },
    );
  }, 60_000);
});
