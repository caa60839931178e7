import type { GenericDatabaseWriter, GenericDataModel } from "convex/server";
import { expect, test } from "vitest";
import { api, internal } from "./_generated/api";
import { communityTotals, createSceneItem, createUser, newTest } from "./test.setup";

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
