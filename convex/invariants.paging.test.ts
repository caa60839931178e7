import { describe, expect, test, vi } from "vitest";
import { internal as dev } from "../convex-dev/_generated/api";
import { api, internal } from "./_generated/api";
// Load @date-fns/tz before fake timers replace Date (see checkIns.test.ts).
import "./lib/time";
import { breakages } from "./testing/invariants.breakages";
import { buildScene, goneId, nyWed, patchStats, sceneItemDoc } from "./testing/invariants.scene";
import { INVARIANT_PARTS } from "./model/invariants/check";
import { triggers } from "./triggers";
import { createUser, newComicAndMic, newTest, type TestBackend } from "./testing/test.setup";
import { useFrozenClock } from "./testing/test.clock";

// Seeding hashes two passwords (scrypt): slow on a busy machine.
vi.setConfig({ testTimeout: 60_000 });

useFrozenClock(nyWed("19:45"));

/** The paged check (checkAll), `numItems` rows per page of each table. */
async function checkAll(t: TestBackend, numItems?: number) {
  return await t.action(internal.invariants.checkAll, numItems === undefined ? {} : { numItems });
}

describe("invariants:checkAll (the paged check)", () => {
  test("passes on a sound scene, a page of one row at a time or the default pages", async () => {
    const { t } = await buildScene();
    for (const numItems of [1, 2, undefined]) {
      const report = await checkAll(t, numItems);
      expect(report.problems).toEqual([]);
      expect(report.ok).toBe(true);
    }
    // It really walked the rows: 5 sets logged, one deleted; pages of one row each.
    const report = await checkAll(t, 1);
    expect(report.rowsChecked).toMatchObject({ performances: 4, checkIns: 2, sceneItems: 2, profiles: 3 });
    expect(report.pages).toBeGreaterThan(20);
  });

  test("passes on the seeded demo scene", async () => {
    vi.useRealTimers();
    const t = newTest();
    await t.action(dev.seed.run, {});
    const report = await checkAll(t, 7);
    expect(report.problems).toEqual([]);
  });

  // Pages of one row: every broken row but the very first of its table lies
  // beyond the first page, and totals (stats, streaks, counters) are added up
  // over many pages. The report must be exactly the one of the default pages,
  // which hold each table of this scene whole.
  test.each(breakages)("finds $name beyond the first page, as in one page", async ({ breakIt, problem }) => {
    const scene = await buildScene();
    await breakIt(scene);
    const whole = await checkAll(scene.t);
    expect(whole.pages).toBe(INVARIANT_PARTS.length);
    const paged = await checkAll(scene.t, 1);
    expect(paged.ok).toBe(false);
    expect(paged.problems).toEqual(expect.arrayContaining([expect.stringMatching(problem)]));
    expect([...paged.problems].sort()).toEqual([...whole.problems].sort());
    const twoRowPages = await checkAll(scene.t, 2);
    expect([...twoRowPages.problems].sort()).toEqual([...whole.problems].sort());
  });

  test("checks a table too big to read in one query, whole", async () => {
    const { t, comic, mic } = await newComicAndMic();
    await t.run(async (ctx) => {
      // The first entry goes through the triggers (it makes the follower row); the rest change nothing there.
      await triggers.wrapDB(ctx).db.insert("scheduleEntries", { userId: comic.userId, sceneItemId: mic, addedAt: 0 });
      for (let i = 1; i <= 2000; i++)
        await ctx.db.insert("scheduleEntries", { userId: comic.userId, sceneItemId: mic, addedAt: i });
    });
    const report = await checkAll(t);
    expect(report).toMatchObject({ ok: true, problems: [] });
    expect(report.rowsChecked.scheduleEntries).toBe(2001);

    // ... and still finds a broken row at the very end.
    const gone = await goneId(t, (ctx) => ctx.db.insert("sceneItems", sceneItemDoc()), "sceneItems");
    await t.run(async (ctx) => {
      await ctx.db.insert("scheduleEntries", { userId: comic.userId, sceneItemId: gone, addedAt: 1 });
    });
    const broken = await checkAll(t);
    expect(broken.problems).toEqual([expect.stringMatching(/^scheduleEntries \S+: mic \S+ does not exist$/)]);
  });

  test("counts a pile of duplicate rows without reading past Convex's 32,000 documents per query", async () => {
    const { t, comic, mic } = await newComicAndMic();
    await t.run(async (ctx) => {
      await triggers.wrapDB(ctx).db.insert("favorites", { userId: comic.userId, sceneItemId: mic });
      for (let i = 1; i < 200; i++) await ctx.db.insert("favorites", { userId: comic.userId, sceneItemId: mic });
    });
    const report = await checkAll(t);
    expect(report.rowsChecked.favorites).toBe(200);
    expect(report.problems).toEqual([expect.stringMatching(/^favorites: 20 or more rows for user \S+ for mic \S+$/)]);
  });

  test("adds a streak up over day rows split across pages", async () => {
    const t = newTest();
    const comic = await createUser(t);
    // Five consecutive days, a gap, then two days: longest 5, current 2.
    const dates = ["2026-11-10", "2026-11-11", "2026-11-12", "2026-11-13", "2026-11-14", "2026-11-20", "2026-11-21"];
    for (const date of dates) {
      await comic.asUser.mutation(api.performances.log, {
        minutes: 5,
        performedAt: Date.parse(`${date}T20:00:00-05:00`),
        tags: [],
        timeZone: "America/New_York",
        venueName: "The Loft",
      });
    }
    for (const numItems of [1, 2, 3, 4]) expect((await checkAll(t, numItems)).problems).toEqual([]);
    await patchStats(t, comic, { longestStreak: 4, currentStreak: 3 });
    for (const numItems of [1, 2, 3, 4]) {
      expect((await checkAll(t, numItems)).problems.sort()).toEqual([
        expect.stringMatching(/^userStats \S+: currentStreak 3 but the run ending at the last set day is 2$/),
        expect.stringMatching(/^userStats \S+: longestStreak 4 but the day rows give 5$/),
      ]);
    }
  });
  test("counts a day of more sets than one query may read, and still finds a wrong day row", async () => {
    const t = newTest();
    const comic = await createUser(t);
    // 1,001 sets on one day: 1,000 through the triggers (day row, stats and
    // totals kept), the last one logged (which awards the badges).
    const performedAt = Date.parse("2026-11-24T20:00:00-05:00");
    // In batches of 100: each insert's triggers read some twenty index ranges of the 4,096 allowed.
    for (let batch = 0; batch < 10; batch++) {
      await t.run(async (ctx) => {
        const { db } = triggers.wrapDB(ctx);
        for (let i = 0; i < 100; i++) {
          const set = { minutes: 1, performedAt, performanceDate: "2026-11-24", venueName: "The Loft", tags: [] };
          await db.insert("performances", { ...set, userId: comic.userId });
        }
      });
    }
    await comic.asUser.mutation(api.performances.log, {
      minutes: 1,
      performedAt,
      tags: [],
      timeZone: "America/New_York",
      venueName: "The Loft",
    });
    const day = await t.run(async (ctx) => ctx.db.query("performanceDays").unique());
    expect(day?.sets).toBe(1001);
    for (const numItems of [undefined, 300]) expect((await checkAll(t, numItems)).problems).toEqual([]);

    await t.run(async (ctx) => ctx.db.patch("performanceDays", day!._id, { sets: 1000 }));
    for (const numItems of [undefined, 300]) {
      expect((await checkAll(t, numItems)).problems).toEqual([
        expect.stringMatching(/^performanceDays: user \S+ on 2026-11-24 has 1000 but 1001 set\(s\)$/),
      ]);
    }
  });
});
