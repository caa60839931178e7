import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { LOCATION_MESSAGES, locationErrorMessage, readCachedLocation, writeCachedLocation } from "./location";

describe("locationErrorMessage", () => {
  test.each([
    [1, "Location access denied. Please enable location services in your browser settings and try again."],
    [2, "Location unavailable. Please check your device's location settings and try again."],
    [3, "Location request timed out. Please try again."],
    [0, "Unable to get your location."],
    [42, "Unable to get your location."],
  ])("code %i", (code, message) => {
    expect(locationErrorMessage(code)).toBe(message);
  });

  test("unsupported browsers", () => {
    expect(LOCATION_MESSAGES.unsupported).toBe("Geolocation is not supported by this browser");
  });
});

describe("cached location (localStorage userLocation)", () => {
  let store: Map<string, string>;
  beforeEach(() => {
    store = new Map();
    vi.stubGlobal("localStorage", {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  const t0 = 1_700_000_000_000;

  test("is stored as {lat, lng, ts} and reused for an hour", () => {
    writeCachedLocation({ lat: 40.7, lng: -74 }, t0);
    expect(JSON.parse(store.get("userLocation")!)).toEqual({ lat: 40.7, lng: -74, ts: t0 });
    expect(readCachedLocation(t0 + 59 * 60_000)).toEqual({ lat: 40.7, lng: -74 });
    expect(readCachedLocation(t0 + 60 * 60_000)).toEqual({ lat: 40.7, lng: -74 });
    expect(readCachedLocation(t0 + 60 * 60_000 + 1)).toBeNull();
  });

  test("ignores a missing or malformed entry", () => {
    expect(readCachedLocation(t0)).toBeNull();
    store.set("userLocation", "not json");
    expect(readCachedLocation(t0)).toBeNull();
    store.set("userLocation", JSON.stringify({ lat: "40", lng: -74, ts: t0 }));
    expect(readCachedLocation(t0)).toBeNull();
  });
});
