// Relative, not @convex: vite.config.ts loads this file before its aliases apply.
import type { LatLng } from "../../../../convex/lib/geo";

/** Cards the scene renders at first, and how many more each 'Show more' (or scroll) adds. */
export const SCENE_PAGE_SIZE = 24;

/**
 * The render limit after one more step: 24 past what is shown now. Counting
 * from what is shown (not the old limit) keeps the limit from running ahead
 * while pages that match nothing load.
 */
export function nextLimit(limit: number, matching: number, step = SCENE_PAGE_SIZE): number {
  return Math.min(limit, matching) + step;
}

/**
 * The first `limit` items plus any later ones in `pinned` (cards a search
 * found), in list order.
 */
export function revealedSlice<T extends { _id: string }>(
  items: readonly T[],
  limit: number,
  pinned: ReadonlySet<string>,
): T[] {
  if (pinned.size === 0) return items.slice(0, limit);
  return items.filter((item, i) => i < limit || pinned.has(item._id));
}

/** Whether anything is left to reveal: matching items past the limit, or pages still on the server. */
export function hasMoreToShow(limit: number, matching: number, canLoadMore: boolean): boolean {
  return limit < matching || canLoadMore;
}

/** Degrees rounded to 3 decimals (about 100 m), so GPS jitter does not change query arguments. */
export function roundCoord(degrees: number): number {
  return Math.round(degrees * 1000) / 1000;
}

/** The area query's point, rounded. */
export function areaCenter(location: LatLng): LatLng {
  return { lat: roundCoord(location.lat), lng: roundCoord(location.lng) };
}

const events = (n: number) => `${n} ${n === 1 ? "event" : "events"}`;

/**
 * The aria-live result count.
 * - `shown`: cards on screen; `matching`: items that pass the filters;
 * - `total`: items the filters ran over (the loaded pages; the same as
 *   `matching` when the server filtered them);
 * - `complete`: false while the server has pages left, when no total is known yet;
 * - `nearby`: the items are the distance filter's circle.
 */
export function resultCountText({
  shown,
  matching,
  total,
  complete,
  nearby,
}: {
  shown: number;
  matching: number;
  total: number;
  complete: boolean;
  nearby: boolean;
}): string {
  if (!complete) return `Showing ${events(shown)}${nearby ? " nearby" : ""} so far`;
  if (shown < matching) return `Showing ${shown} of ${events(matching)}`;
  return matching === total ? events(matching) : `${events(matching)} of ${total}`;
}

/** How long the scene waits after the last keystroke before it searches the server. */
export const SEARCH_DEBOUNCE_MS = 250;

/**
 * Calls `onSettle` with the last value pushed once `delayMs` pass without
 * another push; `cancel` drops a pending value.
 */
export function debouncer<T>(
  delayMs: number,
  onSettle: (value: T) => void,
): { push: (value: T) => void; cancel: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    push(value) {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timer = undefined;
        onSettle(value);
      }, delayMs);
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}

/** What the server-paged scene shows instead of (or around) its cards. */
export type PagedSceneView = "skeleton" | "start-your-scene" | "list";

/**
 * The skeleton only while nothing was ever loaded (a new search keeps the
 * previous cards on screen instead); 'Start Your Local Scene!' only when the
 * whole scene is empty: no filter, and the server has nothing at all.
 */
export function pagedSceneView({
  status,
  loaded,
  filtered,
}: {
  status: "LoadingFirstPage" | "CanLoadMore" | "LoadingMore" | "Exhausted";
  loaded: number;
  filtered: boolean;
}): PagedSceneView {
  if (status === "LoadingFirstPage") return "skeleton";
  if (status === "Exhausted" && loaded === 0 && !filtered) return "start-your-scene";
  return "list";
}
