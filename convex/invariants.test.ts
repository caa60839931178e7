import { describe, expect, test, vi } from "vitest";
import { internal as dev } from "../convex-dev/_generated/api";
import { api, internal } from "./_generated/api";
// Load @date-fns/tz before fake timers replace Date (see checkIns.test.ts).
import "./lib/time";
import { breakages } from "./testing/invariants.breakages";
import { buildScene, goneId, nyWed, sceneItemDoc } from "./testing/invariants.scene";
import { checkAllInvariants } from "./testing/test.invariants";
import { createSceneItem, createUser, newTest, type TestBackend, type TestUser } from "./testing/test.setup";
import { useFrozenClock } from "./testing/test.clock";
import { expectAppError } from "./testing/test.expect";

// Seeding hashes two passwords (scrypt): slow on a busy machine.
vi.setConfig({ testTimeout: 60_000 });

async function expectOk(t: TestBackend) {
  const report = await checkAllInvariants(t);
  expect(report.problems).toEqual([]);
  expect(report.ok).toBe(true);
}

useFrozenClock(nyWed("19:45"));

describe("the invariant check passes", () => {
  test("on an empty database", async () => {
    await expectOk(newTest());
  });

  test("on the seeded demo scene", async () => {
    vi.useRealTimers();
    const t = newTest();
    await t.action(dev.seed.run, {});
    await expectOk(t);
  });

  test("on a scene built through the public functions, which it really looked at", async () => {
    const { t, mic } = await buildScene();
    await expectOk(t);
    const item = await t.run(async (ctx) => ctx.db.get("sceneItems", mic));
    expect(item).toMatchObject({ checkInCount: 2, verifiedCheckIns30d: 2 });
  });
});

describe("deleting a mic", () => {
  test("unlinks every comedian's sets, keeps their venue name and takes it out of their unique venues", async () => {
    const { t, mic, ana, ben, admin } = await buildScene();
    const statsOf = async (u: TestUser) => await u.asUser.query(api.stats.mine, {});
    expect((await statsOf(ana)).uniqueVenues).toBe(2);
    expect((await statsOf(ben)).uniqueVenues).toBe(1);

    expect(await admin.asUser.mutation(api.admin.deleteMic, { id: mic })).toEqual({ updatedSets: 3 });

    expect(await statsOf(ana)).toMatchObject({ uniqueVenues: 1, totalSets: 3, totalMinutes: 24 });
    expect(await statsOf(ben)).toMatchObject({ uniqueVenues: 0, totalSets: 1, totalMinutes: 6 });
    const rows = await t.run(async (ctx) => ({
      sets: await ctx.db.query("performances").take(100),
      visits: await ctx.db
        .query("venueVisits")
        .withIndex("by_item", (q) => q.eq("sceneItemId", mic))
        .take(100),
    }));
    expect(rows.visits).toEqual([]);
    expect(rows.sets.filter((s) => s.sceneItemId === mic)).toEqual([]);
    expect(rows.sets.filter((s) => s.venueName === "The Test Room")).toHaveLength(3);
    await expectOk(t);
  });

  test("by its creator is refused once another comedian logged a set there; every set stays linked", async () => {
    const t = newTest();
    const creator = await createUser(t);
    const fan = await createUser(t);
    const mic = await createSceneItem(t, { createdBy: creator.userId });
    for (const who of [creator, fan]) {
      await who.asUser.mutation(api.performances.log, {
        minutes: 5,
        performedAt: nyWed("12:00"),
        sceneItemId: mic,
        tags: [],
      });
    }
    await expectAppError(creator.asUser.mutation(api.scene.remove, { id: mic }), "FORBIDDEN");
    expect((await fan.asUser.query(api.stats.mine, {})).uniqueVenues).toBe(1);
    await expectOk(t);
  });
});

describe("the invariant check fails with a clear line", () => {
  test.each(breakages)("on $name", async ({ breakIt, problem }) => {
    const scene = await buildScene();
    await expectOk(scene.t);
    await breakIt(scene);
    const report = await checkAllInvariants(scene.t);
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual(expect.arrayContaining([expect.stringMatching(problem)]));
  });
});

test("a table too big to read in one query is checked whole, not passed silently", async () => {
  const t = newTest();
  const comic = await createUser(t);
  const gone = await goneId(t, (ctx) => ctx.db.insert("sceneItems", sceneItemDoc()), "sceneItems");
  await t.run(async (ctx) => {
    for (let i = 0; i <= 2000; i++) {
      await ctx.db.insert("problemReports", { micId: gone, reporterId: comic.userId, kind: "other", status: "open" });
    }
  });
  const report = await t.action(internal.invariants.checkAll, {});
  expect(report.ok).toBe(false);
  expect(report.rowsChecked.problemReports).toBe(2001);
  // Every one of the 2,001 broken rows is reported, the last as the first.
  expect(report.problems).toHaveLength(2001);
  expect(new Set(report.problems).size).toBe(2001);
  for (const line of report.problems) expect(line).toMatch(/^problemReports \S+: mic \S+ does not exist$/);
});
