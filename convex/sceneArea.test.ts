import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Doc, Id } from "./_generated/dataModel";
import { decodeGeohashBounds, encodeGeohash, haversineMeters, METERS_PER_MILE } from "./lib/geo";
import { coveringCells, MAX_AREA_PAGE, MAX_AREA_ROWS_READ, MAX_COVER_CELLS } from "./model/sceneArea";
import { expectAppError } from "./test.expect";
import { createSceneItem, newTest, type TestBackend } from "./test.setup";

const MANHATTAN = { lat: 40.7411, lng: -73.9897 };

/** Reads every page of the area at `pageSize` and returns the ids in order. */
async function readAll(t: TestBackend, radiusMiles: number, pageSize: number) {
  const ids: Id<"sceneItems">[] = [];
  let cursor: string | null = null;
  let pages = 0;
  for (;;) {
    const result: { page: Array<{ _id: Id<"sceneItems"> }>; isDone: boolean; continueCursor: string } = await t.query(
      api.sceneArea.listArea,
      {
        ...MANHATTAN,
        radiusMiles,
        paginationOpts: { numItems: pageSize, cursor },
      },
    );
    ids.push(...result.page.map((item) => item._id));
    pages++;
    if (result.isDone) break;
    cursor = result.continueCursor;
    if (pages > 50) throw new Error("did not finish paging");
  }
  return { ids, pages };
}

describe("coveringCells", () => {
  test.each([
    [40.7411, -73.9897, 5],
    [40.7411, -73.9897, 50],
    [34.05, -118.24, 17],
    [61.2, -149.9, 50],
    [21.3, -157.86, 10],
    [25.77, -80.19, 30],
  ])("every point within the radius of (%f, %f, %f mi) falls in a covering cell", (lat, lng, miles) => {
    const radius = miles * METERS_PER_MILE;
    const cells = coveringCells({ lat, lng, radiusMeters: radius });
    expect(cells.length).toBeLessThanOrEqual(MAX_COVER_CELLS);
    let seed = 7;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let i = 0; i < 2000; i++) {
      // A point at a random bearing and distance up to the radius.
      const d = Math.sqrt(random()) * radius * 0.999;
      const bearing = random() * 2 * Math.PI;
      const dLat = ((d * Math.cos(bearing)) / 6371000) * (180 / Math.PI);
      const dLng = ((d * Math.sin(bearing)) / (6371000 * Math.cos((lat * Math.PI) / 180))) * (180 / Math.PI);
      const pLng = ((((lng + dLng + 180) % 360) + 360) % 360) - 180;
      const hash = encodeGeohash(lat + dLat, pLng, 6);
      expect(cells.some((cell) => hash.startsWith(cell))).toBe(true);
    }
  });

  test("a 50-mile circle is covered by cells much smaller than the circle's neighbourhood", () => {
    const cells = coveringCells({ lat: 40.7411, lng: -73.9897, radiusMeters: 50 * METERS_PER_MILE });
    expect(cells.every((cell) => cell.length >= 4)).toBe(true);
  });
});

describe("sceneArea.listArea", () => {
  test("returns the active items within the radius, paged without gaps or repeats", async () => {
    const t = newTest();
    const near: Id<"sceneItems">[] = [];
    // A spread of mics up to ~4 miles from the point.
    for (let i = 0; i < 23; i++) {
      const angle = (i / 23) * 2 * Math.PI;
      const r = 0.01 + (i % 6) * 0.01;
      near.push(
        await createSceneItem(t, {
          title: `Near ${i}`,
          latitude: MANHATTAN.lat + r * Math.sin(angle),
          longitude: MANHATTAN.lng + r * Math.cos(angle),
        }),
      );
    }
    // Brooklyn (~8 miles): inside 10 miles, outside 5.
    const brooklyn = await createSceneItem(t, { title: "Brooklyn", latitude: 40.6782, longitude: -73.8442 });
    // Far away, inactive and without coordinates: never listed.
    await createSceneItem(t, { title: "Los Angeles", latitude: 34.0522, longitude: -118.2437 });
    await createSceneItem(t, { title: "Philadelphia", latitude: 39.9526, longitude: -75.1652 });
    await createSceneItem(t, {
      title: "Closed",
      latitude: MANHATTAN.lat,
      longitude: MANHATTAN.lng,
      status: "inactive",
    });
    await createSceneItem(t, { title: "Nowhere", latitude: undefined, longitude: undefined });

    const five = await readAll(t, 5, 4);
    expect(five.pages).toBeGreaterThan(1);
    expect(new Set(five.ids).size).toBe(five.ids.length);
    expect([...five.ids].sort()).toEqual([...near].sort());

    const ten = await readAll(t, 10, 7);
    expect([...ten.ids].sort()).toEqual([...near, brooklyn].sort());

    const page = await t.query(api.sceneArea.listArea, {
      ...MANHATTAN,
      radiusMiles: 10,
      paginationOpts: { numItems: 100, cursor: null },
    });
    for (const item of page.page) {
      expect(haversineMeters(MANHATTAN, { lat: item.latitude!, lng: item.longitude! })).toBeLessThanOrEqual(
        10 * METERS_PER_MILE,
      );
      // Server-only fields stay on the server.
      expect(item).not.toHaveProperty("geohash");
      expect(item).not.toHaveProperty("searchText");
    }
  });

  test("a new mic far away does not change the pages near the viewer", async () => {
    const t = newTest();
    await createSceneItem(t, { title: "Near", latitude: MANHATTAN.lat + 0.001, longitude: MANHATTAN.lng });
    const before = await t.query(api.sceneArea.listArea, {
      ...MANHATTAN,
      radiusMiles: 5,
      paginationOpts: { numItems: 10, cursor: null },
    });
    await createSceneItem(t, { title: "Seattle", latitude: 47.6062, longitude: -122.3321 });
    const after = await t.query(api.sceneArea.listArea, {
      ...MANHATTAN,
      radiusMiles: 5,
      paginationOpts: { numItems: 10, cursor: null },
    });
    expect(after.page.map((i) => i.title)).toEqual(before.page.map((i) => i.title));
    expect(after.page.map((i) => i.title)).toEqual(["Near"]);
  });

  test("rejects radii outside 5 to 50 miles and impossible points", async () => {
    const t = newTest();
    const opts = { paginationOpts: { numItems: 10, cursor: null } };
    await expectAppError(
      t.query(api.sceneArea.listArea, { ...MANHATTAN, radiusMiles: 4.9, ...opts }),
      "INVALID_INPUT",
      "Distance must be between 5 and 50 miles",
    );
    await expectAppError(
      t.query(api.sceneArea.listArea, { ...MANHATTAN, radiusMiles: 51, ...opts }),
      "INVALID_INPUT",
      "Distance must be between 5 and 50 miles",
    );
    await expectAppError(
      t.query(api.sceneArea.listArea, { ...MANHATTAN, radiusMiles: Number.NaN, ...opts }),
      "INVALID_INPUT",
      "Distance must be between 5 and 50 miles",
    );
    await expectAppError(
      t.query(api.sceneArea.listArea, { lat: 91, lng: 0, radiusMiles: 10, ...opts }),
      "INVALID_INPUT",
      "Latitude must be between -90 and 90",
    );
    await expectAppError(
      t.query(api.sceneArea.listArea, { lat: 0, lng: -181, radiusMiles: 10, ...opts }),
      "INVALID_INPUT",
      "Longitude must be between -180 and 180",
    );
    await expectAppError(
      t.query(api.sceneArea.listArea, { ...MANHATTAN, radiusMiles: 10, paginationOpts: { numItems: 0, cursor: null } }),
      "INVALID_INPUT",
      "numItems must be at least 1",
    );
  });
});

type AreaPage = {
  page: Array<{ _id: Id<"sceneItems">; title: string }>;
  isDone: boolean;
  continueCursor: string;
  pageStatus?: string | null;
  splitCursor?: string | null;
};

/** One page of the area around MANHATTAN. */
async function areaPage(
  t: TestBackend,
  radiusMiles: number,
  opts: { numItems: number; cursor: string | null; endCursor?: string | null },
): Promise<AreaPage> {
  return await t.query(api.sceneArea.listArea, { ...MANHATTAN, radiusMiles, paginationOpts: opts });
}

/** Pages through the area at `numItems` a page, keeping every page. */
async function allPages(t: TestBackend, radiusMiles: number, numItems: number) {
  const pages: AreaPage[] = [];
  let cursor: string | null = null;
  for (;;) {
    const result = await areaPage(t, radiusMiles, { numItems, cursor });
    pages.push(result);
    if (result.isDone) break;
    cursor = result.continueCursor;
    if (pages.length > 500) throw new Error("did not finish paging");
  }
  return { pages, ids: pages.flatMap((p) => p.page.map((item) => item._id)) };
}

/**
 * The ids the area should list, in the documented order: active mics inside
 * the circle, by geohash, then creation time, then id (the order of the
 * `by_status_and_geohash` index, covering cell after covering cell).
 */
async function expectedArea(t: TestBackend, radiusMiles: number): Promise<Id<"sceneItems">[]> {
  const all: Doc<"sceneItems">[] = await t.run(async (ctx) => await ctx.db.query("sceneItems").collect());
  const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
  return all
    .filter(
      (item) =>
        item.status === "active" &&
        item.geohash !== undefined &&
        item.latitude !== undefined &&
        item.longitude !== undefined &&
        haversineMeters(MANHATTAN, { lat: item.latitude, lng: item.longitude }) <= radiusMiles * METERS_PER_MILE,
    )
    .sort((a, b) => cmp(a.geohash!, b.geohash!) || cmp(a._creationTime, b._creationTime) || cmp(a._id, b._id))
    .map((item) => item._id);
}

/** A point inside `cell` (a covering cell of the 5-mile circle) but outside the circle. */
function outsideCircleIn(cell: string, miles: number): { latitude: number; longitude: number } {
  const box = decodeGeohashBounds(cell);
  for (let i = 0; i <= 10; i++) {
    for (let j = 0; j <= 10; j++) {
      const latitude = box.minLat + ((box.maxLat - box.minLat) * (i + 0.5)) / 11.5;
      const longitude = box.minLng + ((box.maxLng - box.minLng) * (j + 0.5)) / 11.5;
      if (haversineMeters(MANHATTAN, { lat: latitude, lng: longitude }) > miles * METERS_PER_MILE * 1.05) {
        return { latitude, longitude };
      }
    }
  }
  throw new Error(`no point of ${cell} lies outside the circle`);
}

/**
 * 30 mics at one spot (one geohash cell), 12 spread over the neighbouring
 * covering cells, mics in covering cells but outside the 5-mile circle, and
 * far-away, inactive and unlocated ones.
 */
async function crowdedScene(t: TestBackend) {
  for (let i = 0; i < 30; i++) {
    await createSceneItem(t, { title: `Crowded ${i}`, latitude: MANHATTAN.lat, longitude: MANHATTAN.lng });
  }
  for (let i = 0; i < 12; i++) {
    const angle = (i / 12) * 2 * Math.PI;
    // 1.5 to 3.5 miles out: other cells than the crowded one, inside the circle.
    const r = 0.025 + (i % 3) * 0.0125;
    await createSceneItem(t, {
      title: `Around ${i}`,
      latitude: MANHATTAN.lat + r * Math.sin(angle),
      longitude: MANHATTAN.lng + r * Math.cos(angle) * 1.3,
    });
  }
  const cells = coveringCells({ lat: MANHATTAN.lat, lng: MANHATTAN.lng, radiusMeters: 5 * METERS_PER_MILE });
  for (const cell of [cells[0]!, cells[cells.length - 1]!]) {
    for (let i = 0; i < 3; i++) await createSceneItem(t, { title: `Edge ${cell} ${i}`, ...outsideCircleIn(cell, 5) });
  }
  await createSceneItem(t, { title: "Philadelphia", latitude: 39.9526, longitude: -75.1652 });
  await createSceneItem(t, { title: "Closed", latitude: MANHATTAN.lat, longitude: MANHATTAN.lng, status: "inactive" });
  await createSceneItem(t, { title: "Nowhere", latitude: undefined, longitude: undefined });
}

describe("sceneArea.listArea paging", () => {
  test.each([1, 7, 24])(
    "30 mics in one geohash cell: pages of %i list every mic in the circle once, in order",
    async (numItems) => {
      const t = newTest();
      await crowdedScene(t);
      const expected = await expectedArea(t, 5);
      expect(expected.length).toBe(42);
      const crowdedCell = encodeGeohash(MANHATTAN.lat, MANHATTAN.lng, 6);
      const geohashes = await t.run(async (ctx) =>
        Promise.all(expected.map(async (id) => (await ctx.db.get("sceneItems", id))!.geohash)),
      );
      expect(geohashes.filter((g) => g === crowdedCell).length).toBe(30);

      const { pages, ids } = await allPages(t, 5, numItems);
      expect(ids).toEqual(expected);
      for (const [i, page] of pages.entries()) {
        expect(page.page.length).toBeLessThanOrEqual(numItems);
        // Only the last page says it is done.
        expect(page.isDone).toBe(i === pages.length - 1);
      }
      // Full pages until the end: no page is cut short while mics remain.
      for (const page of pages.slice(0, -1)) expect(page.page.length).toBe(numItems);
      expect(pages.length).toBeLessThanOrEqual(Math.ceil(expected.length / numItems) + 1);
    },
  );

  test("a page never holds more than the largest page", async () => {
    const t = newTest();
    for (let i = 0; i < MAX_AREA_PAGE + 5; i++) {
      await createSceneItem(t, { title: `Mic ${i}`, latitude: MANHATTAN.lat, longitude: MANHATTAN.lng });
    }
    const first = await areaPage(t, 5, { numItems: 1000, cursor: null });
    expect(first.page.length).toBe(MAX_AREA_PAGE);
    expect(first.isDone).toBe(false);
    const second = await areaPage(t, 5, { numItems: 1000, cursor: first.continueCursor });
    expect(second.page.length).toBe(5);
    expect(second.isDone).toBe(true);
  });

  test("a page re-run with its end cursor ends at the same place after inserts", async () => {
    const t = newTest();
    await crowdedScene(t);
    const first = await areaPage(t, 5, { numItems: 7, cursor: null });
    expect(first.page.length).toBe(7);
    const firstIds = first.page.map((item) => item._id);

    // A mic after the page's end (beside the last mic of the area, so later in the order) does not join the page.
    const expected = await expectedArea(t, 5);
    const lastMic = await t.run(async (ctx) => (await ctx.db.get("sceneItems", expected[expected.length - 1]!))!);
    const later = { latitude: lastMic.latitude, longitude: lastMic.longitude };
    await createSceneItem(t, { title: "Later", ...later });
    const again = await areaPage(t, 5, { numItems: 7, cursor: null, endCursor: first.continueCursor });
    expect(again.page.map((item) => item._id)).toEqual(firstIds);
    expect(again.continueCursor).toBe(first.continueCursor);
    expect(again.isDone).toBe(false);

    // A mic inside the page's range joins it; the page still ends where it ended.
    // (Beside a mic whose geohash comes before the page's last one: its creation
    // time puts it after that mic, still inside the page.)
    const pageDocs = await t.run(async (ctx) =>
      Promise.all(firstIds.map(async (id) => (await ctx.db.get("sceneItems", id))!)),
    );
    const lastGeohash = pageDocs[pageDocs.length - 1]!.geohash!;
    const inside = pageDocs.find((doc) => doc.geohash! < lastGeohash)!;
    expect(inside).toBeDefined();
    const inserted = await createSceneItem(t, {
      title: "Inserted",
      latitude: inside.latitude,
      longitude: inside.longitude,
    });
    const pinned = await areaPage(t, 5, { numItems: 7, cursor: null, endCursor: first.continueCursor });
    const pinnedIds = pinned.page.map((item) => item._id);
    expect(pinnedIds.filter((id) => id !== inserted)).toEqual(firstIds);
    expect(pinnedIds).toContain(inserted);
    expect(pinned.continueCursor).toBe(first.continueCursor);

    // The next page starts right after, so the two pages still meet without overlap.
    const second = await areaPage(t, 5, { numItems: 7, cursor: first.continueCursor });
    expect(second.page.map((item) => item._id).some((id) => pinnedIds.includes(id))).toBe(false);

    // An end cursor at the very end reads to the end and says so.
    const { pages } = await allPages(t, 5, 100);
    const last = pages[pages.length - 1]!;
    const whole = await areaPage(t, 5, { numItems: 1, cursor: null, endCursor: last.continueCursor });
    expect(whole.isDone).toBe(true);
    expect(whole.page.map((item) => item._id)).toEqual(await expectedArea(t, 5));
  });

  test("a mic added to an already-read cell between pages neither repeats nor skips the rest", async () => {
    const t = newTest();
    await crowdedScene(t);
    const expected = await expectedArea(t, 5);
    const seen: Id<"sceneItems">[] = [];
    let cursor: string | null = null;
    let pageCount = 0;
    for (;;) {
      const result: AreaPage = await areaPage(t, 5, { numItems: 7, cursor });
      seen.push(...result.page.map((item) => item._id));
      pageCount++;
      if (pageCount === 2) {
        // Into the cell of the first mic (already read), and into the crowded cell.
        const first = await t.run(async (ctx) => (await ctx.db.get("sceneItems", expected[0]!))!);
        await createSceneItem(t, { title: "Late first cell", latitude: first.latitude, longitude: first.longitude });
        await createSceneItem(t, { title: "Late crowded", latitude: MANHATTAN.lat, longitude: MANHATTAN.lng });
      }
      if (result.isDone) break;
      cursor = result.continueCursor;
      if (pageCount > 50) throw new Error("did not finish paging");
    }
    expect(new Set(seen).size).toBe(seen.length);
    // Every mic that existed before paging began is listed exactly once.
    for (const id of expected) expect(seen.filter((s) => s === id).length).toBe(1);
  });

  test("a sparse area stops a page at the rows bound and later pages complete the set", async () => {
    const t = newTest();
    const cells = coveringCells({ lat: MANHATTAN.lat, lng: MANHATTAN.lng, radiusMeters: 5 * METERS_PER_MILE });
    // More rows than one page may read, all in the first covering cell and all outside the circle.
    const outside = outsideCircleIn(cells[0]!, 5);
    const extra = Math.ceil(MAX_AREA_ROWS_READ * 1.25);
    await t.run(async (ctx) => {
      for (let i = 0; i < extra; i++) {
        await ctx.db.insert("sceneItems", {
          title: `Outside ${i}`,
          venueName: "Far Room",
          city: "New York",
          address: "1 Far St",
          type: "open_mic",
          ...outside,
          dayOfWeek: 1,
          startTimeLocal: "19:30",
          recurrence: "weekly",
          signupMethod: "in_person",
          costInfo: { type: "free" },
          performanceMinutes: 5,
          timeZone: "America/New_York",
          status: "active",
          checkInCount: 0,
          verifiedCheckIns30d: 0,
          geohash: encodeGeohash(outside.latitude, outside.longitude, 6),
          searchText: "outside",
        });
      }
    });
    await crowdedScene(t);
    const expected = await expectedArea(t, 5);

    const first = await areaPage(t, 5, { numItems: 10, cursor: null });
    // The bound was hit inside the out-of-circle rows: nothing to show yet, but more to come.
    expect(first.page).toEqual([]);
    expect(first.isDone).toBe(false);

    const { ids, pages } = await allPages(t, 5, 10);
    expect(ids).toEqual(expected);
    expect(pages[0]!.page).toEqual([]);
    expect(pages.length).toBeLessThanOrEqual(Math.ceil(expected.length / 10) + 3);

    // A re-run of the whole list with an end cursor that the bound cannot reach asks the client to split.
    const last = pages[pages.length - 1]!;
    const whole = await areaPage(t, 5, { numItems: 10, cursor: null, endCursor: last.continueCursor });
    expect(whole.pageStatus).toBe("SplitRequired");
    expect(typeof whole.splitCursor).toBe("string");
    const left = await areaPage(t, 5, { numItems: 10, cursor: null, endCursor: whole.splitCursor });
    const right = await areaPage(t, 5, { numItems: 10, cursor: whole.splitCursor!, endCursor: last.continueCursor });
    expect(left.pageStatus ?? undefined).toBeUndefined();
    expect(right.pageStatus ?? undefined).toBeUndefined();
    expect([...left.page, ...right.page].map((item) => item._id)).toEqual(expected);
    expect(right.isDone).toBe(true);
  }, 120_000);

  test("a cursor that does not parse or belongs to another area is an INVALID_INPUT error", async () => {
    const t = newTest();
    await crowdedScene(t);
    const first = await areaPage(t, 5, { numItems: 3, cursor: null });
    const message = "This page cursor is not valid for this area; reload the list";
    for (const cursor of [
      "not a cursor",
      "[]",
      "{}",
      JSON.stringify({ v: 1, cell: 0, after: null }),
      JSON.stringify({ ...JSON.parse(first.continueCursor), cell: 999 }),
      JSON.stringify({ ...JSON.parse(first.continueCursor), after: ["active", "zzzzzz", 1, "x"] }),
      JSON.stringify({ ...JSON.parse(first.continueCursor), after: "oops" }),
    ]) {
      await expectAppError(areaPage(t, 5, { numItems: 3, cursor }), "INVALID_INPUT", message);
      await expectAppError(areaPage(t, 5, { numItems: 3, cursor: null, endCursor: cursor }), "INVALID_INPUT", message);
    }
    // The same cursor for a different circle.
    await expectAppError(areaPage(t, 10, { numItems: 3, cursor: first.continueCursor }), "INVALID_INPUT", message);
    await expectAppError(
      t.query(api.sceneArea.listArea, {
        lat: MANHATTAN.lat + 0.01,
        lng: MANHATTAN.lng,
        radiusMiles: 5,
        paginationOpts: { numItems: 3, cursor: first.continueCursor },
      }),
      "INVALID_INPUT",
      message,
    );
    // An end cursor before the cursor.
    const second = await areaPage(t, 5, { numItems: 30, cursor: first.continueCursor });
    const later = await areaPage(t, 5, { numItems: 3, cursor: second.continueCursor });
    await expectAppError(
      areaPage(t, 5, { numItems: 3, cursor: later.continueCursor, endCursor: first.continueCursor }),
      "INVALID_INPUT",
      message,
    );
  });
});
