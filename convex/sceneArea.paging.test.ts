import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { encodeGeohash, METERS_PER_MILE } from "./lib/geo";
import { coveringCells, MAX_AREA_PAGE, MAX_AREA_ROWS_READ } from "./model/sceneArea";
import { expectAppError } from "./testing/test.expect";
import {
  allPages,
  areaPage,
  crowdedScene,
  expectedArea,
  MANHATTAN,
  outsideCircleIn,
  type AreaPage,
} from "./testing/test.sceneArea";
import { createSceneItem, newTest, sceneItemRow } from "./testing/test.setup";

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
        await ctx.db.insert(
          "sceneItems",
          sceneItemRow({
            title: `Outside ${i}`,
            venueName: "Far Room",
            address: "1 Far St",
            ...outside,
            dayOfWeek: 1,
            startTimeLocal: "19:30",
            signupMethod: "in_person",
            costInfo: { type: "free" },
            performanceMinutes: 5,
            geohash: encodeGeohash(outside.latitude, outside.longitude, 6),
            searchText: "outside",
          }),
        );
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
