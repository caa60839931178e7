import { Button } from "@radix-ui/themes";
import { useMemo } from "react";
import { Link as RouterLink } from "@/lib/router";
import { EmptyState } from "../../../components/EmptyState";
import { paths } from "../../../lib/paths";
import { hasActiveFilters, planFiltersOf, type SceneFilters } from "../filters/filters";
import { pagedSceneView, SEARCH_DEBOUNCE_MS } from "./listPaging";
import { IncrementalSceneList, usePagedSource } from "./IncrementalSceneList";
import { SceneSkeleton } from "./SceneSkeleton";
import { useDebouncedValue } from "./useDebouncedValue";
import { useNow } from "@/lib/useNow";
import { useScenePages } from "./useScenePages";
import { sceneListHour } from "./firstPage";

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
  const hour = sceneListHour(useNow(60_000));
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
