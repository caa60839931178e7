import { MixerHorizontalIcon, PlusIcon } from "@radix-ui/react-icons";
import { Badge, Box, Button, Callout, Card, Flex, Heading, Skeleton, Text } from "@radix-ui/themes";
import { useConvex, useConvexAuth, useQuery } from "convex/react";
import { type ComponentProps, lazy, Suspense, useEffect, useId, useMemo, useState, type ReactNode } from "react";
import { Link as RouterLink } from "@/lib/router";
import { api } from "@convex/_generated/api";
import type { LatLng } from "@convex/lib/geo";
import { ErrorBoundary } from "../../../components/ErrorBoundary";
import { paths } from "../../../lib/paths";
import { activeFilterCount, DEFAULT_FILTERS, planFiltersOf, type SceneFilters } from "../filters/filters";
import { areaCenter, SEARCH_DEBOUNCE_MS } from "./listPaging";
import { AllSceneResults, isClearedSearch } from "./SceneResults";
import { AreaSceneList } from "./AreaSceneList";
import { areaFirstPageArgs, OPENING_CONSTANTS, prewarmAreaFirstPage, useHttpPage } from "./firstPage";
import type { SceneItem } from "../item/types";
import { SceneSkeleton } from "./SceneSkeleton";
import { TonightLoading } from "../tonight/TonightLoading";
import { useDebouncedValue } from "./useDebouncedValue";
import { readRememberedArea, rememberDistanceFilter, type RememberedArea } from "../filters/location";
import { useDistanceLocation } from "../filters/useDistanceLocation";
import { usePainted } from "@/lib/afterNextPaint";
import { loadOnce } from "@/lib/loadOnce";

// Not part of the first card's paint: Tonight (and the paging hook it shares with
// the area list), the filters (with Radix's switch) and the distance filter's
// list are chunks of their own. Tonight's and the filters' are asked for as this
// module loads, while the page renders; once loaded they render directly, without
// suspending (a lazy component suspends on its first render even when its code is
// there). The area list's is run once the page has rendered (its first page needs
// none of it; index.html has fetched it by then).
type TonightModule = typeof import("../tonight/TonightSection");
type AreaModule = typeof import("./AreaSceneResults");
type FiltersModule = typeof import("../filters/SceneFiltersPanel");
const loaded: { tonight: TonightModule | null; area: AreaModule | null; filters: FiltersModule | null } = {
  tonight: null,
  area: null,
  filters: null,
};
const loadTonight = loadOnce(() => import("../tonight/TonightSection").then((m) => (loaded.tonight = m)));
const loadAreaResults = loadOnce(() => import("./AreaSceneResults").then((m) => (loaded.area = m)));
const loadFilters = loadOnce(() => import("../filters/SceneFiltersPanel").then((m) => (loaded.filters = m)));
const LazyTonightSection = lazy(() => loadTonight().then((m) => ({ default: m.TonightSection })));
const LazyAreaSceneResults = lazy(loadAreaResults);
const LazyFiltersPanel = lazy(() => loadFilters().then((m) => ({ default: m.SceneFiltersPanel })));
if (typeof window !== "undefined") {
  void loadTonight().catch(() => undefined);
  // Mounted once the first render is painted, with their code in by then: the distance switch shows at once.
  void loadFilters().catch(() => undefined);
}

function TonightSection(props: ComponentProps<TonightModule["TonightSection"]>) {
  const Section = loaded.tonight?.TonightSection ?? LazyTonightSection;
  return <Section {...props} />;
}

function SceneFiltersPanel(props: ComponentProps<FiltersModule["SceneFiltersPanel"]>) {
  const Panel = loaded.filters?.SceneFiltersPanel ?? LazyFiltersPanel;
  return <Panel {...props} />;
}

/**
 * The distance filter's list. Until its code is in, its first page (the live
 * one, or the one fetched with the HTML) shows without it, so the first cards
 * wait for neither; on a failed load the lazy component's error reaches the
 * page's boundary.
 */
function AreaSceneResults(props: ComponentProps<AreaModule["default"]>) {
  const [state, setState] = useState<"loading" | "loaded" | "failed">(loaded.area ? "loaded" : "loading");
  useEffect(() => {
    if (state !== "loading") return;
    let live = true;
    loadAreaResults().then(
      () => live && setState("loaded"),
      () => live && setState("failed"),
    );
    return () => {
      live = false;
    };
  }, [state]);
  if (state === "loading") return <AreaFirstPage {...props} />;
  const Results = loaded.area?.default ?? LazyAreaSceneResults;
  return <Results {...props} />;
}

type AreaPage = { page: SceneItem[]; isDone: boolean };

/** The distance filter's first page while its list's code loads: no more pages until that is in. */
function AreaFirstPage({ filters, location, onClear }: ComponentProps<AreaModule["default"]>) {
  const args = areaFirstPageArgs({ ...areaCenter(location), radiusMiles: filters.radiusMiles });
  // The very query the list subscribes to first (one subscription), and the page index.html's script fetched.
  const live = useQuery(api.sceneArea.listArea, args) as AreaPage | undefined;
  const fetched = useHttpPage<AreaPage>({ path: OPENING_CONSTANTS.areaPath, args });
  const page = live ?? fetched;
  const pages = useMemo(
    () => ({
      canLoadMore: false,
      loadingMore: page !== undefined && !page.isDone,
      complete: page?.isDone ?? false,
      loadMore: () => undefined,
    }),
    [page],
  );
  return (
    <AreaSceneList filters={filters} location={location} onClear={onClear} results={page?.page ?? null} pages={pages} />
  );
}

/** The filters the scene opens with: the defaults, with the distance filter on if it was left on. */
function openingFilters(remembered: RememberedArea | null): SceneFilters {
  return remembered
    ? { ...DEFAULT_FILTERS, distanceEnabled: true, radiusMiles: remembered.radiusMiles }
    : DEFAULT_FILTERS;
}

/** The filters' place while their code loads (about their height, so the list does not jump). */
function FiltersLoading() {
  return (
    <Card size="2" aria-hidden="true">
      <Skeleton height="320px" />
    </Card>
  );
}

/**
 * On a phone the filters fold behind a "Filters" button (with how many are on), so the
 * first listing shows without scrolling; from the sm breakpoint up they are always open.
 */
function FiltersFold({ filters, children }: { filters: SceneFilters; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const count = activeFilterCount(filters);
  return (
    <>
      <Box display={{ initial: "block", sm: "none" }}>
        <Button
          variant="soft"
          color="gray"
          highContrast
          aria-expanded={open}
          aria-controls={panelId}
          aria-label={count > 0 ? `Filters, ${count} on` : "Filters"}
          onClick={() => setOpen((o) => !o)}
        >
          <MixerHorizontalIcon aria-hidden="true" />
          Filters
          {count > 0 ? (
            <Badge color="violet" variant="solid" radius="full" aria-hidden="true">
              {count}
            </Badge>
          ) : null}
        </Button>
      </Box>
      <Box id={panelId} display={{ initial: open ? "block" : "none", sm: "block" }}>
        {children}
      </Box>
    </>
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
  return (
    <Suspense fallback={<TonightLoading />}>
      <TonightSection area={area} type={filters.type} search={search} filters={plan} />
    </Suspense>
  );
}

/** /scene: every mic and show, searchable and filterable, updating live. */
export function ScenePage() {
  const { isAuthenticated } = useConvexAuth();
  const convex = useConvex();
  // A distance filter left on (its location under an hour old) is on at once, without asking the browser.
  const [remembered] = useState(() => readRememberedArea(Date.now()));
  const [filters, setFilters] = useState<SceneFilters>(() => openingFilters(remembered));
  const { location, error, locating, requestLocation, clearError } = useDistanceLocation(remembered?.location ?? null);
  const rememberedRadius = filters.distanceEnabled && location ? filters.radiusMiles : null;
  useEffect(() => rememberDistanceFilter(rememberedRadius), [rememberedRadius]);
  // The filters (their code loads apart) mount once the page's first render (the first
  // cards, or the skeleton while the first page is on its way) has been painted; Tonight
  // then too, or sooner (below).
  const painted = usePainted();
  // Tonight renders as soon as its code is in (its first page came with the HTML), not after the paint.
  const [tonightReady, setTonightReady] = useState(loaded.tonight !== null);
  useEffect(() => {
    if (!tonightReady)
      void loadTonight().then(
        () => setTonightReady(true),
        () => undefined,
      );
  }, [tonightReady]);

  const onDistanceToggle = async (enabled: boolean) => {
    setFilters((f) => ({ ...f, distanceEnabled: enabled }));
    if (!enabled) {
      clearError();
      return;
    }
    // The list's code loads while the browser finds the location.
    void loadAreaResults().catch(() => undefined);
    const at = await requestLocation();
    // Without a location the filter would hide everything: turn it back off.
    if (!at) setFilters((f) => ({ ...f, distanceEnabled: false }));
    // Its first page is asked for now, not after the render that mounts the list.
    else prewarmAreaFirstPage(convex, at, filters.radiusMiles);
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
        {painted || tonightReady ? <TonightPanel filters={filters} location={location} /> : <TonightLoading />}
      </ErrorBoundary>
      <FiltersFold filters={filters}>
        <Suspense fallback={<FiltersLoading />}>
          {painted ? (
            <SceneFiltersPanel
              filters={filters}
              onChange={setFilters}
              onDistanceToggle={(enabled) => void onDistanceToggle(enabled)}
              onClear={clearFilters}
              locating={locating}
              locationError={error}
            />
          ) : (
            <FiltersLoading />
          )}
        </Suspense>
      </FiltersFold>
      <ErrorBoundary
        fallback={
          <Callout.Root color="red" role="alert">
            <Callout.Text>Failed to load venues. Please try again.</Callout.Text>
          </Callout.Root>
        }
      >
        {filters.distanceEnabled && location ? (
          <Suspense fallback={<SceneSkeleton />}>
            <AreaSceneResults filters={filters} location={location} onClear={clearFilters} />
          </Suspense>
        ) : (
          <AllSceneResults filters={filters} onClear={clearFilters} />
        )}
      </ErrorBoundary>
    </Flex>
  );
}
