import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import { matchScore, searchQueryText } from "./model/venues";
import { expectAppError } from "./testing/test.expect";
import { createSceneItem, newTest } from "./testing/test.setup";

describe("venues.search", () => {
  test("groups active items into distinct venues and skips inactive ones", async () => {
    const t = newTest();
    await createSceneItem(t, {
      venueName: "Comedy Cellar",
      address: "117 MacDougal St",
      title: "Early",
      googlePlaceId: "p1",
    });
    await createSceneItem(t, {
      venueName: "Comedy Cellar",
      address: "117 MacDougal St",
      title: "Late",
      startTimeLocal: "22:00",
    });
    await createSceneItem(t, {
      venueName: "Comedy Cellar",
      address: "Las Vegas",
      city: "Las Vegas",
      timeZone: "America/Los_Angeles",
      latitude: undefined,
      longitude: undefined,
    });
    await createSceneItem(t, { venueName: "Comedy Shack", status: "inactive" });
    await createSceneItem(t, { venueName: "The Stand" });

    const results = await t.query(api.venues.search, { query: "cellar" });
    expect(results).toHaveLength(2);
    const nyc = results.find((r) => r.address === "117 MacDougal St");
    expect(nyc).toMatchObject({ venueName: "Comedy Cellar", itemCount: 2, googlePlaceId: "p1", city: "New York" });
    const vegas = results.find((r) => r.address === "Las Vegas");
    expect(vegas).toEqual({
      venueName: "Comedy Cellar",
      address: "Las Vegas",
      city: "Las Vegas",
      googlePlaceId: null,
      latitude: null,
      longitude: null,
      timeZone: "America/Los_Angeles",
      itemCount: 1,
    });
    expect(await t.query(api.venues.search, { query: "shack" })).toEqual([]);
    expect(await t.query(api.venues.search, { query: "   " })).toEqual([]);
  });

  test("puts the venues whose name answers the typed text first", async () => {
    const t = newTest();
    await createSceneItem(t, { venueName: "The Gutter Lounge" });
    await createSceneItem(t, { venueName: "The Velvet Room" });
    await createSceneItem(t, { venueName: "The Paper Lantern Bar" });
    await createSceneItem(t, { venueName: "The Lantern Tap" });
    const names = (await t.query(api.venues.search, { query: "the lant" })).map((r) => r.venueName);
    expect(names.slice(0, 2)).toEqual(["The Lantern Tap", "The Paper Lantern Bar"]);
  });
});

describe("searchQueryText", () => {
  test("keeps at most 16 words of at most 200 characters", () => {
    expect(searchQueryText("  the   lantern  ")).toBe("the lantern");
    const many = Array.from({ length: 30 }, (_, i) => `w${i}`).join(" ");
    expect(searchQueryText(many).split(" ")).toHaveLength(16);
    expect(searchQueryText("x".repeat(500))).toHaveLength(200);
  });
});

describe("matchScore", () => {
  test.each([
    ["the lant", "The Lantern Tap", 5],
    ["the lant", "The Paper Lantern Bar", 2],
    ["the lant", "The Gutter Lounge", 1],
    ["cellar", "Comedy Cellar", 3],
    ["zzz", "Comedy Cellar", 0],
  ])("%s in %s scores %d", (query, name, expected) => {
    expect(matchScore(query, name)).toBe(expected);
  });
});

describe("venues.eventsAt", () => {
  test("lists active events at a place id, ordered by day then time", async () => {
    const t = newTest();
    const fri = await createSceneItem(t, { venueName: "Gotham", googlePlaceId: "g", dayOfWeek: 5 });
    const mon = await createSceneItem(t, {
      venueName: "Gotham",
      googlePlaceId: "g",
      dayOfWeek: 1,
      startTimeLocal: "21:00",
    });
    const monEarly = await createSceneItem(t, {
      venueName: "Gotham",
      googlePlaceId: "g",
      dayOfWeek: 1,
      startTimeLocal: "18:00",
    });
    await createSceneItem(t, { venueName: "Gotham", googlePlaceId: "g", status: "inactive" });
    await createSceneItem(t, { venueName: "Elsewhere", googlePlaceId: "other" });
    const events = await t.query(api.venues.eventsAt, { venueName: "Gotham", googlePlaceId: "g" });
    expect(events.map((e) => e._id)).toEqual([monEarly, mon, fri]);
    // Returned items carry no server-only fields.
    expect(events[0]).not.toHaveProperty("searchText");
  });

  test("matches by exact venue name without a place id, or when no item has the id", async () => {
    const t = newTest();
    const a = await createSceneItem(t, { venueName: "Hand Entered Bar" });
    await createSceneItem(t, { venueName: "Hand Entered Bar 2" });
    expect((await t.query(api.venues.eventsAt, { venueName: "Hand Entered Bar" })).map((e) => e._id)).toEqual([a]);
    expect(
      (await t.query(api.venues.eventsAt, { venueName: "Hand Entered Bar", googlePlaceId: "fresh" })).map((e) => e._id),
    ).toEqual([a]);
    expect(await t.query(api.venues.eventsAt, { venueName: "Nowhere" })).toEqual([]);
  });
});

describe("venues.similar", () => {
  test("offers up to 3 events whose venue names overlap enough, best first", async () => {
    const t = newTest();
    const exact = await createSceneItem(t, { venueName: "Brooklyn Comedy Collective" });
    const close = await createSceneItem(t, { venueName: "Brooklyn Comedy Club" });
    const weaker = await createSceneItem(t, { venueName: "Comedy Collective of Queens and the Bronx" });
    // Shares one word of eight: 1/8 is not above 0.2.
    await createSceneItem(t, { venueName: "The Comedy Shop on Main Street Downtown" });
    await createSceneItem(t, { venueName: "Brooklyn Comedy Collective", status: "inactive" });
    const inNewYork = { city: "New York" };
    const similar = await t.query(api.venues.similar, { venueName: "Brooklyn Comedy Collective", ...inNewYork });
    expect(similar.map((s) => s._id)).toEqual([exact, close, weaker]);
    expect(await t.query(api.venues.similar, { venueName: "Zebra", ...inNewYork })).toEqual([]);
    expect(await t.query(api.venues.similar, { venueName: "", ...inNewYork })).toEqual([]);
  });

  test("offers only venues near the chosen one: a few miles away, or in its city when coordinates are unknown", async () => {
    const t = newTest();
    // The chosen venue is in Manhattan; similar names in Philadelphia and Los Angeles are not the same room.
    const paperLantern = { latitude: 40.7265, longitude: -73.9815 };
    const nearby = await createSceneItem(t, {
      venueName: "The Lantern Lounge",
      city: "New York",
      latitude: 40.7306,
      longitude: -73.9866,
    });
    await createSceneItem(t, {
      venueName: "The Lantern Tap",
      title: "Fishtown Funny Mic",
      city: "Philadelphia",
      latitude: 39.9713,
      longitude: -75.1345,
    });
    await createSceneItem(t, {
      venueName: "Lantern Bar LA",
      city: "Los Angeles",
      latitude: 34.0522,
      longitude: -118.2437,
    });
    const typedIn = await createSceneItem(t, {
      venueName: "Paper Lantern Annex",
      city: "New York",
      latitude: undefined,
      longitude: undefined,
    });
    const ids = async (args: { city?: string; address?: string; latitude?: number; longitude?: number }) =>
      (await t.query(api.venues.similar, { venueName: "The Paper Lantern Bar", ...args })).map((s) => s._id).sort();

    // By coordinates: the Manhattan lounge (0.4 mi) only; the hand-typed annex has none, so its city decides.
    expect(await ids({ ...paperLantern, address: "12 Avenue B, New York, NY 10009" })).toEqual(
      [nearby, typedIn].sort(),
    );
    // A venue typed in by hand (a city, no coordinates): the same city only.
    expect(await ids({ city: "new york" })).toEqual([nearby, typedIn].sort());
    expect(await ids({ city: "Philadelphia" })).toHaveLength(1);
    // Nothing known about where the venue is: nothing is offered.
    expect(await ids({})).toEqual([]);
    await expectAppError(
      t.query(api.venues.similar, { venueName: "The Paper Lantern Bar", latitude: 91, longitude: 0 }),
      "INVALID_INPUT",
    );
  });
});
