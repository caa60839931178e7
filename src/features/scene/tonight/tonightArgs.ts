// Relative, not @convex: vite.config.ts loads this file before its aliases apply.
import type { PlanFilters } from "../../../../convex/lib/tonight";

export type TonightArea = { lat: number; lng: number; radiusMiles: number };

export const NO_PLAN_FILTERS: PlanFilters = { freeOnly: false, signup: "any", timeOfDay: "any", hideStale: false };

/** How many nights Tonight shows first on the scene, and how many more each 'Show more' asks for. */
export const TONIGHT_PAGE = 10;

/**
 * The query's clock moves every quarter hour (every zone's midnight falls on
 * one); nights that ended since are dropped by the section. A new clock is a
 * new query, so it restarts the pages.
 */
export const QUERY_CLOCK_MS = 15 * 60_000;

/**
 * tonight.list's arguments without the page. One builder for the section and
 * for the request made while the app loads (firstPage.ts): the client matches
 * queries by their arguments' JSON, field order included.
 */
export function tonightArgs(input: {
  nowMs: number;
  timeZone: string;
  area: TonightArea | null;
  type: "all" | "open_mic" | "show";
  search: string;
  filters: PlanFilters;
}) {
  return {
    nowMs: Math.floor(input.nowMs / QUERY_CLOCK_MS) * QUERY_CLOCK_MS,
    timeZone: input.timeZone,
    ...(input.area ? { area: { lat: input.area.lat, lng: input.area.lng, radiusMiles: input.area.radiusMiles } } : {}),
    type: input.type,
    search: input.search.trim(),
    filters: {
      freeOnly: input.filters.freeOnly,
      signup: input.filters.signup,
      timeOfDay: input.filters.timeOfDay,
      hideStale: input.filters.hideStale,
    },
  };
}
