import { describe, expect, it } from "vitest";
import { moveHighlight } from "./combobox";
import { mapsLoadToast, searchStatusMessage } from "./googleMaps";
import { LOCATION_MAX_AGE_MS, readSavedLocation, saveLocation } from "./userLocation";
import { manualVenue, MIN_CHARS_MESSAGE, sceneResultToVenue, searchHint } from "./venueResults";

describe("venue search", () => {
  it("asks for 3 characters in the add-event search", () => {
    expect(searchHint("ab", 3)).toBe(MIN_CHARS_MESSAGE);
    expect(MIN_CHARS_MESSAGE).toBe("Type at least 3 characters");
    expect(searchHint("abc", 3)).toBeNull();
    expect(searchHint("", 3)).toBeNull();
    expect(searchHint("a", 1)).toBeNull();
  });

  it("maps autocomplete statuses to the spec's search errors", () => {
    expect(searchStatusMessage("OK")).toBeNull();
    expect(searchStatusMessage("ZERO_RESULTS")).toBe("No venues found for your search");
    expect(searchStatusMessage("REQUEST_DENIED")).toBe("Places API request denied - check API key configuration");
    expect(searchStatusMessage("OVER_QUERY_LIMIT")).toBe("Too many requests - please try again later");
    expect(searchStatusMessage("UNKNOWN_ERROR")).toBe("Failed to search venues");
  });

  it("titles load failures as the spec does", () => {
    expect(mapsLoadToast("missing-key").title).toBe("Configuration Error");
    expect(mapsLoadToast("load").title).toBe("Maps API Error");
    expect(mapsLoadToast("timeout").title).toBe("Maps API Error");
    expect(mapsLoadToast("no-places").title).toBe("Google Places not available");
  });

  it("moves the highlight with wrap-around", () => {
    expect(moveHighlight(-1, "ArrowDown", 3)).toBe(0);
    expect(moveHighlight(2, "ArrowDown", 3)).toBe(0);
    expect(moveHighlight(0, "ArrowUp", 3)).toBe(2);
    expect(moveHighlight(-1, "ArrowUp", 0)).toBe(-1);
  });

  it("keeps a scene venue without null fields", () => {
    expect(
      sceneResultToVenue({
        venueName: "The Stand",
        address: null,
        city: "New York",
        googlePlaceId: null,
        latitude: null,
        longitude: null,
        timeZone: "America/New_York",
        itemCount: 2,
      }),
    ).toEqual({ venueName: "The Stand", city: "New York", timeZone: "America/New_York" });
  });

  it("keeps coordinates of a hand-entered venue only when the comedian is there", () => {
    expect(manualVenue({ venueName: " Bar ", address: "", city: " Austin " }, null, "America/Chicago")).toEqual({
      venueName: "Bar",
      city: "Austin",
      timeZone: "America/Chicago",
    });
    expect(manualVenue({ venueName: "Bar", address: "1 Main", city: "" }, { lat: 1, lng: 2 }, "UTC")).toMatchObject({
      address: "1 Main",
      latitude: 1,
      longitude: 2,
    });
  });

  it("reuses a saved location only while under an hour old", () => {
    const storage = (ts: number) => ({ getItem: () => JSON.stringify({ lat: 40, lng: -73, ts }) });
    expect(readSavedLocation(1_000_000, storage(1_000_000 - 5_000))).toEqual({ lat: 40, lng: -73 });
    expect(readSavedLocation(10_000_000, storage(10_000_000 - LOCATION_MAX_AGE_MS - 1))).toBeNull();
    expect(readSavedLocation(0, { getItem: () => "garbage" })).toBeNull();
  });
});

describe("saveLocation", () => {
  function memoryStorage(initial: Record<string, string> = {}) {
    const items = new Map(Object.entries(initial));
    return {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => void items.set(key, value),
    };
  }

  it("keeps the scene's remembered distance filter when the venue search saves a new location", () => {
    const storage = memoryStorage({ userLocation: JSON.stringify({ lat: 1, lng: 2, ts: 0, radiusMiles: 25 }) });
    saveLocation({ lat: 40.7, lng: -74 }, 5_000, storage);
    expect(JSON.parse(storage.getItem("userLocation")!)).toEqual({ lat: 40.7, lng: -74, ts: 5_000, radiusMiles: 25 });
  });

  it("saves just the location when no filter is remembered or the entry is unreadable", () => {
    const empty = memoryStorage();
    saveLocation({ lat: 40.7, lng: -74 }, 5_000, empty);
    expect(JSON.parse(empty.getItem("userLocation")!)).toEqual({ lat: 40.7, lng: -74, ts: 5_000 });
    const broken = memoryStorage({ userLocation: "{not json" });
    saveLocation({ lat: 40.7, lng: -74 }, 6_000, broken);
    expect(JSON.parse(broken.getItem("userLocation")!)).toEqual({ lat: 40.7, lng: -74, ts: 6_000 });
  });
});
