import type { GenericDatabaseWriter, GenericDataModel } from "convex/server";
import { expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import { communityTotals, createSceneItem, createUser, newTest } from "./testing/test.setup";
import { triggers } from "./triggers";

test("siteStatsToCounters adds the old siteStats row to the sharded counters once, then deletes it", async () => {
  const t = newTest();
  // A database from before the move: its one figures row (no longer in the schema) ...
  await t.run(async (ctx) => {
    const legacy = ctx.db as unknown as GenericDatabaseWriter<GenericDataModel>;
    await legacy.insert("siteStats", { key: "global", venues: 40, minutesLogged: 6000, comedians: 12, cities: 5 });
  });
  // ... and what changed after the deploy, already on the counters.
  await createSceneItem(t, { city: "Boston" });
  await createUser(t);
  expect(await t.query(api.community.stats, {})).toEqual({ venues: 1, hoursLogged: 0, cities: 1, comedians: 1 });

  expect(await t.mutation(internal.migrations.siteStatsToCounters, {})).toEqual({
    migrated: true,
    totals: { venues: 40, minutesLogged: 6000, comedians: 12, cities: 5 },
  });
  expect(await communityTotals(t)).toEqual({ venues: 41, minutesLogged: 6000, comedians: 13, cities: 6 });
  expect(await t.query(api.community.stats, {})).toEqual({ venues: 41, hoursLogged: 100, cities: 6, comedians: 13 });
  const left = await t.run(async (ctx) =>
    (ctx.db as unknown as GenericDatabaseWriter<GenericDataModel>).query("siteStats").collect(),
  );
  expect(left).toEqual([]);

  // A second run (or a database made after the move) changes nothing.
  expect(await t.mutation(internal.migrations.siteStatsToCounters, {})).toEqual({ migrated: false, totals: {} });
  expect(await communityTotals(t)).toEqual({ venues: 41, minutesLogged: 6000, comedians: 13, cities: 6 });
});

test("sceneAreaCells gives items from before areaCell their cell, page by page, and Tonight around a point finds them", async () => {
  const t = newTest();
  const old = await createSceneItem(t, {
    title: "Old mic",
    dayOfWeek: 3,
    startTimeLocal: "20:00",
    areaCell: undefined,
  });
  const fresh = await createSceneItem(t, { title: "New mic", dayOfWeek: 3, startTimeLocal: "21:00" });
  const noCoords = await createSceneItem(t, { title: "Nowhere", latitude: undefined, longitude: undefined });
  const wednesdayEvening = {
    nowMs: Date.parse("2026-11-25T19:45:00-05:00"),
    timeZone: "America/New_York",
    area: { lat: 40.7411, lng: -73.9897, radiusMiles: 10 },
    type: "all" as const,
    search: "",
    filters: { freeOnly: false, signup: "any" as const, timeOfDay: "any" as const, hideStale: false },
    paginationOpts: { numItems: 10, cursor: null },
  };
  const titles = async () => (await t.query(api.tonight.list, wednesdayEvening)).page.map((n) => n.item.title);
  expect(await titles()).toEqual(["New mic"]);

  let cursor: string | null = null;
  let updated = 0;
  for (;;) {
    const result: { updated: number; isDone: boolean; continueCursor: string } = await t.mutation(
      internal.migrations.sceneAreaCells,
      { cursor },
    );
    updated += result.updated;
    if (result.isDone) break;
    cursor = result.continueCursor;
  }
  expect(updated).toBe(1);
  const cells = await t.run(async (ctx) =>
    Promise.all([old, fresh, noCoords].map(async (id) => (await ctx.db.get("sceneItems", id))?.areaCell ?? null)),
  );
  expect(cells).toEqual(["dr5r", "dr5r", null]);
  expect(await titles()).toEqual(["Old mic", "New mic"]);
  // A second run changes nothing.
  expect((await t.mutation(internal.migrations.sceneAreaCells, {})).updated).toBe(0);
});

test("zeroMinuteSets deletes the sets once saved with 0 minutes, and the comedian's totals follow", async () => {
  const t = newTest();
  const comic = await createUser(t);
  const mic = await createSceneItem(t);
  const evening = (day: number) => Date.parse(`2026-11-${day}T20:00:00-05:00`);
  const kept = await comic.asUser.mutation(api.performances.log, {
    minutes: 5,
    performedAt: evening(18),
    sceneItemId: mic,
    tags: [],
  });
  const blank = await comic.asUser.mutation(api.performances.log, {
    minutes: 7,
    performedAt: evening(19),
    sceneItemId: mic,
    tags: [],
  });
  // What the old forms stored for an empty minutes field, written as they did (through the triggers).
  await t.run(async (ctx) => {
    await triggers.wrapDB(ctx).db.patch("performances", blank.performanceId, { minutes: 0 });
  });
  expect(await comic.asUser.query(api.stats.mine, {})).toMatchObject({ totalMinutes: 5, totalSets: 2 });

  let cursor: string | null = null;
  let deleted = 0;
  for (;;) {
    const result: { deleted: number; isDone: boolean; continueCursor: string } = await t.mutation(
      internal.migrations.zeroMinuteSets,
      { cursor },
    );
    deleted += result.deleted;
    if (result.isDone) break;
    cursor = result.continueCursor;
  }
  expect(deleted).toBe(1);
  const left = await t.run(async (ctx) => (await ctx.db.query("performances").collect()).map((p) => p._id));
  expect(left).toEqual([kept.performanceId]);
  expect(await comic.asUser.query(api.stats.mine, {})).toMatchObject({ totalMinutes: 5, totalSets: 1 });
  // A second run changes nothing.
  expect((await t.mutation(internal.migrations.zeroMinuteSets, {})).deleted).toBe(0);
});

test("performanceWeeks builds the week rows and week streak of a history from before them, once", async () => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Date.parse("2026-11-20T22:00:00-05:00")); // Friday, week of Nov 15
  try {
    const t = newTest();
    const comic = await createUser(t, { withStats: true, profile: { timeZone: "America/New_York" } });
    // Sets written before the table existed: no trigger ran for them.
    await t.run(async (ctx) => {
      for (const [date, minutes] of [
        ["2026-11-03", 10],
        ["2026-11-05", 10],
        ["2026-11-10", 15],
        ["2026-11-18", 30],
      ] as const) {
        const performedAt = Date.parse(`${date}T21:00:00-05:00`);
        await ctx.db.insert("performances", {
          userId: comic.userId,
          minutes,
          performedAt,
          performanceDate: date,
          tags: [],
        });
      }
    });
    const weeks = async () =>
      await t.run(async (ctx) =>
        (await ctx.db.query("performanceWeeks").collect()).map((w) => [w.weekStart, w.minutes, w.sets, w.goal]),
      );
    expect(await weeks()).toEqual([]);

    expect(await t.mutation(internal.migrations.performanceWeeks, {})).toMatchObject({ updated: 1, isDone: true });
    expect(await weeks()).toEqual([
      ["2026-11-01", 20, 2, 15],
      ["2026-11-08", 15, 1, 15],
      ["2026-11-15", 30, 1, 15],
    ]);
    const stats = await t.run(async (ctx) => await ctx.db.query("userStats").unique());
    expect(stats?.longestWeekStreak).toBe(3);

    // A second run leaves the rows alone.
    expect(await t.mutation(internal.migrations.performanceWeeks, {})).toMatchObject({ updated: 0 });
    expect(await weeks()).toHaveLength(3);
  } finally {
    vi.useRealTimers();
  }
});
