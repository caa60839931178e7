import { usePaginatedQuery as usePinnedPaginatedQuery } from "convex-helpers/react";
import { useEffect } from "react";
import { api } from "@convex/_generated/api";
import type { LatLng } from "@convex/lib/geo";
import { AreaSceneList } from "./AreaSceneList";
import { areaFirstPageArgs, OPENING_CONSTANTS, retireHttpPage, useHttpPage } from "./firstPage";
import { areaCenter, SCENE_PAGE_SIZE } from "./listPaging";
import { usePagedSource } from "./IncrementalSceneList";
import type { ResultsProps } from "./SceneResults";

/**
 * Distance filter on with a known location: only the mics in the circle, a
 * page of 24 at a time (sceneArea.listArea reads just the geohash cells around
 * the point), live. The point is rounded to 3 decimals so GPS jitter keeps the
 * same subscription. Its own chunk (with the paging hook): until it is in, the
 * page shows the first page without it (ScenePage's AreaFirstPage).
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
  const pages = usePagedSource(status, loadMore, false);
  return (
    <AreaSceneList
      filters={filters}
      location={location}
      onClear={onClear}
      results={status === "LoadingFirstPage" ? null : results}
      pages={pages}
    />
  );
}
