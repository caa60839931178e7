import { describe, expect, test, vi } from "vitest";
import { internal as dev } from "../convex-dev/_generated/api";
import { api, internal } from "./_generated/api";
import type { Doc, Id } from "./_generated/dataModel";
import type { MutationCtx } from "./_generated/server";
import { encodeGeohash } from "./lib/geo";
import { foldCheckIns } from "./model/micTriggers";
// Load @date-fns/tz before fake timers replace Date (see checkIns.test.ts).
import "./lib/time";
import { createAdmin, createSceneItem, createUser } from "./testing/test.setup";
import { checkAllInvariants } from "./testing/test.invariants";
import {
  DAY,
  VENUE,
  WEDNESDAY_MIC,
  nyWed,
  seasonedUser,
  t,
  useWednesdayCheckIns,
  checkIn,
  foldQueuedCheckIns,
} from "./testing/test.checkIns";
import { triggers } from "./triggers";

/**
 * The values derived on a mic follow their sources whichever write path made
 * the change (model/micTriggers): the public and internal mutations, and any
 * new one, since every builder of functions.ts writes through `triggers`.
 */

useWednesdayCheckIns();

/** A write made by some mutation: through the triggered `db` every builder of functions.ts hands out. */
async function writeThroughMutation(run: (db: MutationCtx["db"]) => Promise<unknown>): Promise<void> {
  await t.run(async (ctx) => {
    await run(triggers.wrapDB(ctx).db);
  });
}

async function mic(id: Id<"sceneItems">): Promise<Doc<"sceneItems">> {
  return await t.run(async (ctx) => (await ctx.db.get("sceneItems", id))!);
}

async function cities(): Promise<Array<{ name: string; items: number }>> {
  const rows = await t.run(async (ctx) => await ctx.db.query("cities").collect());
  return rows.map(({ name, items }) => ({ name, items })).sort((a, b) => a.name.localeCompare(b.name));
}

async function expectInvariantsOk(): Promise<void> {
  expect((await checkAllInvariants(t)).problems).toEqual([]);
}

/** A comedian whose account is two days old: old enough for their check-ins to verify a mic. */
describe("searchText and geohash", () => {
  test("a mic inserted by an internal mutation gets its search text, geohash and city", async () => {
    const id = await t.mutation(dev.fixtures.insertSceneItem, {
      title: "Night Owls",
      venueName: "Cellar Bar",
      city: "Austin",
      type: "open_mic",
      recurrence: "weekly",
      dayOfWeek: 2,
      latitude: 30.2672,
      longitude: -97.7431,
      timeZone: "America/Chicago",
    });
    expect(await mic(id)).toMatchObject({
      searchText: "night owls cellar bar austin",
      geohash: encodeGeohash(30.2672, -97.7431, 6),
      areaCell: encodeGeohash(30.2672, -97.7431, 4),
    });
    expect(await cities()).toEqual([{ name: "Austin", items: 1 }]);
    await expectInvariantsOk();
  });

  test("any write that changes the title, venue, city or coordinates moves them, and a wrong value is corrected", async () => {
    const id = await createSceneItem(t);
    await writeThroughMutation((db) => db.patch("sceneItems", id, { title: "Renamed", searchText: "stale words" }));
    expect((await mic(id)).searchText).toBe("renamed the test room new york");

    await writeThroughMutation((db) => db.patch("sceneItems", id, { venueName: "Back Room", city: "Brooklyn" }));
    expect((await mic(id)).searchText).toBe("renamed back room brooklyn");

    await writeThroughMutation((db) => db.patch("sceneItems", id, { latitude: 40.6782, longitude: -73.9442 }));
    expect(await mic(id)).toMatchObject({
      geohash: encodeGeohash(40.6782, -73.9442, 6),
      areaCell: encodeGeohash(40.6782, -73.9442, 4),
    });

    await writeThroughMutation((db) => db.patch("sceneItems", id, { latitude: undefined, longitude: undefined }));
    expect((await mic(id)).geohash).toBeUndefined();
    expect((await mic(id)).areaCell).toBeUndefined();

    // A replace without the derived values gets them back too.
    const { _id, _creationTime, ...doc } = await mic(id);
    await writeThroughMutation((db) =>
      db.replace("sceneItems", id, { ...doc, title: "Replaced", searchText: "", ...VENUE, geohash: undefined }),
    );
    expect(await mic(id)).toMatchObject({
      searchText: "replaced back room brooklyn",
      geohash: encodeGeohash(VENUE.latitude, VENUE.longitude, 6),
    });
  });

  test("the geocoding mutation's coordinates move the geohash", async () => {
    const id = await createSceneItem(t, { latitude: undefined, longitude: undefined });
    expect((await mic(id)).geohash).toBeUndefined();
    expect(await t.mutation(internal.geocode.saveCoordinates, { id, latitude: 41.88, longitude: -87.63 })).toBe(true);
    expect(await mic(id)).toMatchObject({
      geohash: encodeGeohash(41.88, -87.63, 6),
      areaCell: encodeGeohash(41.88, -87.63, 4),
    });
  });
});

describe("cities", () => {
  test("follow a mic's city and status through the admin edit and deletion", async () => {
    const admin = await createAdmin(t);
    const a = await createSceneItem(t, { city: "Austin" });
    await createSceneItem(t, { city: " Austin " });
    expect(await cities()).toEqual([{ name: "Austin", items: 2 }]);

    const edit = {
      id: a,
      title: "Test Mic",
      venueName: "The Test Room",
      city: "Boston",
      type: "open_mic" as const,
      dayOfWeek: 1,
      startTimeLocal: "19:30",
      status: "active" as const,
    };
    await admin.asUser.mutation(api.admin.updateMic, edit);
    expect(await cities()).toEqual([
      { name: "Austin", items: 1 },
      { name: "Boston", items: 1 },
    ]);
    expect((await mic(a)).searchText).toBe("test mic the test room boston");

    await admin.asUser.mutation(api.admin.updateMic, { ...edit, status: "inactive" });
    expect(await cities()).toEqual([{ name: "Austin", items: 1 }]);
    await admin.asUser.mutation(api.admin.updateMic, { ...edit, status: "active" });
    await admin.asUser.mutation(api.admin.deleteMic, { id: a });
    expect(await cities()).toEqual([{ name: "Austin", items: 1 }]);
    expect(await t.query(api.community.stats, {})).toMatchObject({ venues: 1, cities: 1 });
    await expectInvariantsOk();
  });
});

describe("check-in count, latest check-in and verification", () => {
  test("a check-in row written by any mutation counts and verifies", async () => {
    // Accounts before the mic: creation times only grow.
    const [ana, ben] = [await seasonedUser(t), await seasonedUser(t)];
    const id = await createSceneItem(t, WEDNESDAY_MIC);
    for (const [who, at] of [
      [ana, nyWed("19:40")],
      [ben, nyWed("19:44")],
    ] as const) {
      await writeThroughMutation((db) =>
        db.insert("checkIns", { userId: who.userId, sceneItemId: id, checkedInAt: at, localDate: "2026-11-25" }),
      );
    }
    // Queued: the mic row takes them in with the fold they scheduled (run here at once).
    expect(await mic(id)).toMatchObject({ checkInCount: 0, verifiedCheckIns30d: 0 });
    await expectInvariantsOk();
    await foldQueuedCheckIns(t);
    expect(await mic(id)).toMatchObject({
      checkInCount: 2,
      lastCheckInAt: nyWed("19:44"),
      verifiedCheckIns30d: 2,
      lastVerifiedAt: nyWed("19:44"),
      verificationExpiresAt: nyWed("19:44") + 30 * DAY,
    });
    await expectInvariantsOk();
  });

  test("deleting a check-in takes it off the count, the latest check-in and the verification that rested on it", async () => {
    // Accounts before the mic: creation times only grow.
    const [ana, ben] = [await seasonedUser(t), await seasonedUser(t)];
    const id = await createSceneItem(t, WEDNESDAY_MIC);
    await checkIn(ana, id);
    vi.setSystemTime(nyWed("19:50"));
    // The result tells Verified as the row stood; the fold (run by checkIn) then verifies.
    expect(await checkIn(ben, id)).toMatchObject({ checkInCount: 2, verified: false });
    expect((await mic(id)).verifiedCheckIns30d).toBe(2);
    const bens = await t.run(
      async (ctx) =>
        (await ctx.db
          .query("checkIns")
          .withIndex("by_user_and_time", (q) => q.eq("userId", ben.userId))
          .first())!,
    );
    await writeThroughMutation((db) => db.delete("checkIns", bens._id));
    expect(await mic(id)).toMatchObject({
      checkInCount: 1,
      lastCheckInAt: nyWed("19:45"),
      verifiedCheckIns30d: 0,
      // As when verification expires: the last verification is still on record.
      lastVerifiedAt: nyWed("19:50"),
    });
    expect((await mic(id)).verificationExpiresAt).toBeUndefined();
    await expectInvariantsOk();
  });

  test("a crowd's folds: the oldest queued check-in's fold takes the queue up to its time; the others stop", async () => {
    const [ana, ben, cat] = [await seasonedUser(t), await seasonedUser(t), await seasonedUser(t)];
    const id = await createSceneItem(t, WEDNESDAY_MIC);
    // Within a second of each other.
    for (const [who, ms] of [
      [ana, 0],
      [ben, 300],
      [cat, 600],
    ] as const) {
      vi.setSystemTime(nyWed("19:45") + ms);
      await who.asUser.mutation(api.checkIns.checkIn, { sceneItemId: id, ...VENUE });
    }
    const queue = await t.run(async (ctx) => await ctx.db.query("micCheckInQueue").collect());
    expect(queue).toHaveLength(3);
    const fold = (queueId: Id<"micCheckInQueue"> | undefined, nowMs: number) =>
      t.run(async (ctx) => await foldCheckIns(ctx, { micId: id, queueId, nowMs }));
    const later = queue[2]._creationTime + 100;
    // Not first in line while the oldest is recent: its fold leaves the queue to the oldest's.
    expect(await fold(queue[1]._id, later)).toEqual({ folded: 0, more: false });
    // Up to a time before the last check-in: that one waits for a later fold.
    expect(await fold(queue[0]._id, queue[1]._creationTime)).toEqual({ folded: 2, more: false });
    expect(await mic(id)).toMatchObject({ checkInCount: 2, verifiedCheckIns30d: 2 });
    await expectInvariantsOk();
    // A fold whose row was taken stops; the last one's own fold takes it.
    expect(await fold(queue[0]._id, later)).toEqual({ folded: 0, more: false });
    expect(await fold(queue[2]._id, later)).toEqual({ folded: 1, more: false });
    expect(await mic(id)).toMatchObject({ checkInCount: 3, verifiedCheckIns30d: 3 });
    await expectInvariantsOk();
  });

  test("deleting a verifier's account un-verifies the mic and keeps every invariant", async () => {
    const [ana, ben, cat] = [await seasonedUser(t), await seasonedUser(t), await seasonedUser(t)];
    const id = await createSceneItem(t, WEDNESDAY_MIC);
    for (const who of [ana, ben]) await checkIn(who, id);
    expect((await mic(id)).verifiedCheckIns30d).toBe(2);

    await ben.asUser.mutation(api.account.deleteAccount, { confirm: "DELETE" });
    expect(await mic(id)).toMatchObject({ checkInCount: 1, verifiedCheckIns30d: 0 });
    await expectInvariantsOk();

    // Two comedians again: Verified again.
    await checkIn(cat, id);
    expect(await mic(id)).toMatchObject({ checkInCount: 2, verifiedCheckIns30d: 2 });
    await expectInvariantsOk();
  });

  test("a count that drifted from its rows is not hidden by a deletion: the checker reports it", async () => {
    const id = await createSceneItem(t, WEDNESDAY_MIC);
    const comic = await createUser(t);
    // A raw write (no triggers) leaves a check-in row the count does not know.
    await t.run(async (ctx) => {
      await ctx.db.insert("checkIns", {
        userId: comic.userId,
        sceneItemId: id,
        checkedInAt: nyWed("19:40"),
        localDate: "2026-11-25",
      });
    });
    await comic.asUser.mutation(api.account.deleteAccount, { confirm: "DELETE" });
    expect((await mic(id)).checkInCount).toBe(-1);
    expect((await checkAllInvariants(t)).problems).toContainEqual(
      expect.stringMatching(/checkInCount -1 but 0 check-in rows$/),
    );
  });

  test("deleting a mic with check-ins uncounts its city and leaves nothing behind", async () => {
    const comics = [await seasonedUser(t), await seasonedUser(t)];
    const id = await createSceneItem(t, { ...WEDNESDAY_MIC, city: "Chicago" });
    const admin = await createAdmin(t);
    expect((await mic(id)).checkInCount).toBe(0);
    for (const who of comics) {
      await checkIn(who, id);
    }
    await admin.asUser.mutation(api.admin.deleteMic, { id });
    expect(await cities()).toEqual([]);
    expect(await t.run(async (ctx) => await ctx.db.query("checkIns").collect())).toEqual([]);
    await expectInvariantsOk();
  });
});
