import { PlusIcon } from "@radix-ui/react-icons";
import { Box, Button, Callout, Card, Flex, Heading, Skeleton, Text } from "@radix-ui/themes";
import { useConvexAuth } from "convex/react";
import { lazy, Suspense, useMemo, useState } from "react";
import { Link as RouterLink } from "react-router-dom";
import type { LatLng } from "../../../convex/lib/geo";
import { ErrorBoundary } from "../../components/ErrorBoundary";
import { paths } from "../../lib/paths";
import { DEFAULT_FILTERS, planFiltersOf, type SceneFilters } from "./filters";
import { areaCenter, SEARCH_DEBOUNCE_MS } from "./incremental";
import { AllSceneResults, isClearedSearch } from "./SceneResults";
import { SceneSkeleton } from "./SceneSkeleton";
import { TonightLoading } from "./tonight/TonightLoading";
import { useDebouncedValue } from "./useDebouncedValue";
import { useDistanceLocation } from "./useDistanceLocation";
import { usePainted } from "@/lib/afterNextPaint";

// Not part of the first card's paint: Tonight (and the paging hook it shares with
// the area list), the filters (with Radix's switch) and the distance filter's
// list are chunks of their own, loaded when they first mount.
const TonightSection = lazy(() => import("./tonight/TonightSection").then((m) => ({ default: m.TonightSection })));
const AreaSceneResults = lazy(() => import("./AreaSceneResults"));
const SceneFiltersPanel = lazy(() => import("./SceneFiltersPanel").then((m) => ({ default: m.SceneFiltersPanel })));

/** The filters' place while their code loads (about their height, so the list does not jump). */
function FiltersLoading() {
  return (
    <Card size="2" aria-hidden="true">
      <Skeleton height="320px" />
    </Card>
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
  const [filters, setFilters] = useState<SceneFilters>(DEFAULT_FILTERS);
  const { location, error, locating, requestLocation, clearError } = useDistanceLocation();
  // Tonight and the filters (their code loads apart) mount once the page's first render
  // (the first cards, or the skeleton while the first page is on its way) has been painted.
  const painted = usePainted();

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
        {painted ? <TonightPanel filters={filters} location={location} /> : <TonightLoading />}
      </ErrorBoundary>
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
