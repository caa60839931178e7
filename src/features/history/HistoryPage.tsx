import { PlusIcon } from "@radix-ui/react-icons";
import { Box, Button, Card, Flex, Grid, Heading, Skeleton, Text } from "@radix-ui/themes";
import { useConvexAuth, usePaginatedQuery, useQuery } from "convex/react";
import { Link as RouterLink } from "@/lib/router";
import { api } from "@convex/_generated/api";
import { landedSummary } from "@convex/lib/bitRules";
import { formatDuration } from "@convex/lib/time";
import { BackToDashboardLink } from "@/components/BackToDashboardLink";
import { EmptyState } from "@/components/EmptyState";
import { ErrorBoundary } from "@/components/ErrorBoundary";
import { LoadingState } from "@/components/LoadingState";
import { LogFirstSetButton } from "@/components/LogFirstSetButton";
import { StatTile } from "@/components/StatTile";
import { TagBadges } from "@/components/TagBadges";
import { paths } from "@/lib/paths";
import {
  DeletePerformanceDialog,
  EditPerformanceDialog,
  formatSetDate,
  formatSetTime,
  PerformanceDetailDialog,
  type HistoryRow,
} from "./PerformanceDialogs";

/** Sets fetched per page (and per 'Load more'). */
export const HISTORY_PAGE_SIZE = 25;

const listStyle = { listStyle: "none", margin: 0, padding: 0 } as const;

function HistoryStats() {
  const stats = useQuery(api.history.stats);
  if (stats === undefined) {
    return (
      <Grid columns={{ initial: "1", xs: "3" }} gap="3">
        {Array.from({ length: 3 }, (_, i) => (
          <Skeleton key={i} height="76px" />
        ))}
      </Grid>
    );
  }
  return (
    <Grid columns={{ initial: "1", xs: "3" }} gap="3">
      <StatTile label="Total Sets" value={String(stats.totalSets)} />
      <StatTile label="Total Minutes" value={String(stats.totalMinutes)} />
      <StatTile label="Average Set" value={formatDuration(stats.averageMinutes)} />
    </Grid>
  );
}

function SetRow({ set }: { set: HistoryRow }) {
  return (
    <li aria-label={`${formatSetDate(set.performedAt)}, ${set.venueName}, ${set.minutes} minutes`}>
      <Card size="2">
        <Flex
          justify="between"
          align={{ initial: "start", sm: "center" }}
          gap="3"
          direction={{ initial: "column", sm: "row" }}
        >
          <Box minWidth="0">
            <Text as="p" size="3" weight="bold">
              {set.venueName}
            </Text>
            <Text as="p" size="2" color="gray">
              {formatSetDate(set.performedAt)} · {formatSetTime(set.performedAt)} · {formatDuration(set.minutes)}
            </Text>
            {set.bits !== null ? (
              <Text as="p" size="2" color="green">
                {landedSummary(set.bits)}
              </Text>
            ) : null}
            <TagBadges tags={set.tags} mt="2" />
          </Box>
          <Flex gap="2" wrap="wrap" flexShrink="0">
            <Button asChild size="1" variant="soft">
              <RouterLink
                to={paths.setBits(set._id)}
                aria-label={`Bits of the set on ${formatSetDate(set.performedAt)}`}
              >
                Bits
              </RouterLink>
            </Button>
            <PerformanceDetailDialog set={set} />
            <EditPerformanceDialog set={set} />
            <DeletePerformanceDialog set={set} />
          </Flex>
        </Flex>
      </Card>
    </li>
  );
}

function SetList() {
  const { results, status, loadMore } = usePaginatedQuery(api.history.list, {}, { initialNumItems: HISTORY_PAGE_SIZE });
  if (status === "LoadingFirstPage") return <LoadingState variant="skeleton" label="Loading your sets" rows={4} />;
  if (results.length === 0) {
    return (
      <EmptyState
        title="No sets logged yet"
        description="Every set you log shows up here."
        action={<LogFirstSetButton />}
      />
    );
  }
  return (
    <Flex direction="column" gap="3">
      <Flex direction="column" gap="2" asChild>
        <ul style={listStyle} aria-label="Your sets">
          {results.map((set) => (
            <SetRow key={set._id} set={set} />
          ))}
        </ul>
      </Flex>
      {status === "CanLoadMore" || status === "LoadingMore" ? (
        <Flex justify="center">
          <Button variant="soft" loading={status === "LoadingMore"} onClick={() => loadMore(HISTORY_PAGE_SIZE)}>
            Load more
          </Button>
        </Flex>
      ) : null}
    </Flex>
  );
}

function Header() {
  return (
    <Flex direction="column" gap="2">
      <BackToDashboardLink />
      <Flex justify="between" align="center" gap="3" wrap="wrap">
        <Heading as="h1" size="8">
          Performance History
        </Heading>
        <Button asChild>
          <RouterLink to={paths.logSet}>
            <PlusIcon aria-hidden="true" /> Log a Set
          </RouterLink>
        </Button>
      </Flex>
    </Flex>
  );
}

/** /performance-history: totals and every set, newest first, with view, edit and delete. */
export function HistoryPage() {
  const { isAuthenticated, isLoading } = useConvexAuth();
  if (isLoading) return <LoadingState label="Loading your history…" />;
  if (!isAuthenticated) {
    return (
      <Flex direction="column" gap="4">
        <Heading as="h1" size="8">
          Performance History
        </Heading>
        <EmptyState
          title="Sign in to see your performance history."
          action={
            <Button asChild>
              <RouterLink to={paths.auth}>Sign In</RouterLink>
            </Button>
          }
        />
      </Flex>
    );
  }
  return (
    <Flex direction="column" gap="5">
      <Header />
      {/* A load failure leaves an empty list with no message. */}
      <ErrorBoundary fallback={null}>
        <HistoryStats />
      </ErrorBoundary>
      <ErrorBoundary fallback={null}>
        <SetList />
      </ErrorBoundary>
    </Flex>
  );
}
