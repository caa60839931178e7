/**
 * The scene around a point: reads only the geohash cells that cover the circle
 * (index `by_status_and_geohash`), so its cost follows the mics in the area,
 * not the national total, and pages through them.
 */
import { paginationResultValidator, type PaginationOptions, type PaginationResult } from "convex/server";
import { stream } from "convex-helpers/server/stream";
import type { Doc } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";
import { invalid } from "../lib/textRules";
import { cursorObject, invalidCursor, pageResult } from "../lib/pageCursor";
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
function distanceToCell({ lat, lng, hash }: { lat: number; lng: number; hash: string }): number {
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
export function coveringCells({
  lat,
  lng,
  radiusMeters,
}: {
  lat: number;
  lng: number;
  radiusMeters: number;
}): string[] {
  const { dLat, dLng } = circleBox(lat, radiusMeters);
  if (lat + dLat >= 89 || lat - dLat <= -89) return [""];
  for (let precision = STORED_GEOHASH_PRECISION; precision >= 1; precision--) {
    const probe = decodeGeohashBounds(encodeGeohash(lat, lng, precision));
    const rows = Math.ceil((2 * dLat) / (probe.maxLat - probe.minLat)) + 1;
    const cols = Math.ceil((2 * dLng) / (probe.maxLng - probe.minLng)) + 1;
    if (rows * cols > MAX_COVER_CELLS * 2) continue;
    const cells = coveringCellsAt({ lat, lng, radiusMeters, precision });
    if (cells.length <= MAX_COVER_CELLS) return cells;
  }
  return [""];
}

/** Half the height and width in degrees of the circle's bounding box. */
function circleBox(lat: number, radiusMeters: number): { dLat: number; dLng: number } {
  const dLat = (radiusMeters / EARTH_RADIUS_M) * (180 / Math.PI);
  const cosLat = Math.cos((Math.min(89, Math.abs(lat) + dLat) * Math.PI) / 180);
  return { dLat, dLng: Math.min(180, dLat / Math.max(cosLat, 1e-6)) };
}

/** Every geohash cell of `precision` whose box reaches the circle, sorted (the circle must not reach a pole). */
export function coveringCellsAt({
  lat,
  lng,
  radiusMeters,
  precision,
}: {
  lat: number;
  lng: number;
  radiusMeters: number;
  precision: number;
}): string[] {
  const { dLat, dLng } = circleBox(lat, radiusMeters);
  const probe = decodeGeohashBounds(encodeGeohash(lat, lng, precision));
  const cellLat = probe.maxLat - probe.minLat;
  const cellLng = probe.maxLng - probe.minLng;
  const cells = new Set<string>();
  for (let y = lat - dLat; y <= lat + dLat + cellLat; y += cellLat) {
    for (let x = lng - dLng; x <= lng + dLng + cellLng; x += cellLng) {
      const cy = Math.min(lat + dLat, y);
      const cx = Math.min(lng + dLng, x);
      const wrapped = ((((cx + 180) % 360) + 360) % 360) - 180;
      const hash = encodeGeohash(cy, wrapped, precision);
      if (!cells.has(hash) && distanceToCell({ lat, lng, hash }) <= radiusMeters) cells.add(hash);
    }
  }
  return [...cells].sort();
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
 * Where a page of the area starts or ends: the covering cell (an index into
 * {@link coveringCells}) and the `by_status_and_geohash` key of the last row
 * read in it (`null`: the start of the cell). `cell === cells.length` is the
 * end of the area.
 */
type AreaPosition = { cell: number; after: AreaIndexKey | null };
/** A row's key in `by_status_and_geohash`: status, geohash, _creationTime, _id. */
type AreaIndexKey = [string, string, number, string];
/** The circle a cursor was made for: a cursor from another circle is refused. */
type AreaKey = [number, number, number];

const CURSOR_VERSION = 1;
const INVALID_CURSOR = "This page cursor is not valid for this area; reload the list";

/** Ascending order of positions (the order of the area's rows). */
function comparePositions(a: AreaPosition, b: AreaPosition): number {
  if (a.cell !== b.cell) return a.cell - b.cell;
  if (a.after === null || b.after === null) return (a.after === null ? 0 : 1) - (b.after === null ? 0 : 1);
  for (let i = 1; i < 4; i++) {
    const x = a.after[i]!;
    const y = b.after[i]!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

function serializePosition(area: AreaKey, position: AreaPosition): string {
  return JSON.stringify({ v: CURSOR_VERSION, area, cell: position.cell, after: position.after });
}

/**
 * Reads a cursor made by {@link serializePosition} for this circle; anything
 * else (another format, another circle, a cell or key outside it) is an
 * INVALID_INPUT error. The error also names the pagination failure the way
 * Convex's `usePaginatedQuery` recognises (`InvalidCursor`), so a client
 * holding an old cursor starts the list again.
 */
function parsePosition(cursor: string, area: AreaKey, cells: string[]): AreaPosition {
  const refuse = (): never => invalidCursor(INVALID_CURSOR);
  const parsed = cursorObject(cursor, INVALID_CURSOR);
  const { v, area: cursorArea, cell, after } = parsed;
  if (v !== CURSOR_VERSION) return refuse();
  if (!Array.isArray(cursorArea) || cursorArea.length !== 3 || cursorArea.some((x, i) => x !== area[i])) {
    return refuse();
  }
  if (typeof cell !== "number" || !Number.isInteger(cell) || cell < 0 || cell > cells.length) return refuse();
  if (after === null) return { cell, after: null };
  if (
    cell === cells.length ||
    !Array.isArray(after) ||
    after.length !== 4 ||
    after[0] !== "active" ||
    typeof after[1] !== "string" ||
    !after[1].startsWith(cells[cell]!) ||
    typeof after[2] !== "number" ||
    !Number.isFinite(after[2]) ||
    typeof after[3] !== "string"
  ) {
    return refuse();
  }
  return { cell, after: after as AreaIndexKey };
}

/**
 * A single-cell stream's cursor (convex-helpers writes an index key as the
 * JSON of its values) and back. Our keys hold only strings and finite numbers.
 */
const streamCursor = (key: AreaIndexKey | null): string | null => (key === null ? null : JSON.stringify(key));
const keyOfStreamCursor = (cursor: string): AreaIndexKey => JSON.parse(cursor) as AreaIndexKey;

/**
 * Active items within `radiusMiles` of the point, a page at a time in `by_status_and_geohash` order, at most
 * {@link MAX_AREA_PAGE} items and {@link MAX_AREA_ROWS_READ} rows read (then `isDone: false` where it stopped).
 */
export async function listArea(ctx: QueryCtx, args: AreaArgs): Promise<PaginationResult<SceneItem>> {
  assertArea(args);
  const numItems = Math.floor(args.paginationOpts.numItems);
  if (!(numItems >= 1)) invalid("numItems must be at least 1");
  const limit = Math.min(numItems, MAX_AREA_PAGE);
  const radiusMeters = args.radiusMiles * METERS_PER_MILE;
  const center = { lat: args.lat, lng: args.lng };
  const cells = coveringCells({ lat: args.lat, lng: args.lng, radiusMeters });
  const area: AreaKey = [args.lat, args.lng, args.radiusMiles];
  const { cursor, endCursor } = args.paginationOpts;
  // Our own JSON cursor (`{v, area, cell, after}`), opaque to clients.
  const start: AreaPosition = cursor === null ? { cell: 0, after: null } : parsePosition(cursor, area, cells);
  const end = typeof endCursor === "string" ? parsePosition(endCursor, area, cells) : null;
  if (end && comparePositions(end, start) < 0) {
    invalidCursor(INVALID_CURSOR);
  }

  const page: Doc<"sceneItems">[] = [];
  let rowsRead = 0;
  let position = start;
  let stoppedByBound = false;
  // The cells are distinct, sorted and of one precision: their index ranges are disjoint, read one after another.
  while (position.cell < cells.length) {
    if (end && comparePositions(position, end) >= 0) break;
    if (!end && page.length >= limit) break;
    if (rowsRead >= MAX_AREA_ROWS_READ) {
      stoppedByBound = true;
      break;
    }
    const endsHere = end !== null && end.cell === position.cell;
    const prefix = cells[position.cell]!;
    let cellRows = 0;
    const rowsLeft = MAX_AREA_ROWS_READ - rowsRead;
    const result = await stream(ctx.db, schema)
      .query("sceneItems")
      .withIndex("by_status_and_geohash", (q) =>
        q.eq("status", "active").gte("geohash", prefix).lt("geohash", `${prefix}~`),
      )
      .filterWith(async (item) => {
        cellRows++;
        return (
          item.latitude !== undefined &&
          item.longitude !== undefined &&
          haversineMeters(center, { lat: item.latitude, lng: item.longitude }) <= radiusMeters
        );
      })
      .paginate({
        cursor: streamCursor(position.after),
        // With an end, the end decides (items never outnumber rows read).
        numItems: end ? rowsLeft : limit - page.length,
        endCursor: endsHere ? streamCursor(end.after) : undefined,
        maximumRowsRead: rowsLeft,
      });
    rowsRead += cellRows;
    page.push(...result.page);
    // With `endCursor` the page ends exactly there; stopped first by the rows bound, "SplitRequired", as Convex does.
    if (endsHere) {
      const reachedEnd = result.pageStatus !== "SplitRequired" || result.continueCursor === streamCursor(end.after);
      if (reachedEnd) {
        position = end;
      } else {
        position = { cell: position.cell, after: keyOfStreamCursor(result.continueCursor) };
        stoppedByBound = true;
      }
      break;
    }
    if (result.isDone) {
      position = { cell: position.cell + 1, after: null };
      continue;
    }
    // The page is full, or the rows bound stopped it inside this cell.
    position = { cell: position.cell, after: keyOfStreamCursor(result.continueCursor) };
    if (result.pageStatus === "SplitRequired") stoppedByBound = true;
    break;
  }

  const items = page.map(toSceneItem);
  return pageResult(items, {
    cursor: serializePosition(area, position),
    endCursor,
    stopped: stoppedByBound,
    isDone: (end ?? position).cell >= cells.length,
  });
}
