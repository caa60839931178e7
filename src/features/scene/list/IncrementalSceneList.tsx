import { Button, Flex, Grid, Spinner, Text } from "@radix-ui/themes";
import { startTransition, useEffect, useMemo, useRef, useState } from "react";
import { EmptyState } from "../../../components/EmptyState";
import type { SceneFilters } from "../filters/filters";
import { hasMoreToShow, nextLimit, resultCountText, revealedSlice, SCENE_PAGE_SIZE } from "./listPaging";
import { SceneCard } from "../card/SceneCard";
import { GRID_COLUMNS } from "./SceneSkeleton";
import type { SceneItem } from "../item/types";
import { useCardActions } from "../actions/useCardActions";
import { afterNextPaint } from "@/lib/afterNextPaint";
import { useNow } from "@/lib/useNow";
import { useRevealSentinel } from "./useRevealSentinel";
import { useViewerState } from "../item/useViewerState";

/** Cards in the first paint of the list: two rows of the widest grid (see IncrementalSceneList). */
const FIRST_PAINT_CARDS = 6;

/** Where the items come from: the server's pages. */
export type PagedSource = {
  canLoadMore: boolean;
  loadingMore: boolean;
  /** Every page is loaded, so the counts are totals. */
  complete: boolean;
  loadMore: () => void;
};

/** A paginated query's status as a {@link PagedSource}; no more pages while a new first page loads. */
export function usePagedSource(
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
export function IncrementalSceneList({
  filters,
  onClear,
  matching,
  total,
  pages,
  nearby,
  busy,
  keepFound,
  milesById,
}: {
  filters: SceneFilters;
  onClear: () => void;
  matching: SceneItem[];
  total: number;
  pages: PagedSource;
  /** The items are the distance filter's circle (for the count's wording). */
  nearby: boolean;
  /** Each card's distance from the comedian, with the distance filter on. */
  milesById?: ReadonlyMap<SceneItem["_id"], number | null>;
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
  const { checkIn, pendingId, addToSchedule, removeFromSchedule, toggleFavorite } = useCardActions();

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
  // page follows in a transition once that has been painted, so the first card
  // waits neither for two dozen cards' worth of rendering nor behind it.
  const [firstPaintDone, setFirstPaintDone] = useState(false);
  const capped = !firstPaintDone && shown.length > FIRST_PAINT_CARDS;
  useEffect(() => {
    if (!capped) return;
    return afterNextPaint(() => startTransition(() => setFirstPaintDone(true)));
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
              milesAway={milesById?.get(item._id) ?? null}
              checkingIn={pendingId === item._id}
              onCheckIn={(it) => void checkIn(it._id)}
              onAddToSchedule={(it) => void addToSchedule(it)}
              onRemoveFromSchedule={(it) => void removeFromSchedule(it._id)}
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
