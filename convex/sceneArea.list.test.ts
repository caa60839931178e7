import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { encodeGeohash, haversineMeters, METERS_PER_MILE } from "./lib/geo";
import { coveringCells, MAX_COVER_CELLS } from "./model/sceneArea";
import { expectAppError } from "./testing/test.expect";
import { MANHATTAN } from "./testing/test.sceneArea";
import { createSceneItem, newTest, type TestBackend } from "./testing/test.setup";

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
