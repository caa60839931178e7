/** The scene-area tests' point (Manhattan), page helpers and the crowded scene the paging tests list. */
import { api } from "../_generated/api";
import type { Doc, Id } from "../_generated/dataModel";
import { decodeGeohashBounds, haversineMeters, METERS_PER_MILE } from "../lib/geo";
import { coveringCells } from "../model/sceneArea";
import { createSceneItem, type TestBackend } from "./test.setup";

export const MANHATTAN = { lat: 40.7411, lng: -73.9897 };

export type AreaPage = {
  page: Array<{ _id: Id<"sceneItems">; title: string }>;
  isDone: boolean;
  continueCursor: string;
  pageStatus?: string | null;
  splitCursor?: string | null;
};

/** One page of the area around MANHATTAN. */
export async function areaPage(
  t: TestBackend,
  radiusMiles: number,
  opts: { numItems: number; cursor: string | null; endCursor?: string | null },
): Promise<AreaPage> {
  return await t.query(api.sceneArea.listArea, { ...MANHATTAN, radiusMiles, paginationOpts: opts });
}

/** Pages through the area at `numItems` a page, keeping every page. */
export async function allPages(t: TestBackend, radiusMiles: number, numItems: number) {
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
export async function expectedArea(t: TestBackend, radiusMiles: number): Promise<Id<"sceneItems">[]> {
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
export function outsideCircleIn(cell: string, miles: number): { latitude: number; longitude: number } {
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
export async function crowdedScene(t: TestBackend) {
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
