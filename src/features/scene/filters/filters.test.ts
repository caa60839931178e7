import { describe, expect, test } from "vitest";
import { activeFilterCount, DEFAULT_FILTERS, filterSceneItems, hasActiveFilters, type SceneFilters } from "./filters";

type Item = {
  title: string;
  venueName: string;
  city: string;
  type: "open_mic" | "show" | "booked_show" | "bringer_show";
  dayOfWeek?: number | null;
  latitude?: number;
  longitude?: number;
};

// Times Square, Brooklyn (about 9 miles away) and Philadelphia (about 80 miles away).
const items: Item[] = [
  {
    title: "Laugh Lab",
    venueName: "The Cellar",
    city: "New York",
    type: "open_mic",
    dayOfWeek: 3,
    latitude: 40.758,
    longitude: -73.9855,
  },
  {
    title: "Brooklyn Bombs",
    venueName: "Union Hall",
    city: "Brooklyn",
    type: "show",
    dayOfWeek: 5,
    latitude: 40.6782,
    longitude: -73.9442,
  },
  {
    title: "Philly Booked",
    venueName: "Helium",
    city: "Philadelphia",
    type: "booked_show",
    dayOfWeek: 5,
    latitude: 39.9526,
    longitude: -75.1652,
  },
  { title: "Bring Two", venueName: "Basement", city: "Boston", type: "bringer_show", dayOfWeek: 0 },
  { title: "No Day Mic", venueName: "Somewhere", city: "Austin", type: "open_mic", dayOfWeek: null },
];

const titles = (list: Item[]) => list.map((i) => i.title);
const f = (over: Partial<SceneFilters>): SceneFilters => ({ ...DEFAULT_FILTERS, ...over });

describe("filterSceneItems", () => {
  test.each([
    ["no filters keep everything", f({}), null, items.map((i) => i.title)],
    ["search matches title, any case", f({ search: "laugh" }), null, ["Laugh Lab"]],
    ["search matches venue", f({ search: "UNION hall" }), null, ["Brooklyn Bombs"]],
    ["search matches city", f({ search: "philadelphia" }), null, ["Philly Booked"]],
    ["search trims spaces", f({ search: "  boston " }), null, ["Bring Two"]],
    ["search without a match", f({ search: "zzz" }), null, []],
    ["search words start words of any field, as on the server", f({ search: "cellar new" }), null, ["Laugh Lab"]],
    ["search inside a word does not match, as on the server", f({ search: "augh" }), null, []],
    ["type open mic", f({ type: "open_mic" }), null, ["Laugh Lab", "No Day Mic"]],
    [
      "type show covers booked and bringer shows",
      f({ type: "show" }),
      null,
      ["Brooklyn Bombs", "Philly Booked", "Bring Two"],
    ],
    ["day Friday", f({ day: 5 }), null, ["Brooklyn Bombs", "Philly Booked"]],
    ["day Sunday is 0", f({ day: 0 }), null, ["Bring Two"]],
    ["filters combine", f({ day: 5, type: "show", search: "brook" }), null, ["Brooklyn Bombs"]],
    [
      "distance on without a location drops items without coordinates",
      f({ distanceEnabled: true }),
      null,
      ["Laugh Lab", "Brooklyn Bombs", "Philly Booked"],
    ],
    [
      "distance 25 miles from Times Square",
      f({ distanceEnabled: true, radiusMiles: 25 }),
      { lat: 40.758, lng: -73.9855 },
      ["Laugh Lab", "Brooklyn Bombs"],
    ],
    [
      "distance 5 miles from Times Square",
      f({ distanceEnabled: true, radiusMiles: 5 }),
      { lat: 40.758, lng: -73.9855 },
      ["Laugh Lab"],
    ],
    [
      "distance 50 miles still excludes Philadelphia",
      f({ distanceEnabled: true, radiusMiles: 50 }),
      { lat: 40.758, lng: -73.9855 },
      ["Laugh Lab", "Brooklyn Bombs"],
    ],
    [
      "distance off ignores the location",
      f({ distanceEnabled: false, radiusMiles: 5 }),
      { lat: 40.758, lng: -73.9855 },
      items.map((i) => i.title),
    ],
  ])("%s", (_name, filters, location, expected) => {
    expect(titles(filterSceneItems(items, filters, location))).toEqual(expected);
  });

  test("hasActiveFilters", () => {
    expect(hasActiveFilters(DEFAULT_FILTERS)).toBe(false);
    expect(hasActiveFilters(f({ search: "  " }))).toBe(false);
    expect(hasActiveFilters(f({ search: "a" }))).toBe(true);
    expect(hasActiveFilters(f({ type: "show" }))).toBe(true);
    expect(hasActiveFilters(f({ day: 0 }))).toBe(true);
    expect(hasActiveFilters(f({ distanceEnabled: true }))).toBe(true);
  });

  test("activeFilterCount counts each filter set away from its default", () => {
    expect(activeFilterCount(DEFAULT_FILTERS)).toBe(0);
    expect(activeFilterCount(f({ search: " ", radiusMiles: 5 }))).toBe(0);
    expect(activeFilterCount(f({ type: "show", day: 3, freeOnly: true }))).toBe(3);
    expect(
      activeFilterCount(
        f({ search: "x", distanceEnabled: true, signup: "online", timeOfDay: "late", hideStale: true, day: 0 }),
      ),
    ).toBe(6);
  });
});
