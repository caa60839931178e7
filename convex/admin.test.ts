import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { createAdmin, createSceneItem, createUser, newTest, type TestBackend } from "./testing/test.setup";
import { expectAppError } from "./testing/test.expect";
import { allClaims, allOpenReports } from "./testing/test.adminQueues";

async function getItem(t: TestBackend, id: Id<"sceneItems">) {
  return await t.run(async (ctx) => await ctx.db.get("sceneItems", id));
}

async function communityStats(t: TestBackend) {
  return await t.query(api.community.stats, {});
}

const baseEdit = {
  title: "Renamed Mic",
  venueName: "New Room",
  city: "Brooklyn",
  type: "open_mic" as const,
  dayOfWeek: 3,
  startTimeLocal: "20:15",
  status: "active" as const,
};

describe("admin functions refuse anyone but an admin", () => {
  test("anonymous and non-admin callers get errors and nothing changes", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const id = await createSceneItem(t, { title: "Keep Me" });
    const before = await getItem(t, id);

    for (const caller of [t, comic.asUser]) {
      const code = caller === t ? "NOT_SIGNED_IN" : "FORBIDDEN";
      await expectAppError(caller.query(api.admin.listMics, {}), code);
      await expectAppError(caller.mutation(api.admin.updateMic, { id, ...baseEdit }), code);
      await expectAppError(caller.mutation(api.admin.deleteMic, { id }), code);
      await expectAppError(caller.action(api.geocode.fixCoordinates, {}), code);
    }
    expect(await getItem(t, id)).toEqual(before);
  });
});

describe("admin.listMics", () => {
  test("lists every item newest first, inactive ones included", async () => {
    const t = newTest();
    const admin = await createAdmin(t);
    await createSceneItem(t, { title: "Oldest" });
    await createSceneItem(t, { title: "Middle", status: "inactive" });
    await createSceneItem(t, { title: "Newest", type: "booked_show", costInfo: null });
    const items = await admin.asUser.query(api.admin.listMics, {});
    expect(items.map((i) => i.title)).toEqual(["Newest", "Middle", "Oldest"]);
    expect(items[1].status).toBe("inactive");
    expect(items[2].costInfo).toEqual({ type: "free" });
    expect(items[0]).not.toHaveProperty("searchText");
  });

  test("searches title, venue and city case-insensitively over both statuses", async () => {
    const t = newTest();
    const admin = await createAdmin(t);
    await createSceneItem(t, { title: "Laugh Factory Night", venueName: "Room A", city: "Chicago" });
    await createSceneItem(t, { title: "Other", venueName: "Gotham Cellar", city: "New York", status: "inactive" });
    await createSceneItem(t, { title: "Third", venueName: "Room B", city: "Austin" });
    const byTitle = await admin.asUser.query(api.admin.listMics, { search: "LAUGH" });
    expect(byTitle.map((i) => i.title)).toEqual(["Laugh Factory Night"]);
    const byVenue = await admin.asUser.query(api.admin.listMics, { search: "gotham" });
    expect(byVenue.map((i) => i.title)).toEqual(["Other"]);
    const byCity = await admin.asUser.query(api.admin.listMics, { search: "austin" });
    expect(byCity.map((i) => i.title)).toEqual(["Third"]);
    expect(await admin.asUser.query(api.admin.listMics, { search: "zzzz" })).toEqual([]);
    expect(await admin.asUser.query(api.admin.listMics, { search: "   " })).toHaveLength(3);
  });

  test("every search word must start a word of the title, venue or city, as on the scene", async () => {
    const t = newTest();
    const admin = await createAdmin(t);
    await createSceneItem(t, { title: "The Velvet Hour", venueName: "Velvet Room", city: "Chicago" });
    await createSceneItem(t, { title: "Backroom Jokes", venueName: "The Green Room", city: "Chicago" });
    await createSceneItem(t, { title: "The Late Set", venueName: "Corner Bar", city: "Austin", status: "inactive" });
    await createSceneItem(t, { title: "Velvet Lounge", venueName: "Lounge", city: "Austin" });
    const titles = async (search: string) =>
      (await admin.asUser.query(api.admin.listMics, { search })).map((i) => i.title).sort();
    // More words narrow the list, never widen it.
    expect(await titles("velvet")).toEqual(["The Velvet Hour", "Velvet Lounge"]);
    expect(await titles("velvet room")).toEqual(["The Velvet Hour"]);
    expect(await titles("the velvet")).toEqual(["The Velvet Hour"]);
    expect(await titles("room")).toEqual(["Backroom Jokes", "The Velvet Hour"]);
    expect(await titles("room austin")).toEqual([]);
    // Prefixes of words, any order, punctuation ignored; inactive items too.
    expect(await titles("aus lat")).toEqual(["The Late Set"]);
    expect(await titles("Velv, chic!")).toEqual(["The Velvet Hour"]);
    expect(await titles("oom")).toEqual([]);
    expect(await titles("?!")).toEqual([]);
  });
});

describe("admin.updateMic", () => {
  test("saves the fields, recomputes the search text and keeps the geohash", async () => {
    const t = newTest();
    const admin = await createAdmin(t);
    const id = await createSceneItem(t);
    const before = await getItem(t, id);
    const saved = await admin.asUser.mutation(api.admin.updateMic, {
      id,
      ...baseEdit,
      startTimeLocal: "8:15",
      costInfo: { type: "combo", coverAmount: 7.5, minimumItems: 2 },
    });
    expect(saved).toMatchObject({ title: "Renamed Mic", startTimeLocal: "08:15", dayOfWeek: 3 });
    const after = await getItem(t, id);
    expect(after).toMatchObject({
      title: "Renamed Mic",
      venueName: "New Room",
      city: "Brooklyn",
      startTimeLocal: "08:15",
      costInfo: { type: "combo", coverAmount: 7.5, minimumItems: 2 },
      searchText: "renamed mic new room brooklyn",
      geohash: before!.geohash,
      checkInCount: before!.checkInCount,
    });
    const found = await admin.asUser.query(api.admin.listMics, { search: "brooklyn" });
    expect(found.map((i) => i._id)).toEqual([id]);
  });

  test("cost info defaults to fee 5 and 1 item, and another type clears it", async () => {
    const t = newTest();
    const admin = await createAdmin(t);
    const id = await createSceneItem(t);
    await admin.asUser.mutation(api.admin.updateMic, { id, ...baseEdit, costInfo: { type: "combo" } });
    expect((await getItem(t, id))!.costInfo).toEqual({ type: "combo", coverAmount: 5, minimumItems: 1 });
    await admin.asUser.mutation(api.admin.updateMic, {
      id,
      ...baseEdit,
      type: "bringer_show",
      costInfo: { type: "cover", coverAmount: 10 },
    });
    const item = await getItem(t, id);
    expect(item!.type).toBe("bringer_show");
    expect(item!.costInfo).toBeNull();
  });

  test("setting a mic inactive takes it off the scene and out of the landing counts", async () => {
    const t = newTest();
    const admin = await createAdmin(t);
    const id = await createSceneItem(t, { city: "Denver" });
    expect((await communityStats(t)).venues).toBe(1);
    expect((await communityStats(t)).cities).toBe(1);
    await admin.asUser.mutation(api.admin.updateMic, { id, ...baseEdit, city: "Denver", status: "inactive" });
    expect(await t.query(api.scene.get, { id })).toBeNull();
    const scene = await t.query(api.scene.listPage, {
      type: "all",
      day: null,
      search: "",
      paginationOpts: { numItems: 100, cursor: null },
    });
    expect(scene.page.map((i) => i._id)).not.toContain(id);
    expect((await communityStats(t)).venues).toBe(0);
    expect((await communityStats(t)).cities).toBe(0);
    await admin.asUser.mutation(api.admin.updateMic, { id, ...baseEdit, city: "Boulder", status: "active" });
    expect((await communityStats(t)).venues).toBe(1);
    expect((await communityStats(t)).cities).toBe(1);
    expect(await t.query(api.scene.get, { id })).not.toBeNull();
  });

  test("rejects empty titles, bad times and days", async () => {
    const t = newTest();
    const admin = await createAdmin(t);
    const id = await createSceneItem(t, { title: "Stays" });
    await expectAppError(admin.asUser.mutation(api.admin.updateMic, { id, ...baseEdit, title: "  " }), "INVALID_INPUT");
    await expectAppError(
      admin.asUser.mutation(api.admin.updateMic, { id, ...baseEdit, startTimeLocal: "25:00" }),
      "INVALID_INPUT",
    );
    await expectAppError(
      admin.asUser.mutation(api.admin.updateMic, { id, ...baseEdit, dayOfWeek: 7 }),
      "INVALID_INPUT",
    );
    await expectAppError(
      admin.asUser.mutation(api.admin.updateMic, { id, ...baseEdit, costInfo: { type: "cover", coverAmount: -1 } }),
      "INVALID_INPUT",
    );
    expect((await getItem(t, id))!.title).toBe("Stays");
  });
});

describe("admin.deleteMic", () => {
  test("deletes any mic with its claims and reports, keeping sets' venue names", async () => {
    const t = newTest();
    const admin = await createAdmin(t);
    const comic = await createUser(t);
    const id = await createSceneItem(t, { venueName: "Doomed Room" });
    await comic.asUser.mutation(api.claims.submit, { micId: id });
    await comic.asUser.mutation(api.reports.submit, { micId: id, kind: "no_longer_runs" });
    const setId = await t.run(
      async (ctx) =>
        await ctx.db.insert("performances", {
          userId: comic.userId,
          minutes: 5,
          performedAt: 0,
          performanceDate: "2026-11-02",
          sceneItemId: id,
          tags: [],
        }),
    );
    expect(await admin.asUser.mutation(api.admin.deleteMic, { id })).toEqual({ updatedSets: 1 });
    expect(await getItem(t, id)).toBeNull();
    const set = await t.run(async (ctx) => await ctx.db.get("performances", setId));
    expect(set).toMatchObject({ venueName: "Doomed Room" });
    expect(set!.sceneItemId).toBeUndefined();
    expect(await allClaims(admin.asUser)).toEqual([]);
    expect(await allOpenReports(admin.asUser)).toEqual([]);
    expect((await communityStats(t)).venues).toBe(0);
  });
});
