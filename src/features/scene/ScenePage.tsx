import { PlusIcon } from "@radix-ui/react-icons";
import { Box, Button, Callout, Card, Flex, Grid, Heading, Skeleton, Spinner, Text } from "@radix-ui/themes";
import { useConvexAuth } from "convex/react";
import { usePaginatedQuery as usePinnedPaginatedQuery } from "convex-helpers/react";
import { startTransition, useEffect, useMemo, useRef, useState } from "react";
import { Link as RouterLink } from "react-router-dom";
import { api } from "../../../convex/_generated/api";
import type { LatLng } from "../../../convex/lib/geo";
import { EmptyState } from "../../components/EmptyState";
import { ErrorBoundary } from "../../components/ErrorBoundary";
import { paths } from "../../lib/paths";
import { DEFAULT_FILTERS, filterSceneItems, hasActiveFilters, planFiltersOf, type SceneFilters } from "./filters";
import { matchesPlanFilters } from "../../../convex/lib/tonight";
import { TonightSection } from "./tonight/TonightSection";
import {
  areaCenter,
  hasMoreToShow,
  nextLimit,
  pagedSceneView,
  resultCountText,
  revealedSlice,
  SCENE_PAGE_SIZE,
  SEARCH_DEBOUNCE_MS,
} from "./incremental";
import { SceneCard } from "./SceneCard";
import { SceneFiltersPanel } from "./SceneFiltersPanel";
import type { SceneItem } from "./types";
import { useAddToSchedule } from "./useAddToSchedule";
import { useCheckIn } from "./useCheckIn";
import { useDebouncedValue } from "./useDebouncedValue";
import { useDistanceLocation } from "./useDistanceLocation";
import { useFavoriteToggle } from "./useFavoriteToggle";
import { useNow } from "@/lib/useNow";
import { useRevealSentinel } from "./useRevealSentinel";
import { useScenePages } from "./useScenePages";
import { useViewerState } from "./useViewerState";

const GRID_COLUMNS = { initial: "1", sm: "2", lg: "3" } as const;

/** Cards in the first paint of the list: two rows of the widest grid (see IncrementalSceneList). */
const FIRST_PAINT_CARDS = 6;

function SceneSkeleton() {
  return (
    <Grid columns={GRID_COLUMNS} gap="4" role="status" aria-label="Loading the scene" aria-busy="true">
      {Array.from({ length: 6 }, (_, i) => (
        <Card key={i} size="2">
          <Flex direction="column" gap="2">
            <Skeleton height="20px" width="80px" />
            <Skeleton height="24px" width="70%" />
            <Skeleton height="16px" width="50%" />
            <Skeleton height="16px" width="90%" />
            <Skeleton height="32px" width="100%" />
          </Flex>
        </Card>
      ))}
    </Grid>
  );
}

type ResultsProps = {
  filters: SceneFilters;
  onClear: () => void;
};

const isClearedSearch = (text: string) => text === "";

/**
 * Filters off the distance: the server pages through the scene (scene.listPage)
 * with the type, day and search applied there, 24 at a time, so the page costs
 * the same whatever the national total. The search goes to the server after a
 * pause in typing; clearing it applies at once.
 */
function AllSceneResults({ filters, onClear }: ResultsProps) {
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
function AreaSceneResults({ filters, location, onClear }: ResultsProps & { location: LatLng }) {
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

/** Where the items come from: the server's pages. */
type PagedSource = {
  canLoadMore: boolean;
  loadingMore: boolean;
  /** Every page is loaded, so the counts are totals. */
  complete: boolean;
  loadMore: () => void;
};

/** A paginated query's status as a {@link PagedSource}; no more pages while a new first page loads. */
function usePagedSource(
  status: "LoadingFirstPage" | "CanLoadMore" | "LoadingMore" | "Exhausted",
  loadMore: (numItems: number) => void,
  refreshing: boolean,
): PagedSource {
  return useMemo(
    () => ({
      canLoadMore: status === "CanLoadMore" && !refreshing,
      loadingMore: status === "LoadingMore",
      complete: status === "Exhausted",
      loadMore: () => loadMore(SCENE_PAGE_SIZE),
    }),
    [status, refreshing, loadMore],
  );
}

/**
 * The matching items, 24 at first and 24 more per 'Show more' or each time the
 * end of the list scrolls near. Changing any filter starts again at 24. Only
 * rendered cards cost anything, so the first card shows without waiting for
 * hundreds of others.
 */
function IncrementalSceneList({
  filters,
  onClear,
  matching,
  total,
  pages,
  nearby,
  busy,
  keepFound,
}: ResultsProps & {
  matching: SceneItem[];
  total: number;
  pages: PagedSource;
  /** The items are the distance filter's circle (for the count's wording). */
  nearby: boolean;
  /** New results are on their way; the cards shown are the previous ones. */
  busy: boolean;
  /**
   * Cards a search found stay once it is cleared. Only where the search runs
   * over the loaded pages (the circle): a server search's finds are usually in
   * pages of the whole scene that are not loaded.
   */
  keepFound: boolean;
}) {
  const viewer = useViewerState();
  const now = useNow(30_000);
  const { checkIn, pendingId } = useCheckIn();
  const addToSchedule = useAddToSchedule("card");
  const toggleFavorite = useFavoriteToggle();

  // The limit belongs to one set of filters: a new filters object means a fresh start at 24.
  const [limitFor, setLimitFor] = useState({ filters, limit: SCENE_PAGE_SIZE });
  const limit = limitFor.filters === filters ? limitFor.limit : SCENE_PAGE_SIZE;

  // The cards a search found stay in the list once the search is cleared, so
  // the comedian sees the mic they found in its place in the week.
  const [found, setFound] = useState<{ search: string; ids: ReadonlySet<string> }>({ search: "", ids: new Set() });
  const searching = filters.search.trim() !== "";
  const shown = useMemo(
    () => (searching || !keepFound ? matching.slice(0, limit) : revealedSlice(matching, limit, found.ids)),
    [matching, limit, searching, keepFound, found],
  );
  useEffect(() => {
    if (!searching || !keepFound) return;
    setFound((prev) => {
      const ids = prev.search === filters.search ? prev.ids : new Set<string>();
      if (prev.search === filters.search && shown.every((item) => ids.has(item._id))) return prev;
      return { search: filters.search, ids: new Set([...ids, ...shown.map((item) => item._id)]) };
    });
  }, [searching, keepFound, filters.search, shown]);
  const more = hasMoreToShow(limit, matching.length, pages.canLoadMore);

  // The first paint carries only the cards of the first screen; the rest of the
  // page follows in a transition right after, so the first card does not wait for
  // two dozen cards' worth of rendering.
  const [firstPaintDone, setFirstPaintDone] = useState(false);
  const capped = !firstPaintDone && shown.length > FIRST_PAINT_CARDS;
  useEffect(() => {
    if (capped) startTransition(() => setFirstPaintDone(true));
  }, [capped]);
  const rendered = capped ? shown.slice(0, FIRST_PAINT_CARDS) : shown;

  // Server pages can come back with nothing new (a search keeps only the rows
  // with every word): after two such loads in a row, scrolling stops loading
  // and 'Show more' asks for the next page, so a list never chains page after
  // empty page on its own.
  const [idle, setIdle] = useState({ filters, loads: 0, from: -1 });
  const idleLoads = idle.filters === filters ? idle.loads : 0;
  useEffect(() => {
    if (pages.loadingMore || idle.filters !== filters || idle.from < 0) return;
    setIdle({ filters, loads: matching.length === idle.from ? idle.loads + 1 : 0, from: -1 });
  }, [pages.loadingMore, matching.length, filters, idle]);

  const showMore = () => {
    const next = nextLimit(limit, matching.length);
    if (next > matching.length && pages.canLoadMore) {
      pages.loadMore();
      setIdle({ filters, loads: idleLoads, from: matching.length });
    }
    setLimitFor({ filters, limit: next });
  };
  const sentinelRef = useRevealSentinel(
    showMore,
    more && !pages.loadingMore && idleLoads < 2 && !capped,
    rendered.length,
  );

  // After 'Show more', focus moves to the first new card so keyboard and
  // screen-reader users carry on from there (the button may be gone).
  const grid = useRef<HTMLDivElement>(null);
  const focusIndex = useRef<number | null>(null);
  useEffect(() => {
    const index = focusIndex.current;
    if (index === null) return;
    if (shown.length > index) {
      focusIndex.current = null;
      grid.current?.querySelectorAll<HTMLElement>("article")[index]?.focus();
    } else if (!more && !pages.loadingMore) {
      focusIndex.current = null;
    }
  }, [shown.length, more, pages.loadingMore]);

  const nothingYet = shown.length === 0 && !more && !pages.loadingMore;
  return (
    <Flex direction="column" gap="3" aria-busy={busy} data-testid="scene-results">
      <Flex align="center" gap="2">
        <Text size="2" color="gray" role="status" aria-live="polite" data-testid="result-count">
          {resultCountText({ shown: shown.length, matching: matching.length, total, complete: pages.complete, nearby })}
        </Text>
        {busy ? <Spinner size="1" role="img" aria-label="Loading results" /> : null}
      </Flex>
      {nothingYet ? (
        <EmptyState
          title="No events match your filters"
          description="Try another search, day or distance."
          action={
            <Button variant="soft" onClick={onClear}>
              Clear filters
            </Button>
          }
        />
      ) : (
        <Grid ref={grid} columns={GRID_COLUMNS} gap="4">
          {rendered.map((item: SceneItem) => (
            <SceneCard
              key={item._id}
              item={item}
              viewer={viewer}
              now={now}
              checkingIn={pendingId === item._id}
              onCheckIn={(it) => void checkIn(it._id)}
              onAddToSchedule={(it) => void addToSchedule(it)}
              onToggleFavorite={(it, isFavorite) => void toggleFavorite(it._id, isFavorite)}
            />
          ))}
        </Grid>
      )}
      {more || pages.loadingMore ? (
        <Flex direction="column" align="center" gap="2" pt="2">
          <div ref={sentinelRef} aria-hidden="true" style={{ height: 1, alignSelf: "stretch" }} />
          <Button
            variant="soft"
            onClick={() => {
              focusIndex.current = shown.length;
              showMore();
            }}
          >
            {pages.loadingMore ? <Spinner /> : null}
            Show more
          </Button>
        </Flex>
      ) : null}
    </Flex>
  );
}

/** Tonight at the top of the scene, narrowed by the same type, search, plan and distance filters. */
function TonightPanel({ filters, location }: { filters: SceneFilters; location: LatLng | null }) {
  const search = useDebouncedValue(filters.search.trim(), SEARCH_DEBOUNCE_MS, isClearedSearch);
  const plan = useMemo(() => planFiltersOf(filters), [filters]);
  const center = filters.distanceEnabled && location ? areaCenter(location) : null;
  const area = useMemo(
    () => (center ? { lat: center.lat, lng: center.lng, radiusMiles: filters.radiusMiles } : null),
    [center?.lat, center?.lng, filters.radiusMiles], // eslint-disable-line react-hooks/exhaustive-deps
  );
  return <TonightSection area={area} type={filters.type} search={search} filters={plan} />;
}

/** /scene: every mic and show, searchable and filterable, updating live. */
export function ScenePage() {
  const { isAuthenticated } = useConvexAuth();
  const [filters, setFilters] = useState<SceneFilters>(DEFAULT_FILTERS);
  const { location, error, locating, requestLocation, clearError } = useDistanceLocation();

  const onDistanceToggle = async (enabled: boolean) => {
    setFilters((f) => ({ ...f, distanceEnabled: enabled }));
    if (!enabled) {
      clearError();
      return;
    }
    const ok = await requestLocation();
    // Without a location the filter would hide everything: turn it back off.
    if (!ok) setFilters((f) => ({ ...f, distanceEnabled: false }));
  };

  const clearFilters = () => {
    setFilters(DEFAULT_FILTERS);
    clearError();
  };

  return (
    <Flex direction="column" gap="4">
      <Flex justify="between" align="start" gap="3" wrap="wrap">
        <Box>
          <Heading as="h1" size="7">
            Comedy Scene
          </Heading>
          <Text as="p" color="gray" size="3">
            Discover mics and shows in your area
          </Text>
        </Box>
        {isAuthenticated ? (
          <Button asChild>
            <RouterLink to={paths.addEvent}>
              <PlusIcon aria-hidden="true" />
              Add Event
            </RouterLink>
          </Button>
        ) : null}
      </Flex>
      <ErrorBoundary fallback={null}>
        <TonightPanel filters={filters} location={location} />
      </ErrorBoundary>
      <SceneFiltersPanel
        filters={filters}
        onChange={setFilters}
        onDistanceToggle={(enabled) => void onDistanceToggle(enabled)}
        onClear={clearFilters}
        locating={locating}
        locationError={error}
      />
      <ErrorBoundary
        fallback={
          <Callout.Root color="red" role="alert">
            <Callout.Text>Failed to load venues. Please try again.</Callout.Text>
          </Callout.Root>
        }
      >
        {filters.distanceEnabled && location ? (
          <AreaSceneResults filters={filters} location={location} onClear={clearFilters} />
        ) : (
          <AllSceneResults filters={filters} onClear={clearFilters} />
        )}
      </ErrorBoundary>
    </Flex>
  );
}
