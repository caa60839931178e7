import type { LatLng } from "../../../convex/lib/geo";

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
export function revealedSlice<T extends { _id: string }>(items: readonly T[], limit: number, pinned: ReadonlySet<string>): T[] {
  if (pinned.size === 0) return items.slice(0, limit);
  return items.filter((item, i) => i < limit || pinned.has(item._id));
}

/** Items with repeated ids dropped, keeping the first. */
export function uniqueById<T extends { _id: string }>(items: readonly T[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(item._id) && !!seen.add(item._id));
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
 * - `total`: items the filters ran over (the whole scene, or the loaded pages);
 * - `complete`: false while the area query has pages left, when no total is known yet.
 */
export function resultCountText({
  shown,
  matching,
  total,
  complete,
}: {
  shown: number;
  matching: number;
  total: number;
  complete: boolean;
}): string {
  if (!complete) return `Showing ${events(shown)} nearby so far`;
  if (shown < matching) return `Showing ${shown} of ${events(matching)}`;
  return matching === total ? events(matching) : `${events(matching)} of ${total}`;
}
