/**
 * The scene around a point: reads only the geohash cells that cover the circle
 * (index `by_status_and_geohash`), so its cost follows the mics in the area,
 * not the national total, and pages through them.
 */
import { paginationResultValidator, type PaginationOptions, type PaginationResult } from "convex/server";
import { mergedStream, stream } from "convex-helpers/server/stream";
import type { QueryCtx } from "../_generated/server";
import { appError, ErrorCode } from "../errors";
import {
  decodeGeohashBounds,
  EARTH_RADIUS_M,
  encodeGeohash,
  haversineMeters,
  METERS_PER_MILE,
  STORED_GEOHASH_PRECISION,
} from "../lib/geo";
import schema from "../schema";
import { sceneItemValidator, toSceneItem, type SceneItem } from "./scene";

export const MIN_RADIUS_MILES = 5;
export const MAX_RADIUS_MILES = 50;
/** Largest page a caller may ask for. */
export const MAX_AREA_PAGE = 100;
/** Rows one page may read before it stops early (cells hold mics outside the circle too). */
export const MAX_AREA_ROWS_READ = 2000;

export const areaPageValidator = paginationResultValidator(sceneItemValidator);

export type AreaArgs = {
  lat: number;
  lng: number;
  radiusMiles: number;
  paginationOpts: PaginationOptions;
};

/** Most index ranges one area read opens (one per covering cell). */
export const MAX_COVER_CELLS = 64;

/** The shortest distance in metres from the point to a cell's box (0 inside it). */
function distanceToCell(lat: number, lng: number, hash: string): number {
  const box = decodeGeohashBounds(hash);
  const nearest = {
    lat: Math.min(Math.max(lat, box.minLat), box.maxLat),
    lng: Math.min(Math.max(lng, box.minLng), box.maxLng),
  };
  return haversineMeters({ lat, lng }, nearest);
}

/**
 * Geohash cells that together cover the circle, at the finest precision that
 * needs at most {@link MAX_COVER_CELLS} cells: every cell of that precision
 * over the circle's bounding box whose box reaches the circle. Finer cells
 * than `lib/geo`'s 3x3 block mean far fewer rows outside the circle are read
 * (a 50-mile circle would otherwise read cells 100 miles wide). Sorted.
 */
export function coveringCells(lat: number, lng: number, radiusMeters: number): string[] {
  const dLat = (radiusMeters / EARTH_RADIUS_M) * (180 / Math.PI);
  const cosLat = Math.cos((Math.min(89, Math.abs(lat) + dLat) * Math.PI) / 180);
  const dLng = Math.min(180, dLat / Math.max(cosLat, 1e-6));
  if (lat + dLat >= 89 || lat - dLat <= -89) return [""];
  for (let precision = STORED_GEOHASH_PRECISION; precision >= 1; precision--) {
    const probe = decodeGeohashBounds(encodeGeohash(lat, lng, precision));
    const cellLat = probe.maxLat - probe.minLat;
    const cellLng = probe.maxLng - probe.minLng;
    const rows = Math.ceil((2 * dLat) / cellLat) + 1;
    const cols = Math.ceil((2 * dLng) / cellLng) + 1;
    if (rows * cols > MAX_COVER_CELLS * 2) continue;
    const cells = new Set<string>();
    for (let y = lat - dLat; y <= lat + dLat + cellLat; y += cellLat) {
      for (let x = lng - dLng; x <= lng + dLng + cellLng; x += cellLng) {
        const cy = Math.min(lat + dLat, y);
        const cx = Math.min(lng + dLng, x);
        const wrapped = ((((cx + 180) % 360) + 360) % 360) - 180;
        const hash = encodeGeohash(cy, wrapped, precision);
        if (!cells.has(hash) && distanceToCell(lat, lng, hash) <= radiusMeters) cells.add(hash);
      }
    }
    if (cells.size <= MAX_COVER_CELLS) return [...cells].sort();
  }
  return [""];
}

function invalid(message: string): never {
  throw appError(ErrorCode.INVALID_INPUT, message);
}

/** Checks the point and radius; the spec's distance choices are 5 to 50 miles. */
export function assertArea({ lat, lng, radiusMiles }: Pick<AreaArgs, "lat" | "lng" | "radiusMiles">): void {
  if (!Number.isFinite(lat) || lat < -90 || lat > 90) invalid("Latitude must be between -90 and 90");
  if (!Number.isFinite(lng) || lng < -180 || lng > 180) invalid("Longitude must be between -180 and 180");
  if (!Number.isFinite(radiusMiles) || radiusMiles < MIN_RADIUS_MILES || radiusMiles > MAX_RADIUS_MILES) {
    invalid(`Distance must be between ${MIN_RADIUS_MILES} and ${MAX_RADIUS_MILES} miles`);
  }
}

/**
 * Active items within `radiusMiles` of the point, ordered by geohash (so pages
 * are stable under inserts elsewhere), a page at a time. One index range per
 * covering cell, merged into a single stream; items in the cells but outside
 * the circle are skipped, so a page may hold fewer than `numItems`.
 */
export async function listArea(ctx: QueryCtx, args: AreaArgs): Promise<PaginationResult<SceneItem>> {
  assertArea(args);
  const numItems = Math.floor(args.paginationOpts.numItems);
  if (!(numItems >= 1)) invalid("numItems must be at least 1");
  const radiusMeters = args.radiusMiles * METERS_PER_MILE;
  const center = { lat: args.lat, lng: args.lng };
  const prefixes = coveringCells(args.lat, args.lng, radiusMeters);
  const cells = prefixes.map((prefix) =>
    stream(ctx.db, schema)
      .query("sceneItems")
      .withIndex("by_status_and_geohash", (q) =>
        q.eq("status", "active").gte("geohash", prefix).lt("geohash", `${prefix}~`),
      ),
  );
  const page = await mergedStream(cells, ["geohash"])
    .filterWith(async (item) =>
      item.latitude !== undefined &&
      item.longitude !== undefined &&
      haversineMeters(center, { lat: item.latitude, lng: item.longitude }) <= radiusMeters,
    )
    .paginate({
      ...args.paginationOpts,
      numItems: Math.min(numItems, MAX_AREA_PAGE),
      maximumRowsRead: MAX_AREA_ROWS_READ,
    });
  return { ...page, page: page.page.map(toSceneItem) };
}
