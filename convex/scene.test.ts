import { describe, expect, test } from "vitest";
import { internal as dev } from "../convex-dev/_generated/api";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import type { MutationCtx } from "./_generated/server";
import { encodeGeohash } from "./lib/geo";
import {
  communityTotals,
  createAdmin,
  createSceneItem,
  createUser,
  newTest,
  type TestBackend,
} from "./testing/test.setup";
import { expectAppError } from "./testing/test.expect";
import { IN_USE_MESSAGE } from "./model/scene";

async function countRows(t: TestBackend, id: Id<"sceneItems">) {
  return await t.run(async (ctx) => {
    const [favorites, entries, checkIns, claims, reports] = await Promise.all([
      ctx.db
        .query("favorites")
        .withIndex("by_item", (q) => q.eq("sceneItemId", id))
        .collect(),
      ctx.db
        .query("scheduleEntries")
        .withIndex("by_item", (q) => q.eq("sceneItemId", id))
        .collect(),
      ctx.db
        .query("checkIns")
        .withIndex("by_item_and_time", (q) => q.eq("sceneItemId", id))
        .collect(),
      ctx.db
        .query("micClaims")
        .withIndex("by_mic_and_claimant", (q) => q.eq("micId", id))
        .collect(),
      ctx.db
        .query("problemReports")
        .withIndex("by_mic", (q) => q.eq("micId", id))
        .collect(),
    ]);
    return {
      favorites: favorites.length,
      entries: entries.length,
      checkIns: checkIns.length,
      claims: claims.length,
      reports: reports.length,
    };
  });
}

describe("scene.get", () => {
  test("returns an active item and null for a malformed, missing or inactive id", async () => {
    const t = newTest();
    const active = await createSceneItem(t, { title: "Open" });
    const inactive = await createSceneItem(t, { status: "inactive" });
    const deleted = await createSceneItem(t);
    await t.run(async (ctx) => ctx.db.delete("sceneItems", deleted));
    expect(await t.query(api.scene.get, { id: active })).toMatchObject({
      _id: active,
      title: "Open",
    });
    expect(await t.query(api.scene.get, { id: "not-an-id" })).toBeNull();
    expect(await t.query(api.scene.get, { id: inactive })).toBeNull();
    expect(await t.query(api.scene.get, { id: deleted })).toBeNull();
    const profileId = (await createUser(t)).profileId;
    expect(await t.query(api.scene.get, { id: profileId })).toBeNull();
  });
});

describe("scene.viewerState", () => {
  test("is null when signed out", async () => {
    const t = newTest();
    expect(await t.query(api.scene.viewerState, { sinceMs: 0 })).toBeNull();
  });

  test("lists the caller's own favourites, schedule and check-ins since sinceMs", async () => {
    const t = newTest();
    const mic = await createSceneItem(t);
    const other = await createSceneItem(t);
    const me = await createUser(t);
    const someoneElse = await createUser(t);
    const ids = await t.run(async (ctx) => {
      await ctx.db.insert("favorites", { userId: me.userId, sceneItemId: mic });
      await ctx.db.insert("favorites", { userId: someoneElse.userId, sceneItemId: other });
      const entryId = await ctx.db.insert("scheduleEntries", {
        userId: me.userId,
        sceneItemId: other,
        addedAt: 5_000,
      });
      await ctx.db.insert("checkIns", {
        userId: me.userId,
        sceneItemId: mic,
        checkedInAt: 1_000,
        localDate: "2026-11-01",
      });
      await ctx.db.insert("checkIns", {
        userId: me.userId,
        sceneItemId: mic,
        checkedInAt: 9_000,
        localDate: "2026-11-08",
      });
      await ctx.db.insert("checkIns", {
        userId: someoneElse.userId,
        sceneItemId: mic,
        checkedInAt: 9_500,
        localDate: "2026-11-08",
      });
      return { entryId };
    });
    const state = await me.asUser.query(api.scene.viewerState, { sinceMs: 2_000 });
    expect(state).toEqual({
      favoriteIds: [mic],
      schedule: [{ entryId: ids.entryId, sceneItemId: other, addedAt: 5_000 }],
      recentCheckIns: [{ sceneItemId: mic, localDate: "2026-11-08", checkedInAt: 9_000 }],
      isAdmin: false,
      userId: me.userId,
    });
    const admin = await createAdmin(t);
    expect((await admin.asUser.query(api.scene.viewerState, { sinceMs: 0 }))?.isAdmin).toBe(true);
  });
});

describe("scene.remove", () => {
  async function itemWithEverything(t: TestBackend) {
    const creator = await createUser(t);
    const fan = await createUser(t);
    const mic = await createSceneItem(t, { createdBy: creator.userId, venueName: "Laugh Cellar" });
    const ids = await t.run(async (ctx) => {
      const creatorSet = await ctx.db.insert("performances", {
        userId: creator.userId,
        minutes: 5,
        performedAt: 1_000,
        performanceDate: "2026-11-01",
        sceneItemId: mic,
        tags: [],
      });
      const fanSet = await ctx.db.insert("performances", {
        userId: fan.userId,
        minutes: 7,
        performedAt: 2_000,
        performanceDate: "2026-11-02",
        sceneItemId: mic,
        tags: [],
      });
      await ctx.db.insert("favorites", { userId: fan.userId, sceneItemId: mic });
      await ctx.db.insert("scheduleEntries", { userId: fan.userId, sceneItemId: mic, addedAt: 1 });
      await ctx.db.insert("checkIns", {
        userId: fan.userId,
        sceneItemId: mic,
        checkedInAt: 1,
        localDate: "2026-11-01",
      });
      await ctx.db.insert("micClaims", { micId: mic, claimantId: fan.userId, status: "pending" });
      await ctx.db.insert("problemReports", {
        micId: mic,
        reporterId: fan.userId,
        kind: "wrong_time",
        status: "open",
      });
      return { creatorSet, fanSet };
    });
    return { creator, fan, mic, ...ids };
  }

  test("the creator deletes their item only once nobody else's row points at it, unlinking their sets", async () => {
    const t = newTest();
    const { creator, mic, creatorSet, fanSet } = await itemWithEverything(t);
    // The fan's set, favourite, schedule entry, check-in, claim and report each keep the creator from it.
    await expectAppError(creator.asUser.mutation(api.scene.remove, { id: mic }), "FORBIDDEN", IN_USE_MESSAGE);
    expect(await countRows(t, mic)).toEqual({ favorites: 1, entries: 1, checkIns: 1, claims: 1, reports: 1 });
    // One of the fan's rows at a time: the creator stays refused while any of them is left.
    const removals: Array<(ctx: MutationCtx) => Promise<void>> = [
      async (ctx) => {
        for (const r of await ctx.db
          .query("favorites")
          .withIndex("by_item", (q) => q.eq("sceneItemId", mic))
          .collect())
          await ctx.db.delete("favorites", r._id);
      },
      async (ctx) => {
        for (const r of await ctx.db
          .query("scheduleEntries")
          .withIndex("by_item", (q) => q.eq("sceneItemId", mic))
          .collect())
          await ctx.db.delete("scheduleEntries", r._id);
      },
      async (ctx) => {
        for (const r of await ctx.db
          .query("checkIns")
          .withIndex("by_item_and_time", (q) => q.eq("sceneItemId", mic))
          .collect())
          await ctx.db.delete("checkIns", r._id);
      },
      async (ctx) => {
        for (const r of await ctx.db
          .query("micClaims")
          .withIndex("by_mic_and_claimant", (q) => q.eq("micId", mic))
          .collect())
          await ctx.db.delete("micClaims", r._id);
      },
      async (ctx) => {
        for (const r of await ctx.db
          .query("problemReports")
          .withIndex("by_mic", (q) => q.eq("micId", mic))
          .collect())
          await ctx.db.delete("problemReports", r._id);
      },
    ];
    for (const remove of removals) {
      await t.run(remove);
      await expectAppError(creator.asUser.mutation(api.scene.remove, { id: mic }), "FORBIDDEN", IN_USE_MESSAGE);
    }
    // The fan's set is the last row of theirs.
    await t.run(async (ctx) => {
      await ctx.db.patch("performances", fanSet, { sceneItemId: undefined, venueName: "Laugh Cellar" });
    });
    const venuesBefore = await communityTotals(t);
    expect(await creator.asUser.mutation(api.scene.remove, { id: mic })).toEqual({
      updatedSets: 1,
    });
    const after = await t.run(async (ctx) => ({
      item: await ctx.db.get("sceneItems", mic),
      creatorSet: await ctx.db.get("performances", creatorSet),
    }));
    const afterTotals = await communityTotals(t);
    expect(after.item).toBeNull();
    expect(after.creatorSet?.sceneItemId).toBeUndefined();
    expect(after.creatorSet?.venueName).toBe("Laugh Cellar");
    expect(after.creatorSet?.minutes).toBe(5);
    expect(await countRows(t, mic)).toEqual({
      favorites: 0,
      entries: 0,
      checkIns: 0,
      claims: 0,
      reports: 0,
    });
    expect(afterTotals.venues).toBe(venuesBefore.venues - 1);
  });

  test("an admin deletes anyone's item and unlinks every comedian's sets", async () => {
    const t = newTest();
    const { mic, creatorSet, fanSet } = await itemWithEverything(t);
    const admin = await createAdmin(t);
    expect(await admin.asUser.mutation(api.scene.remove, { id: mic })).toEqual({
      updatedSets: 2,
    });
    const sets = await t.run(async (ctx) =>
      Promise.all([ctx.db.get("performances", creatorSet), ctx.db.get("performances", fanSet)]),
    );
    expect(sets.map((s) => s?.sceneItemId)).toEqual([undefined, undefined]);
    expect(await t.query(api.scene.get, { id: mic })).toBeNull();
  });

  test("anyone else is refused and nothing changes", async () => {
    const t = newTest();
    const { fan, mic, creatorSet } = await itemWithEverything(t);
    await expectAppError(fan.asUser.mutation(api.scene.remove, { id: mic }), "FORBIDDEN");
    await expectAppError(t.mutation(api.scene.remove, { id: mic }), "NOT_SIGNED_IN");
    expect(await t.query(api.scene.get, { id: mic })).not.toBeNull();
    expect(await countRows(t, mic)).toEqual({
      favorites: 1,
      entries: 1,
      checkIns: 1,
      claims: 1,
      reports: 1,
    });
    const set = await t.run(async (ctx) => ctx.db.get("performances", creatorSet));
    expect(set?.sceneItemId).toBe(mic);
  });
});

describe("fixtures.insertSceneItem", () => {
  test("computes search text, geohash and zeroed counters", async () => {
    const t = newTest();
    const creator = await createUser(t);
    const id = await t.mutation(dev.fixtures.insertSceneItem, {
      title: "Late Laughs",
      venueName: "Basement Bar",
      city: "Brooklyn",
      type: "open_mic",
      recurrence: "weekly",
      dayOfWeek: 2,
      startTimeLocal: "21:00",
      latitude: 40.6782,
      longitude: -73.9442,
      timeZone: "America/New_York",
      createdBy: creator.userId,
    });
    const doc = await t.run(async (ctx) => ctx.db.get("sceneItems", id));
    expect(doc).toMatchObject({
      status: "active",
      createdBy: creator.userId,
      checkInCount: 0,
      verifiedCheckIns30d: 0,
      searchText: "late laughs basement bar brooklyn",
      geohash: encodeGeohash(40.6782, -73.9442, 6),
    });
    const scene = await t.query(api.scene.listPage, {
      type: "all",
      day: null,
      search: "",
      paginationOpts: { numItems: 100, cursor: null },
    });
    expect(scene.page.map((i) => i._id)).toEqual([id]);
  });
});
