import { PlusIcon } from "@radix-ui/react-icons";
import { Box, Button, Callout, Card, Flex, Grid, Heading, Skeleton, Text } from "@radix-ui/themes";
import { useConvexAuth, useQuery } from "convex/react";
import { useMemo, useState } from "react";
import { Link as RouterLink } from "react-router-dom";
import { api } from "../../../convex/_generated/api";
import { EmptyState } from "../../components/EmptyState";
import { ErrorBoundary } from "../../components/ErrorBoundary";
import { paths } from "../../lib/paths";
import { DEFAULT_FILTERS, filterSceneItems, type SceneFilters } from "./filters";
import { SceneCard } from "./SceneCard";
import { SceneFiltersPanel } from "./SceneFiltersPanel";
import type { SceneItem } from "./types";
import { useAddToSchedule } from "./useAddToSchedule";
import { useCheckIn } from "./useCheckIn";
import { useDistanceLocation } from "./useDistanceLocation";
import { useFavoriteToggle } from "./useFavoriteToggle";
import { useNow } from "@/lib/useNow";
import { useViewerState } from "./useViewerState";

const GRID_COLUMNS = { initial: "1", sm: "2", lg: "3" } as const;

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

function resultCountText(shown: number, total: number): string {
  const events = `${shown} ${shown === 1 ? "event" : "events"}`;
  return shown === total ? events : `${events} of ${total}`;
}

/** The live list: every active item, filtered on the client as the filters change. */
function SceneResults({ filters, location, onClear }: { filters: SceneFilters; location: { lat: number; lng: number } | null; onClear: () => void }) {
  const items = useQuery(api.scene.list, {});
  const viewer = useViewerState();
  const now = useNow(30_000);
  const { checkIn, pendingId } = useCheckIn();
  const addToSchedule = useAddToSchedule("card");
  const toggleFavorite = useFavoriteToggle();
  const shown = useMemo(() => (items ? filterSceneItems(items, filters, location) : []), [items, filters, location]);

  if (items === undefined) return <SceneSkeleton />;

  if (items.length === 0) {
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

  return (
    <Flex direction="column" gap="3">
      <Text size="2" color="gray" role="status" aria-live="polite" data-testid="result-count">
        {resultCountText(shown.length, items.length)}
      </Text>
      {shown.length === 0 ? (
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
        <Grid columns={GRID_COLUMNS} gap="4">
          {shown.map((item: SceneItem) => (
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
    </Flex>
  );
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
        <SceneResults
          filters={filters}
          location={filters.distanceEnabled ? location : null}
          onClear={clearFilters}
        />
      </ErrorBoundary>
    </Flex>
  );
}
