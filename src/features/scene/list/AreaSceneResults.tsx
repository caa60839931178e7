import { usePaginatedQuery as usePinnedPaginatedQuery } from "convex-helpers/react";
import { useEffect, useMemo } from "react";
import { api } from "@convex/_generated/api";
import type { LatLng } from "@convex/lib/geo";
import { matchesPlanFilters } from "@convex/lib/tonight";
import { filterSceneItems, nearestFirst, planFiltersOf } from "../filters/filters";
import { areaFirstPageArgs, OPENING_CONSTANTS, retireHttpPage, useHttpPage } from "./firstPage";
import { areaCenter, SCENE_PAGE_SIZE } from "./listPaging";
import { IncrementalSceneList, usePagedSource } from "./IncrementalSceneList";
import { SceneSkeleton } from "./SceneSkeleton";
import type { ResultsProps } from "./SceneResults";
import { useNow } from "@/lib/useNow";

/**
 * Distance filter on with a known location: only the mics in the circle, a
 * page of 24 at a time (sceneArea.listArea reads just the geohash cells around
 * the point). The point is rounded to 3 decimals so GPS jitter keeps the same
 * subscription. Loaded when the distance filter is first turned on (not part of
 * the scene's first paint).
 */
export default function AreaSceneResults({ filters, location, onClear }: ResultsProps & { location: LatLng }) {
  const center = areaCenter(location);
  // listArea reads several cell ranges, which Convex's query journal cannot pin,
  // so each loaded page passes its end cursor explicitly (convex-helpers' hook):
  // a mic added or removed earlier in the order cannot repeat or drop a card.
  const live = usePinnedPaginatedQuery(
    api.sceneArea.listArea,
    { lat: center.lat, lng: center.lng, radiusMiles: filters.radiusMiles },
    { initialNumItems: SCENE_PAGE_SIZE },
  );
  // Opening with the filter on, the first page index.html's script fetched stands in until the live one is in.
  const firstPage = {
    path: OPENING_CONSTANTS.areaPath,
    args: areaFirstPageArgs({ ...center, radiusMiles: filters.radiusMiles }),
  };
  const waiting = live.status === "LoadingFirstPage";
  const early = useHttpPage<{ page: typeof live.results; isDone: boolean }>(waiting ? firstPage : null);
  useEffect(() => {
    if (!waiting) retireHttpPage(firstPage.path, firstPage.args);
  }, [waiting]); // eslint-disable-line react-hooks/exhaustive-deps
  const { results, status, loadMore } =
    waiting && early
      ? { ...live, results: early.page, status: early.isDone ? ("Exhausted" as const) : ("CanLoadMore" as const) }
      : live;
  // With the distance filter, search, type and day apply to the pages loaded so
  // far: the server has already kept only the circle, so distance is not re-checked.
  const now = useNow(60_000);
  // Nearest first over the pages loaded so far, each card with its distance.
  const { matching, milesById } = useMemo(() => {
    const kept = filterSceneItems(results, { ...filters, distanceEnabled: false }, null).filter((item) =>
      matchesPlanFilters(item, planFiltersOf(filters), now),
    );
    const sorted = nearestFirst(kept, location);
    return {
      matching: sorted.map((s) => s.item),
      milesById: new Map(sorted.map((s) => [s.item._id, s.miles] as const)),
    };
  }, [results, filters, now, location]);
  const pages = usePagedSource(status, loadMore, false);

  if (status === "LoadingFirstPage") return <SceneSkeleton />;
  return (
    <IncrementalSceneList
      filters={filters}
      onClear={onClear}
      matching={matching}
      total={results.length}
      pages={pages}
      nearby
      milesById={milesById}
      busy={false}
      keepFound
    />
  );
}
