import { describe, expect, it } from "vitest";
import {
  CHECK_IN_RADIUS_M,
  decodeGeohashBounds,
  encodeGeohash,
  geohashNeighbors,
  geohashPrefixesForRadius,
  haversineMeters,
  metersToMiles,
  milesText,
  tooFarMessage,
} from "./geo";

const NYC = { lat: 40.7128, lng: -74.006 };
const LA = { lat: 34.0522, lng: -118.2437 };
const LONDON = { lat: 51.5074, lng: -0.1278 };
const PARIS = { lat: 48.8566, lng: 2.3522 };
const SYDNEY = { lat: -33.8688, lng: 151.2093 };
const MELBOURNE = { lat: -37.8136, lng: 144.9631 };

describe("haversineMeters", () => {
  it.each([
    ["New York - Los Angeles", NYC, LA, 3_936_000],
    ["London - Paris", LONDON, PARIS, 343_500],
    ["Sydney - Melbourne", SYDNEY, MELBOURNE, 713_800],
  ])("%s is within 1%% of the known distance", (_name, a, b, expected) => {
    const d = haversineMeters(a, b);
    expect(Math.abs(d - expected) / expected).toBeLessThan(0.01);
    expect(haversineMeters(b, a)).toBeCloseTo(d, 6);
  });

  it("is 0 for the same point and about 111.19 km per degree of latitude", () => {
    expect(haversineMeters(NYC, NYC)).toBe(0);
    expect(haversineMeters({ lat: 0, lng: 0 }, { lat: 1, lng: 0 })).toBeCloseTo(111_194.9, 0);
  });

  it("tells a check-in 150 m away from one 250 m away", () => {
    // 0.001 degrees of latitude is about 111 m.
    const venue = { lat: 40.73, lng: -73.99 };
    const near = { lat: venue.lat + 0.00135, lng: venue.lng };
    const far = { lat: venue.lat + 0.00225, lng: venue.lng };
    expect(haversineMeters(venue, near)).toBeLessThan(CHECK_IN_RADIUS_M);
    expect(haversineMeters(venue, far)).toBeGreaterThan(CHECK_IN_RADIUS_M);
  });
});

describe("metersToMiles", () => {
  it.each([
    [0, 0],
    [1609.34, 1],
    [8046.7, 5],
    [40_233.5, 25],
    [2500, 1.6],
    [3_936_000, 2445.7],
  ])("%d m -> %d mi", (m, miles) => {
    expect(metersToMiles(m)).toBe(miles);
  });
});

describe("encodeGeohash", () => {
  it.each([
    [57.64911, 10.40744, 11, "u4pruydqqvj"],
    [42.6, -5.6, 5, "ezs42"],
    [0, 0, 1, "s"],
    [-90, -180, 3, "000"],
    [40.7128, -74.006, 6, "dr5reg"],
  ])("(%d, %d) at %d -> %s", (lat, lng, precision, hash) => {
    expect(encodeGeohash(lat, lng, precision)).toBe(hash);
  });

  it("defaults to precision 6 and decodes to a cell containing the point", () => {
    const hash = encodeGeohash(NYC.lat, NYC.lng);
    expect(hash).toHaveLength(6);
    const b = decodeGeohashBounds(hash);
    expect(NYC.lat).toBeGreaterThanOrEqual(b.minLat);
    expect(NYC.lat).toBeLessThan(b.maxLat);
    expect(NYC.lng).toBeGreaterThanOrEqual(b.minLng);
    expect(NYC.lng).toBeLessThan(b.maxLng);
  });
});

describe("geohashNeighbors", () => {
  it("returns the 8 cells around a hash (N, NE, E, SE, S, SW, W, NW)", () => {
    expect(geohashNeighbors("gbsuv")).toEqual(["gbsvj", "gbsvn", "gbsuy", "gbsuw", "gbsut", "gbsus", "gbsuu", "gbsvh"]);
  });

  it("leaves out cells beyond a pole", () => {
    expect(geohashNeighbors(encodeGeohash(89.9, 10, 2))).toHaveLength(5);
  });

  it("wraps around the antimeridian", () => {
    const hash = encodeGeohash(0.1, 179.99, 4);
    const east = geohashNeighbors(hash)[2];
    const b = decodeGeohashBounds(east);
    expect(b.minLng).toBe(-180);
  });
});

describe("geohashPrefixesForRadius", () => {
  it.each([
    [NYC, 200],
    [NYC, 8_046.7],
    [NYC, 40_233.5],
    [NYC, 80_467],
    [LONDON, 25_000],
    [SYDNEY, 5_000],
  ])("covers every point of the circle around %o of radius %d m", (center, radius) => {
    const prefixes = geohashPrefixesForRadius(center.lat, center.lng, radius);
    expect(prefixes.length).toBeGreaterThan(0);
    expect(prefixes.length).toBeLessThanOrEqual(9);
    for (const p of prefixes) expect(p.length).toBeLessThanOrEqual(6);
    // Points on the circle (and inside it) must fall inside one of the prefixes.
    for (let bearing = 0; bearing < 360; bearing += 15) {
      for (const fraction of [0.5, 0.99]) {
        const d = (radius * fraction) / 6371000;
        const br = (bearing * Math.PI) / 180;
        const lat1 = (center.lat * Math.PI) / 180;
        const lng1 = (center.lng * Math.PI) / 180;
        const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(br));
        const lng2 =
          lng1 + Math.atan2(Math.sin(br) * Math.sin(d) * Math.cos(lat1), Math.cos(d) - Math.sin(lat1) * Math.sin(lat2));
        const stored = encodeGeohash((lat2 * 180) / Math.PI, (lng2 * 180) / Math.PI, 6);
        expect(prefixes.some((p) => stored.startsWith(p))).toBe(true);
      }
    }
  });

  it("uses the finest precision that still covers the radius", () => {
    expect(geohashPrefixesForRadius(NYC.lat, NYC.lng, 200)[0]).toHaveLength(6);
    expect(geohashPrefixesForRadius(NYC.lat, NYC.lng, 40_233.5)[0]).toHaveLength(3);
    expect(geohashPrefixesForRadius(NYC.lat, NYC.lng, 40_233.5)[0]).toBe("dr5");
  });

  it("falls back to everything for a huge circle", () => {
    expect(geohashPrefixesForRadius(NYC.lat, NYC.lng, 20_000_000)).toEqual([""]);
  });
});

describe("distances in words", () => {
  it.each([
    [250, "0.2 mi"],
    [1127, "0.7 mi"],
    [7081, "4.4 mi"],
    [17_000, "11 mi"],
    [130_000, "81 mi"],
  ])("%d m reads %s", (meters, text) => {
    expect(milesText(meters)).toBe(text);
  });
  it("a refused check-in says how far, in miles, and the rule", () => {
    expect(tooFarMessage(1127)).toBe("You are 0.7 mi from the venue; check-in works within 200 m");
  });
});
