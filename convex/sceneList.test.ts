import type { PaginationResult } from "convex/server";
import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Doc } from "./_generated/dataModel";
import * as Scene from "./model/scene";
import { expectAppError } from "./testing/test.expect";
import { createAdmin, createSceneItem, createUser, newTest, type TestBackend } from "./testing/test.setup";

type Filters = { type: Scene.SceneTypeFilter; day: number | null; search: string };
type Item = Scene.SceneItem;

const ALL: Filters = { type: "all", day: null, search: "" };

/** Every page of the scene for these filters, `numItems` at a time, as an anonymous visitor. */
async function allPages(t: TestBackend, filters: Filters, numItems: number): Promise<Item[][]> {
  const pages: Item[][] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 1000; i++) {
    const result: PaginationResult<Item> = await t.query(api.scene.listPage, {
      ...filters,
      paginationOpts: { numItems, cursor },
    });
    pages.push(result.page);
    if (result.isDone) return pages;
    cursor = result.continueCursor;
  }
  throw new Error("the scene never finished paging");
}

/** One page through the model, with the documents it read (the engine's transaction metrics). */
async function pageWithReads(
  t: TestBackend,
  filters: Filters,
  paginationOpts: { numItems: number; cursor: string | null },
): Promise<{ result: PaginationResult<Item>; documentsRead: number }> {
  return await t.run(async (ctx) => {
    const before = await ctx.meta.getTransactionMetrics();
    const result = await Scene.listPage(ctx, { ...filters, paginationOpts });
    const after = await ctx.meta.getTransactionMetrics();
    return { result, documentsRead: after.documentsRead.used - before.documentsRead.used };
  });
}

const pad = (n: number) => String(n).padStart(2, "0");

describe("scene.listPage without search", () => {
  test("60 items in pages of 7: each exactly once, in day then start-time order, no server-only fields", async () => {
    const t = newTest();
    // Inserted out of order: day 6 down to 0, late to early within a day.
    const expected: string[] = [];
    for (let day = 6; day >= 0; day--) {
      for (let slot = 8; slot >= 0; slot--) {
        if (expected.length >= 60) break;
        const title = `Mic d${day} ${pad(12 + slot)}:00`;
        expected.push(title);
        await createSceneItem(t, { title, dayOfWeek: day, startTimeLocal: `${pad(12 + slot)}:00` });
      }
    }
    await createSceneItem(t, { title: "Retired", dayOfWeek: 0, startTimeLocal: "00:00", status: "inactive" });
    const pages = await allPages(t, ALL, 7);
    expect(pages.slice(0, -1).every((page) => page.length === 7)).toBe(true);
    const titles = pages.flat().map((item) => item.title);
    expect(titles).toHaveLength(60);
    expect(new Set(titles).size).toBe(60);
    const byDayThenTime = [...expected].sort((a, b) => a.localeCompare(b));
    expect(titles).toEqual(byDayThenTime);
    const first = pages[0][0];
    expect(first).not.toHaveProperty("searchText");
    expect(first).not.toHaveProperty("geohash");
    expect(first).toMatchObject({ venueName: "The Test Room", checkInCount: 0 });
  });

  test("the day filter keeps one day; the type filter: Open Mic is open mics, Show is every kind of show", async () => {
    const t = newTest();
    await createSceneItem(t, { title: "Mon mic", dayOfWeek: 1, startTimeLocal: "19:00" });
    await createSceneItem(t, { title: "Mon show", type: "show", dayOfWeek: 1, startTimeLocal: "21:00" });
    await createSceneItem(t, { title: "Tue booked", type: "booked_show", dayOfWeek: 2, startTimeLocal: "20:00" });
    await createSceneItem(t, { title: "Sun bringer", type: "bringer_show", dayOfWeek: 0, startTimeLocal: "18:00" });
    await createSceneItem(t, { title: "Tue mic", dayOfWeek: 2, startTimeLocal: "18:00" });
    await createSceneItem(t, { title: "No day mic", dayOfWeek: null });
    await createSceneItem(t, { title: "Gone mic", dayOfWeek: 1, status: "inactive" });
    const titles = async (filters: Partial<Filters>) =>
      (await allPages(t, { ...ALL, ...filters }, 2)).flat().map((item) => item.title);

    expect(await titles({})).toEqual(["No day mic", "Sun bringer", "Mon mic", "Mon show", "Tue mic", "Tue booked"]);
    expect(await titles({ day: 1 })).toEqual(["Mon mic", "Mon show"]);
    expect(await titles({ day: 0 })).toEqual(["Sun bringer"]);
    expect(await titles({ day: 3 })).toEqual([]);
    expect(await titles({ type: "open_mic" })).toEqual(["No day mic", "Mon mic", "Tue mic"]);
    expect(await titles({ type: "show" })).toEqual(["Sun bringer", "Mon show", "Tue booked"]);
    expect(await titles({ type: "open_mic", day: 2 })).toEqual(["Tue mic"]);
    expect(await titles({ type: "show", day: 2 })).toEqual(["Tue booked"]);
  });

  /** Inserts `count` weekly items of a type in Austin, spread over the week. */
  async function insertMany(t: TestBackend, count: number, type: "open_mic" | "show", title: string) {
    await t.run(async (ctx) => {
      for (let i = 0; i < count; i++) {
        await Scene.insertSceneItem(ctx, {
          title: `${title} ${i}`,
          venueName: "Big Room",
          city: "Austin",
          type,
          recurrence: "weekly",
          dayOfWeek: i % 7,
          startTimeLocal: `${pad(10 + (i % 12))}:00`,
          timeZone: "America/Chicago",
        });
      }
    });
  }

  /** Pages through to the end; the items and the documents each page read. */
  async function pageAll(t: TestBackend, filters: Filters, numItems: number) {
    const reads: number[] = [];
    const items: Item[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 1000; i++) {
      const { result, documentsRead } = await pageWithReads(t, filters, { numItems, cursor });
      reads.push(documentsRead);
      items.push(...result.page);
      if (result.isDone) return { items, reads };
      cursor = result.continueCursor;
    }
    throw new Error("the scene never finished paging");
  }

  test("3 open mics among 500 shows: the Open Mic chip reads about what it shows", async () => {
    const t = newTest();
    await insertMany(t, 250, "show", "Show");
    await createSceneItem(t, { title: "Rare mic A", dayOfWeek: 0 });
    await createSceneItem(t, { title: "Rare mic B", dayOfWeek: 3 });
    await insertMany(t, 250, "show", "Late show");
    await createSceneItem(t, { title: "Rare mic C", dayOfWeek: 6 });

    const { items, reads } = await pageAll(t, { ...ALL, type: "open_mic" }, 2);
    expect(items.map((i) => i.title)).toEqual(["Rare mic A", "Rare mic B", "Rare mic C"]);
    expect(Math.max(...reads)).toBeLessThanOrEqual(3);

    // The same through the search index, one day.
    const searched = await pageAll(t, { type: "open_mic", day: 3, search: "rare" }, 24);
    expect(searched.items.map((i) => i.title)).toEqual(["Rare mic B"]);
    expect(Math.max(...searched.reads)).toBeLessThanOrEqual(1);

    // A page never returns more than 100 items, whatever is asked.
    const big = await pageWithReads(t, ALL, { numItems: 5000, cursor: null });
    expect(big.result.page).toHaveLength(Scene.SCENE_PAGE_MAX);
    expect(big.documentsRead).toBeLessThanOrEqual(Scene.SCENE_PAGE_MAX + 1);
  });

  test("3 shows among 500 open mics: every Show page stays within the row cap, and paging ends with the 3", async () => {
    const t = newTest();
    await insertMany(t, 250, "open_mic", "Mic");
    await createSceneItem(t, { title: "Rare show", type: "show", dayOfWeek: 2 });
    await createSceneItem(t, { title: "Rare booked", type: "booked_show", dayOfWeek: 4 });
    await insertMany(t, 250, "open_mic", "Late mic");
    await createSceneItem(t, { title: "Rare bringer", type: "bringer_show", dayOfWeek: 5 });

    // The engine's documentsRead counts only the rows a filtered page returns,
    // so count the rows each page scanned from its cursors instead: the index
    // rows after `cursor` up to and including the row `continueCursor` names.
    const inDayOrder = await t.run(async (ctx) =>
      (
        await ctx.db
          .query("sceneItems")
          .withIndex("by_status_and_day", (q) => q.eq("status", "active"))
          .collect()
      ).map((doc) => doc._id as string),
    );
    // convex-test's cursors are JSON arrays of the row's index key, _id last.
    const position = (cursor: string | null) => {
      if (cursor === null) return 0;
      if (cursor === "_end_cursor") return inDayOrder.length;
      const key = JSON.parse(cursor) as string[];
      return inDayOrder.indexOf(JSON.parse(key[key.length - 1]) as string) + 1;
    };
    const items: Item[] = [];
    const scanned: number[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 100; i++) {
      const result: PaginationResult<Item> = await t.query(api.scene.listPage, {
        ...ALL,
        type: "show",
        paginationOpts: { numItems: 24, cursor },
      });
      items.push(...result.page);
      scanned.push(position(result.continueCursor) - position(cursor));
      if (result.isDone) break;
      cursor = result.continueCursor;
    }
    expect(items.map((i) => i.title)).toEqual(["Rare show", "Rare booked", "Rare bringer"]);
    expect(scanned.reduce((a, b) => a + b, 0)).toBe(503);
    expect(scanned.length).toBeGreaterThan(1);
    expect(Math.max(...scanned)).toBeLessThanOrEqual(Scene.SCENE_MAX_ROWS_READ);
  });
});

describe("scene.listPage with search", () => {
  async function searchWorld() {
    const t = newTest();
    await createSceneItem(t, { title: "Giggle Night", venueName: "The Cellar", city: "Springfield", dayOfWeek: 3 });
    await createSceneItem(t, {
      title: "Punchline Live",
      venueName: "Loft 22",
      city: "Shelbyville",
      type: "show",
      dayOfWeek: 5,
    });
    await createSceneItem(t, {
      title: "Basement Bringer",
      venueName: "O'Malley's Pub",
      city: "Springfield",
      type: "bringer_show",
      dayOfWeek: 0,
    });
    await createSceneItem(t, { title: "Cellar Door Mic", venueName: "Door", city: "Ogdenville", dayOfWeek: 3 });
    await createSceneItem(t, {
      title: "Hidden Cellar",
      venueName: "Gone Room",
      city: "Springfield",
      status: "inactive",
    });
    return t;
  }
  const found = async (t: TestBackend, search: string, filters: Partial<Filters> = {}) =>
    (await allPages(t, { ...ALL, ...filters, search }, 2))
      .flat()
      .map((item) => item.title)
      .sort();

  test("matches the title, venue and city, case-insensitively and by word prefix; every word must match", async () => {
    const t = await searchWorld();
    expect(await found(t, "punchline")).toEqual(["Punchline Live"]);
    expect(await found(t, "LOFT")).toEqual(["Punchline Live"]);
    expect(await found(t, "shelby")).toEqual(["Punchline Live"]);
    expect(await found(t, "  Springfield  ")).toEqual(["Basement Bringer", "Giggle Night"]);
    expect(await found(t, "cellar")).toEqual(["Cellar Door Mic", "Giggle Night"]);
    expect(await found(t, "cellar springfield")).toEqual(["Giggle Night"]);
    expect(await found(t, "o'malley's")).toEqual(["Basement Bringer"]);
    expect(await found(t, "nowhere")).toEqual([]);
    expect(await found(t, "?!")).toEqual([]);
  });

  test("respects the type and day filters and never returns an inactive item", async () => {
    const t = await searchWorld();
    expect(await found(t, "springfield", { type: "open_mic" })).toEqual(["Giggle Night"]);
    expect(await found(t, "springfield", { type: "show" })).toEqual(["Basement Bringer"]);
    expect(await found(t, "cellar", { day: 3 })).toEqual(["Cellar Door Mic", "Giggle Night"]);
    expect(await found(t, "cellar", { day: 5 })).toEqual([]);
    expect(await found(t, "hidden")).toEqual([]);
  });

  test("search text longer than 100 characters and a day outside 0..6 are refused with INVALID_INPUT", async () => {
    const t = newTest();
    const listPage = (filters: Partial<Filters>) =>
      t.query(api.scene.listPage, { ...ALL, ...filters, paginationOpts: { numItems: 5, cursor: null } });
    await expectAppError(
      listPage({ search: "x".repeat(101) }),
      "INVALID_INPUT",
      "Search is too long (at most 100 characters).",
      { exact: true },
    );
    await expectAppError(listPage({ day: 7 }), "INVALID_INPUT");
    await expectAppError(listPage({ day: 1.5 }), "INVALID_INPUT");
    // 100 characters with spaces around them is fine.
    const ok = await t.query(api.scene.listPage, {
      ...ALL,
      search: `  ${"x".repeat(100)}  `,
      paginationOpts: { numItems: 5, cursor: null },
    });
    expect(ok.page).toEqual([]);
  });
});

test("anonymous visitors, other comedians and admins all see active items only", async () => {
  const t = newTest();
  const owner = await createUser(t);
  const other = await createUser(t);
  const admin = await createAdmin(t);
  const active = await createSceneItem(t, { title: "Open Room", createdBy: owner.userId });
  const inactive = await createSceneItem(t, { title: "Closed Room", createdBy: owner.userId, status: "inactive" });
  for (const caller of [t, owner.asUser, other.asUser, admin.asUser]) {
    for (const filters of [
      ALL,
      { ...ALL, type: "open_mic" as const },
      { ...ALL, day: 1 },
      { ...ALL, search: "room" },
    ]) {
      const { page } = await caller.query(api.scene.listPage, {
        ...filters,
        paginationOpts: { numItems: 10, cursor: null },
      });
      const ids = page.map((item: Doc<"sceneItems"> | Item) => item._id);
      expect(ids).toEqual([active]);
      expect(ids).not.toContain(inactive);
    }
  }
});
