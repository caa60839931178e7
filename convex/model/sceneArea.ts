/**
 * The scene around a point: reads only the geohash cells that cover the circle
 * (index `by_status_and_geohash`), so its cost follows the mics in the area,
 * not the national total, and pages through them.
 */
import { paginationResultValidator, type PaginationOptions, type PaginationResult } from "convex/server";
import { mergedStream, stream } from "convex-helpers/server/stream";
import type { QueryCtx } from "../_generated/server";
import { appError, ErrorCode } from "../errors";
import { geohashPrefixesForRadius, haversineMeters, METERS_PER_MILE } from "../lib/geo";
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
  const prefixes = geohashPrefixesForRadius(args.lat, args.lng, radiusMeters).sort();
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
