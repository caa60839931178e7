import { Button } from "@radix-ui/themes";
import { usePaginatedQuery as usePinnedPaginatedQuery } from "convex-helpers/react";
import { useMemo } from "react";
import { Link as RouterLink } from "react-router-dom";
import { api } from "../../../convex/_generated/api";
import type { LatLng } from "../../../convex/lib/geo";
import { matchesPlanFilters } from "../../../convex/lib/tonight";
import { EmptyState } from "../../components/EmptyState";
import { paths } from "../../lib/paths";
import { filterSceneItems, hasActiveFilters, planFiltersOf, type SceneFilters } from "./filters";
import { areaCenter, pagedSceneView, SCENE_PAGE_SIZE, SEARCH_DEBOUNCE_MS } from "./incremental";
import { IncrementalSceneList, usePagedSource } from "./IncrementalSceneList";
import { SceneSkeleton } from "./SceneSkeleton";
import { useDebouncedValue } from "./useDebouncedValue";
import { useNow } from "@/lib/useNow";
import { useScenePages } from "./useScenePages";

export type ResultsProps = {
  filters: SceneFilters;
  onClear: () => void;
};

export const isClearedSearch = (text: string) => text === "";

/**
 * Filters off the distance: the server pages through the scene (scene.listPage)
 * with the type, day and search applied there, 24 at a time, so the page costs
 * the same whatever the national total. The search goes to the server after a
 * pause in typing; clearing it applies at once.
 */
export function AllSceneResults({ filters, onClear }: ResultsProps) {
  const typed = filters.search.trim();
  const search = useDebouncedValue(typed, SEARCH_DEBOUNCE_MS, isClearedSearch);
  const hour = Math.floor(useNow(60_000) / 3_600_000) * 3_600_000;
  const plan = useMemo(() => planFiltersOf(filters), [filters]);
  const { results, status, loadMore, refreshing } = useScenePages({
    type: filters.type,
    day: filters.day,
    search,
    filters: plan,
    nowMs: hour,
  });
  const pages = usePagedSource(status, loadMore, refreshing);

  const view = pagedSceneView({ status, loaded: results.length, filtered: hasActiveFilters(filters) });
  if (view === "skeleton") return <SceneSkeleton />;
  if (view === "start-your-scene") {
    return (
      <EmptyState
        title="Start Your Local Scene!"
        description="No mics or shows are listed yet. Add the ones you know and help comedians find stage time."
        action={
          <Button asChild>
            <RouterLink to={paths.addEvent}>+ Add a Local Mic</RouterLink>
          </Button>
        }
      />
    );
  }
  // The server has filtered, so what is loaded is what matches; there is no
  // larger total to show until the last page is in.
  return (
    <IncrementalSceneList
      filters={filters}
      onClear={onClear}
      matching={results}
      total={results.length}
      pages={pages}
      nearby={false}
      busy={refreshing || search !== typed}
      keepFound={false}
    />
  );
}

/**
 * Distance filter on with a known location: only the mics in the circle, a
 * page of 24 at a time (sceneArea.listArea reads just the geohash cells around
 * the point). The point is rounded to 3 decimals so GPS jitter keeps the same
 * subscription.
 */
export function AreaSceneResults({ filters, location, onClear }: ResultsProps & { location: LatLng }) {
  const center = areaCenter(location);
  // listArea reads several cell ranges, which Convex's query journal cannot pin,
  // so each loaded page passes its end cursor explicitly (convex-helpers' hook):
  // a mic added or removed earlier in the order cannot repeat or drop a card.
  const { results, status, loadMore } = usePinnedPaginatedQuery(
    api.sceneArea.listArea,
    { lat: center.lat, lng: center.lng, radiusMiles: filters.radiusMiles },
    { initialNumItems: SCENE_PAGE_SIZE },
  );
  // With the distance filter, search, type and day apply to the pages loaded so
  // far: the server has already kept only the circle, so distance is not re-checked.
  const now = useNow(60_000);
  const matching = useMemo(
    () =>
      filterSceneItems(results, { ...filters, distanceEnabled: false }, null).filter((item) =>
        matchesPlanFilters(item, planFiltersOf(filters), now),
      ),
    [results, filters, now],
  );
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
      busy={false}
      keepFound
    />
  );
}
