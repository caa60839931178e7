import { useMemo } from "react";
import type { LatLng } from "@convex/lib/geo";
import { matchesPlanFilters } from "@convex/lib/tonight";
import { filterSceneItems, nearestFirst, planFiltersOf } from "../filters/filters";
import type { SceneItem } from "../item/types";
import { IncrementalSceneList, type PagedSource } from "./IncrementalSceneList";
import { SceneSkeleton } from "./SceneSkeleton";
import type { ResultsProps } from "./SceneResults";
import { useNow } from "@/lib/useNow";

/**
 * The distance filter's cards from the pages loaded so far (null: none yet),
 * nearest first, each with its distance. Part of the scene's own code, so a
 * first page fetched with the HTML paints before the live list's code is in.
 */
export function AreaSceneList({
  filters,
  location,
  onClear,
  results,
  pages,
}: ResultsProps & { location: LatLng; results: SceneItem[] | null; pages: PagedSource }) {
  // Search, type and day apply to the pages loaded so far: the server has
  // already kept only the circle, so distance is not re-checked.
  const now = useNow(60_000);
  const { matching, milesById } = useMemo(() => {
    const kept = filterSceneItems(results ?? [], { ...filters, distanceEnabled: false }, null).filter((item) =>
      matchesPlanFilters(item, planFiltersOf(filters), now),
    );
    const sorted = nearestFirst(kept, location);
    return {
      matching: sorted.map((s) => s.item),
      milesById: new Map(sorted.map((s) => [s.item._id, s.miles] as const)),
    };
  }, [results, filters, now, location]);

  if (results === null) return <SceneSkeleton />;
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
