import { haversineMeters, METERS_PER_MILE, type LatLng } from "@convex/lib/geo";
import { matchesEveryTerm, searchTerms } from "@convex/lib/sceneSearch";
import { compareWeeklySlots } from "@convex/lib/time";
import type { SceneItem } from "../item/types";

export type TypeFilter = "all" | "open_mic" | "show";

/** The scene page's filters; `day` is 0 (Sunday) .. 6 (Saturday) or null for all days. */
export type SceneFilters = {
  search: string;
  type: TypeFilter;
  day: number | null;
  distanceEnabled: boolean;
  radiusMiles: number;
  /** The filters comedians plan by (server-side where the scene pages on the server). */
  freeOnly: boolean;
  signup: "any" | "in_person" | "online";
  timeOfDay: "any" | "early" | "prime" | "late";
  hideStale: boolean;
};

/** The plan filters of a scene filter set, as the server takes them. */
export function planFiltersOf(filters: SceneFilters): {
  freeOnly: boolean;
  signup: SceneFilters["signup"];
  timeOfDay: SceneFilters["timeOfDay"];
  hideStale: boolean;
} {
  return {
    freeOnly: filters.freeOnly,
    signup: filters.signup,
    timeOfDay: filters.timeOfDay,
    hideStale: filters.hideStale,
  };
}

export const SIGNUP_CHIPS: { value: SceneFilters["signup"]; label: string }[] = [
  { value: "any", label: "Any" },
  { value: "in_person", label: "In person" },
  { value: "online", label: "Online" },
];

export const TIME_OF_DAY_CHIPS: { value: SceneFilters["timeOfDay"]; label: string }[] = [
  { value: "any", label: "Any time" },
  { value: "early", label: "Before 7 PM" },
  { value: "prime", label: "7–9 PM" },
  { value: "late", label: "After 9 PM" },
];

export const DISTANCE_MIN_MILES = 5;
export const DISTANCE_MAX_MILES = 50;
export const DISTANCE_STEP_MILES = 5;
export const DEFAULT_RADIUS_MILES = 25;
/** Longest search the server accepts (scene.listPage). */
export const SEARCH_MAX_LENGTH = 100;

export const DEFAULT_FILTERS: SceneFilters = {
  search: "",
  type: "all",
  day: null,
  distanceEnabled: false,
  radiusMiles: DEFAULT_RADIUS_MILES,
  freeOnly: false,
  signup: "any",
  timeOfDay: "any",
  hideStale: false,
};

export const TYPE_CHIPS: { value: TypeFilter; label: string }[] = [
  { value: "all", label: "All" },
  { value: "open_mic", label: "Open Mic" },
  { value: "show", label: "Show" },
];

/** Day chips run Monday to Sunday, as comedians plan their week. */
export const DAY_CHIPS: { value: number | null; label: string }[] = [
  { value: null, label: "All" },
  { value: 1, label: "Mon" },
  { value: 2, label: "Tue" },
  { value: 3, label: "Wed" },
  { value: 4, label: "Thu" },
  { value: 5, label: "Fri" },
  { value: 6, label: "Sat" },
  { value: 0, label: "Sun" },
];

/** How many filters differ from the defaults (the count on the phone's "Filters" button). */
export function activeFilterCount(filters: SceneFilters): number {
  return [
    filters.search.trim() !== "",
    filters.type !== "all",
    filters.day !== null,
    filters.distanceEnabled,
    filters.freeOnly,
    filters.signup !== "any",
    filters.timeOfDay !== "any",
    filters.hideStale,
  ].filter(Boolean).length;
}

export function hasActiveFilters(filters: SceneFilters): boolean {
  return activeFilterCount(filters) > 0;
}

function matchesType(item: Pick<SceneItem, "type">, type: TypeFilter): boolean {
  if (type === "all") return true;
  if (type === "open_mic") return item.type === "open_mic";
  // "Show" covers every kind of show: plain, booked and bringer.
  return item.type !== "open_mic";
}

type FilterableItem = Pick<SceneItem, "title" | "venueName" | "city" | "type" | "dayOfWeek" | "latitude" | "longitude">;

/**
 * Applies the scene page's filters on the client. Search words must each start a word of
 * the title, venue or city (any case), the rule the server uses. While the distance filter is on, items
 * without coordinates drop out, and once the comedian's location is known only
 * items within the radius stay.
 */
export function filterSceneItems<T extends FilterableItem>(
  items: readonly T[],
  filters: SceneFilters,
  location: LatLng | null,
): T[] {
  const terms = searchTerms(filters.search);
  const radiusM = filters.radiusMiles * METERS_PER_MILE;
  return items.filter((item) => {
    if (terms.length > 0 && !matchesEveryTerm(`${item.title} ${item.venueName} ${item.city}`, terms)) return false;
    if (!matchesType(item, filters.type)) return false;
    if (filters.day !== null && item.dayOfWeek !== filters.day) return false;
    if (filters.distanceEnabled) {
      if (item.latitude === undefined || item.longitude === undefined) return false;
      if (location && haversineMeters(location, { lat: item.latitude, lng: item.longitude }) > radiusM) {
        return false;
      }
    }
    return true;
  });
}

/** Miles from `from` to the item, to the tenth a card shows; null without coordinates. */
export function milesAway(item: Pick<SceneItem, "latitude" | "longitude">, from: LatLng): number | null {
  if (item.latitude === undefined || item.longitude === undefined) return null;
  return Math.round((haversineMeters(from, { lat: item.latitude, lng: item.longitude }) / METERS_PER_MILE) * 10) / 10;
}

/**
 * "Mics near me": nearest first (to the tenth of a mile a card shows), then by day and start
 * time, then title. Each item comes with its distance for its card.
 */
export function nearestFirst<T extends FilterableItem & Pick<SceneItem, "startTimeLocal">>(
  items: readonly T[],
  from: LatLng,
): { item: T; miles: number | null }[] {
  return items
    .map((item) => ({ item, miles: milesAway(item, from) }))
    .sort((a, b) => (a.miles ?? Infinity) - (b.miles ?? Infinity) || compareWeeklySlots(a.item, b.item));
}
