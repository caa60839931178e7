/**
 * Distances and geohashes. Pure functions shared by Convex functions (the
 * check-in rule, area reads through `by_status_and_geohash`) and the React app
 * (distance filter, "You are 250m from the venue").
 */
import { appError, ErrorCode } from "../errors";

export const EARTH_RADIUS_M = 6371000;
export const METERS_PER_MILE = 1609.34;
/** A comedian must be within this many metres of the venue to check in. */
export const CHECK_IN_RADIUS_M = 200;

/** A distance in metres as comedians read it on the scene: "0.7 mi" (tenths below 10 miles). */
export function milesText(meters: number): string {
  const miles = meters / METERS_PER_MILE;
  return miles < 9.95 ? `${miles.toFixed(1)} mi` : `${Math.round(miles)} mi`;
}

/** The refused check-in's one sentence, in miles like the rest of the scene. */
export function tooFarMessage(meters: number): string {
  return `You are ${milesText(meters)} from the venue; check-in works within ${CHECK_IN_RADIUS_M} m`;
}
/** Precision of the `geohash` stored on scene items. */
export const STORED_GEOHASH_PRECISION = 6;

export type LatLng = { lat: number; lng: number };

/** Whether a latitude is a finite number from -90 to 90 and a longitude one from -180 to 180. */
export function isValidLatLng(lat: number, lng: number): boolean {
  return Number.isFinite(lat) && Number.isFinite(lng) && lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180;
}

/** The message every function refuses bad coordinates with. */
export const INVALID_COORDINATES_MESSAGE =
  "Location must be a latitude from -90 to 90 and a longitude from -180 to 180";

/** Throws INVALID_INPUT unless the coordinates are finite and in range (never NaN or Infinity). */
export function assertLatLng(lat: number, lng: number): void {
  if (!isValidLatLng(lat, lng)) throw appError(ErrorCode.INVALID_INPUT, INVALID_COORDINATES_MESSAGE);
}

/**
 * Whether a distance allows a check-in. Fails closed: a NaN or infinite
 * distance (from bad coordinates) is never "within 200 m".
 */
export function withinCheckInRadius(distanceMeters: number): boolean {
  return Number.isFinite(distanceMeters) && distanceMeters >= 0 && distanceMeters <= CHECK_IN_RADIUS_M;
}

const toRadians = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in metres (haversine, Earth radius 6371000 m). */
export function haversineMeters(a: LatLng, b: LatLng): number {
  const dLat = toRadians(b.lat - a.lat);
  const dLng = toRadians(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(toRadians(a.lat)) * Math.cos(toRadians(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Metres to miles, rounded to 0.1 mile. */
export function metersToMiles(m: number): number {
  return Math.round((m / METERS_PER_MILE) * 10) / 10;
}

const BASE32 = "0123456789bcdefghjkmnpqrstuvwxyz";

/** Standard geohash of a point (base32, interleaving longitude first). */
export function encodeGeohash(lat: number, lng: number, precision = 6): string {
  let latLo = -90;
  let latHi = 90;
  let lngLo = -180;
  let lngHi = 180;
  let hash = "";
  let bit = 0;
  let ch = 0;
  let even = true;
  while (hash.length < precision) {
    if (even) {
      const mid = (lngLo + lngHi) / 2;
      if (lng >= mid) {
        ch = (ch << 1) | 1;
        lngLo = mid;
      } else {
        ch = ch << 1;
        lngHi = mid;
      }
    } else {
      const mid = (latLo + latHi) / 2;
      if (lat >= mid) {
        ch = (ch << 1) | 1;
        latLo = mid;
      } else {
        ch = ch << 1;
        latHi = mid;
      }
    }
    even = !even;
    if (++bit === 5) {
      hash += BASE32[ch];
      bit = 0;
      ch = 0;
    }
  }
  return hash;
}

/** The bounding box of a geohash cell. */
export function decodeGeohashBounds(hash: string): {
  minLat: number;
  maxLat: number;
  minLng: number;
  maxLng: number;
} {
  let minLat = -90;
  let maxLat = 90;
  let minLng = -180;
  let maxLng = 180;
  let even = true;
  for (const c of hash.toLowerCase()) {
    const value = BASE32.indexOf(c);
    if (value < 0) throw new Error(`Invalid geohash character "${c}"`);
    for (let i = 4; i >= 0; i--) {
      const b = (value >> i) & 1;
      if (even) {
        const mid = (minLng + maxLng) / 2;
        if (b) minLng = mid;
        else maxLng = mid;
      } else {
        const mid = (minLat + maxLat) / 2;
        if (b) minLat = mid;
        else maxLat = mid;
      }
      even = !even;
    }
  }
  return { minLat, maxLat, minLng, maxLng };
}

const wrapLng = (lng: number) => ((((lng + 180) % 360) + 360) % 360) - 180;

/**
 * The 8 cells around `hash` at the same precision, clockwise from north
 * (N, NE, E, SE, S, SW, W, NW). Longitude wraps at the antimeridian; at the
 * poles, cells beyond the pole are left out, so fewer than 8 may come back.
 */
export function geohashNeighbors(hash: string): string[] {
  const { minLat, maxLat, minLng, maxLng } = decodeGeohashBounds(hash);
  const lat = (minLat + maxLat) / 2;
  const lng = (minLng + maxLng) / 2;
  const dLat = maxLat - minLat;
  const dLng = maxLng - minLng;
  const steps: Array<[number, number]> = [
    [1, 0],
    [1, 1],
    [0, 1],
    [-1, 1],
    [-1, 0],
    [-1, -1],
    [0, -1],
    [1, -1],
  ];
  const out: string[] = [];
  for (const [dy, dx] of steps) {
    const nLat = lat + dy * dLat;
    if (nLat > 90 || nLat < -90) continue;
    out.push(encodeGeohash(nLat, wrapLng(lng + dx * dLng), hash.length));
  }
  return out;
}

/** Height and width in metres of a geohash cell of `precision` at `lat`. */
function cellSizeMeters(precision: number, lat: number): { height: number; width: number } {
  const bits = precision * 5;
  const lngBits = Math.ceil(bits / 2);
  const latBits = Math.floor(bits / 2);
  const metersPerDegree = (Math.PI * EARTH_RADIUS_M) / 180;
  return {
    height: (180 / 2 ** latBits) * metersPerDegree,
    width: (360 / 2 ** lngBits) * metersPerDegree * Math.cos(toRadians(lat)),
  };
}

/**
 * Geohash prefixes whose cells together cover the circle of `radiusMeters`
 * around the point: the cell containing the point plus its neighbours, at the
 * finest precision (at most the stored precision 6) whose cells are at least
 * as tall and wide as the radius. Read each with an index range
 * `geohash >= prefix && geohash < prefix + "~"`, then check the exact distance.
 * Returns `[""]` (everything) when the circle is larger than the coarsest
 * cells or reaches a pole.
 */
export function geohashPrefixesForRadius(lat: number, lng: number, radiusMeters: number): string[] {
  const radiusDegLat = (radiusMeters / (Math.PI * EARTH_RADIUS_M)) * 180;
  // Widths shrink towards the poles, so size cells for the circle's most poleward latitude.
  const worstLat = Math.abs(lat) + radiusDegLat;
  if (worstLat >= 89) return [""];
  for (let p = STORED_GEOHASH_PRECISION; p >= 1; p--) {
    const { height, width } = cellSizeMeters(p, worstLat);
    if (height >= radiusMeters && width >= radiusMeters) {
      const center = encodeGeohash(lat, lng, p);
      return [...new Set([center, ...geohashNeighbors(center)])];
    }
  }
  return [""];
}
