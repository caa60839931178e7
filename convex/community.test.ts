import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import { addToCommunityTotal, onSceneItemCreated, onSceneItemRemoved, onSceneItemUpdated } from "./model/stats";
import { createSceneItem, createUser, newTest } from "./testing/test.setup";
import { triggers } from "./triggers";

describe("community.stats", () => {
  test("is all zeros on an empty database, for anyone", async () => {
    const t = newTest();
    expect(await t.query(api.community.stats, {})).toEqual({
      venues: 0,
      hoursLogged: 0,
      cities: 0,
      comedians: 0,
    });
  });

  test("counts active items, distinct cities and comedians", async () => {
    const t = newTest();
    await createSceneItem(t, { city: "New York" });
    await createSceneItem(t, { city: "New York", title: "Second NYC mic" });
    await createSceneItem(t, { city: "Chicago" });
    await createSceneItem(t, { city: "Austin", status: "inactive" });
    const { asUser } = await createUser(t);
    await createUser(t);
    expect(await asUser.query(api.community.stats, {})).toEqual({
      venues: 3,
      hoursLogged: 0,
      cities: 2,
      comedians: 2,
    });
  });

  test("hours logged are whole hours of the minutes logged", async () => {
    const t = newTest();
    const { userId } = await createUser(t);
    const set = { userId, performedAt: 1, performanceDate: "2026-01-05", venueName: "Room", tags: [] };
    // Written as every mutation writes (through the triggers): the sets own the total.
    const short = await t.run(async (ctx) => {
      const { db } = triggers.wrapDB(ctx);
      await db.insert("performances", { ...set, minutes: 100 });
      return await db.insert("performances", { ...set, minutes: 25 });
    });
    expect((await t.query(api.community.stats, {})).hoursLogged).toBe(2);
    await t.run(async (ctx) => triggers.wrapDB(ctx).db.patch("performances", short, { minutes: 15 }));
    expect((await t.query(api.community.stats, {})).hoursLogged).toBe(1);
  });
});

describe("stats helpers", () => {
  test("a city stops counting when its last active item goes, not before", async () => {
    const t = newTest();
    const chicagoA = { city: "Chicago", status: "active" as const };
    await t.run(async (ctx) => {
      await onSceneItemCreated(ctx, chicagoA);
      await onSceneItemCreated(ctx, { city: " Chicago ", status: "active" });
      await onSceneItemCreated(ctx, { city: "Austin", status: "active" });
    });
    expect(await t.query(api.community.stats, {})).toMatchObject({ venues: 3, cities: 2 });

    await t.run(async (ctx) => onSceneItemRemoved(ctx, chicagoA));
    expect(await t.query(api.community.stats, {})).toMatchObject({ venues: 2, cities: 2 });

    await t.run(async (ctx) => onSceneItemRemoved(ctx, chicagoA));
    expect(await t.query(api.community.stats, {})).toMatchObject({ venues: 1, cities: 1 });
    const chicago = await t.run(async (ctx) =>
      ctx.db
        .query("cities")
        .withIndex("by_name", (q) => q.eq("name", "Chicago"))
        .unique(),
    );
    expect(chicago).toBeNull();
  });

  test("an edit that moves an item to a new city or deactivates it re-counts", async () => {
    const t = newTest();
    const before = { city: "Brooklyn", status: "active" as const };
    await t.run(async (ctx) => onSceneItemCreated(ctx, before));
    const moved = { city: "Philadelphia", status: "active" as const };
    await t.run(async (ctx) => onSceneItemUpdated(ctx, { before, after: moved }));
    expect(await t.query(api.community.stats, {})).toMatchObject({ venues: 1, cities: 1 });
    await t.run(async (ctx) => onSceneItemUpdated(ctx, { before: moved, after: { ...moved, status: "inactive" } }));
    expect(await t.query(api.community.stats, {})).toMatchObject({ venues: 0, cities: 0 });
  });

  test("inactive items and unchanged edits leave the figures alone", async () => {
    const t = newTest();
    const item = { city: "Los Angeles", status: "active" as const };
    await t.run(async (ctx) => {
      await onSceneItemCreated(ctx, { city: "Austin", status: "inactive" });
      await onSceneItemCreated(ctx, item);
      await onSceneItemUpdated(ctx, { before: item, after: { ...item } });
    });
    expect(await t.query(api.community.stats, {})).toMatchObject({ venues: 1, cities: 1 });
  });

  test("comedian counts go up and down, never below zero", async () => {
    const t = newTest();
    const [a, b] = [await createUser(t), await createUser(t)];
    const deleteProfile = (profileId: typeof a.profileId) =>
      t.run(async (ctx) => triggers.wrapDB(ctx).db.delete("profiles", profileId));
    await deleteProfile(a.profileId);
    expect((await t.query(api.community.stats, {})).comedians).toBe(1);
    await deleteProfile(b.profileId);
    // A total that drifted below zero (a bug, a bad import) still shows 0.
    await t.run(async (ctx) => addToCommunityTotal(ctx, "comedians", -1));
    expect((await t.query(api.community.stats, {})).comedians).toBe(0);
  });
});
