import { afterEach, describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { communityTotals, createSceneItem, createUser, newTest, type TestBackend } from "./testing/test.setup";
import { checkAllInvariants } from "./testing/test.invariants";
import { newSigningKey, stubAuthEnv } from "./testing/test.auth";
import { log, rows } from "./testing/test.performances";
import { triggers } from "./triggers";

// Password hashing (scrypt) is slow on a busy machine.
vi.setConfig({ testTimeout: 30_000 });

afterEach(() => {
  vi.unstubAllEnvs();
});

/** Writes as any mutation built in functions.ts writes: through the triggers (model/statsTriggers). */
async function write<T>(t: TestBackend, f: (db: ReturnType<typeof triggers.wrapDB>["db"]) => Promise<T>): Promise<T> {
  return await t.run(async (ctx) => await f(triggers.wrapDB(ctx).db));
}

describe("stats triggers: a set written by any mutation moves everything derived from it", () => {
  test("insert, edit, move and delete keep totals, day and venue rows and the community minutes", async () => {
    const t = newTest();
    const comic = await createUser(t, { profile: { timeZone: "UTC" } });
    const [micA, micB] = [await createSceneItem(t), await createSceneItem(t, { title: "Other Mic" })];
    const set = { userId: comic.userId, performedAt: Date.now(), tags: [] };
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

    const first = await write(t, (db) =>
      db.insert("performances", { ...set, minutes: 10, performanceDate: yesterday, sceneItemId: micA }),
    );
    const second = await write(t, (db) =>
      db.insert("performances", { ...set, minutes: 5, performanceDate: today, sceneItemId: micA }),
    );
    let d = await rows(t, comic.userId);
    expect(d.stats).toMatchObject({ totalMinutes: 15, totalSets: 2, uniqueVenues: 1, currentStreak: 2 });
    expect(d.stats).toMatchObject({ longestStreak: 2, lastSetDate: today });
    expect(d.days).toEqual([
      [yesterday, 1],
      [today, 1],
    ]);
    expect(d.visits).toEqual([[micA, 2]]);
    expect(d.siteMinutes).toBe(15);

    // An edit: longer, and at the other mic.
    await write(t, (db) => db.patch("performances", second, { minutes: 8, sceneItemId: micB }));
    d = await rows(t, comic.userId);
    expect(d.stats).toMatchObject({ totalMinutes: 18, totalSets: 2, uniqueVenues: 2 });
    expect(d.visits.map(([mic, sets]) => `${mic}:${sets}`).sort()).toEqual([`${micA}:1`, `${micB}:1`].sort());
    expect(d.siteMinutes).toBe(18);

    // A delete: its day and visit rows go, the streak follows.
    await write(t, (db) => db.delete("performances", first));
    d = await rows(t, comic.userId);
    expect(d.stats).toMatchObject({ totalMinutes: 8, totalSets: 1, uniqueVenues: 1, currentStreak: 1 });
    expect(d.days).toEqual([[today, 1]]);
    expect(d.visits).toEqual([[micB, 1]]);
    expect(d.siteMinutes).toBe(8);

    // Every derived row agrees with a recount (badges are awarded by the write paths, not here).
    const report = await checkAllInvariants(t);
    expect(report.problems.filter((p) => !p.startsWith("userBadges:"))).toEqual([]);
  });

  test("a mic's deletion unlinks its sets: the visits and unique venues go, minutes and streaks stay", async () => {
    const t = newTest();
    const admin = await createUser(t, { isAdmin: true });
    const comic = await createUser(t);
    const mic = await createSceneItem(t);
    await log(comic, mic, 7, Date.now() - 60_000);
    const before = await rows(t, comic.userId);
    expect(before.stats).toMatchObject({ uniqueVenues: 1, totalMinutes: 7 });
    expect(await admin.asUser.mutation(api.scene.remove, { id: mic })).toEqual({ updatedSets: 1 });
    const after = await rows(t, comic.userId);
    expect(after.visits).toEqual([]);
    expect(after.stats).toMatchObject({
      uniqueVenues: 0,
      totalMinutes: 7,
      totalSets: 1,
      currentStreak: before.stats!.currentStreak,
    });
    expect(after.siteMinutes).toBe(7);
  });

  test("venuesAdded counts the mics whose createdBy is the comedian, whichever write adds, moves or deletes one", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const other = await createUser(t);
    const admin = await createUser(t, { isAdmin: true });
    const added = async (userId: Id<"users">) => (await rows(t, userId)).stats?.venuesAdded ?? 0;

    // A write that is not the add-event path (here the test fixture, through the triggers).
    const mic = await createSceneItem(t, { createdBy: comic.userId });
    expect(await added(comic.userId)).toBe(1);
    await write(t, (db) => db.patch("sceneItems", mic, { createdBy: other.userId }));
    expect([await added(comic.userId), await added(other.userId)]).toEqual([0, 1]);
    await write(t, (db) => db.patch("sceneItems", mic, { title: "Renamed Mic" }));
    expect(await added(other.userId)).toBe(1);
    await write(t, (db) => db.delete("sceneItems", mic));
    expect(await added(other.userId)).toBe(0);

    // The add-event path, and a deletion through the app.
    const { sceneItemId } = await comic.asUser.mutation(api.events.create, {
      venue: { venueName: "The Creek and the Cave", address: "10-93 Jackson Ave, Long Island City, NY 11101" },
      details: {
        type: "open_mic",
        title: "Monday Night Mic",
        dayOfWeek: 1,
        startTimeLocal: "19:00",
        recurrence: "weekly",
        signupMethod: "in_person",
        costInfo: { type: "free" },
      },
    });
    expect(await comic.asUser.query(api.stats.mine, {})).toMatchObject({ venuesAdded: 1 });
    await admin.asUser.mutation(api.scene.remove, { id: sceneItemId! });
    expect(await comic.asUser.query(api.stats.mine, {})).toMatchObject({ venuesAdded: 0 });
  });

  test("a profile counts a comedian whoever writes it, Convex Auth's sign-up included", async () => {
    stubAuthEnv(await newSigningKey());
    const t = newTest();
    await t.action(api.auth.signIn, {
      provider: "password",
      params: { email: "counted@example.com", password: "secret1", flow: "signUp" },
    });
    expect((await t.query(api.community.stats, {})).comedians).toBe(1);
    const comic = await createUser(t);
    expect((await communityTotals(t)).comedians).toBe(2);
    await write(t, (db) => db.delete("profiles", comic.profileId));
    expect((await communityTotals(t)).comedians).toBe(1);
  });
});
