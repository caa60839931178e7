import { ChevronLeftIcon, ChevronRightIcon, PlusIcon } from "@radix-ui/react-icons";
import { Box, Button, Callout, Card, Flex, Grid, Heading, IconButton, Link, Skeleton, Text } from "@radix-ui/themes";
import { useConvexAuth, useQuery } from "convex/react";
import { Link as RouterLink } from "@/lib/router";
import { api } from "@convex/_generated/api";
import { EmptyState } from "../../components/EmptyState";
import { ErrorBoundary } from "../../components/ErrorBoundary";
import { paths } from "../../lib/paths";
import { AddToCalendarButton } from "./AddToCalendarButton";
import { FavoritesCard } from "./FavoritesCard";
import { ScheduleStats } from "./ScheduleStats";
import { useClock } from "./useClock";
import { useViewedWeek } from "./useViewedWeek";
import { weekLabel } from "./weekParam";
import { WeekItems } from "./WeekItems";

function AddSpotButton({ size = "3" }: { size?: "2" | "3" }) {
  return (
    <Button asChild size={size}>
      <RouterLink to={paths.addEvent}>
        <PlusIcon aria-hidden="true" /> Add Spot
      </RouterLink>
    </Button>
  );
}

function WeekSkeleton() {
  return (
    <Flex direction="column" gap="3" role="status" aria-label="Loading your week" aria-busy="true">
      <Skeleton height="20px" width="160px" />
      {Array.from({ length: 3 }, (_, i) => (
        <Skeleton key={i} height="84px" />
      ))}
    </Flex>
  );
}

type WeekRangeArgs = { startMs: number; endMs: number };

/** The viewed week's items and the stat tiles, from one live query. */
function WeekView({
  week,
  nowMs,
  timeZone,
  isThisWeek,
}: {
  week: WeekRangeArgs;
  nowMs: number;
  timeZone: string;
  isThisWeek: boolean;
}) {
  const data = useQuery(api.schedule.week, { weekStartMs: week.startMs, weekEndMs: week.endMs, nowMs });
  return (
    <Flex direction="column" gap="4">
      <ScheduleStats stats={data?.stats} />
      <Grid columns={{ initial: "1", md: "3" }} gap="4" align="start">
        <Box gridColumn={{ initial: "1", md: "1 / 3" }}>
          {data === undefined ? (
            <WeekSkeleton />
          ) : data.items.length === 0 ? (
            <EmptyState
              title={isThisWeek ? "Nothing on your schedule this week" : "Nothing on your schedule that week"}
              description="Find a mic in the scene and add it to your schedule, or add a spot you already have."
              action={
                <Flex gap="2" wrap="wrap" justify="center">
                  <AddSpotButton size="2" />
                  <Button asChild size="2" variant="soft">
                    <RouterLink to={paths.scene}>Browse Scene</RouterLink>
                  </Button>
                </Flex>
              }
            />
          ) : (
            <WeekItems items={data.items} timeZone={timeZone} />
          )}
        </Box>
        <FavoritesCard />
      </Grid>
    </Flex>
  );
}

function SignedOutPrompt() {
  return (
    <Card size="3">
      <Flex direction="column" gap="3" align="start">
        <Heading as="h2" size="4">
          Sign in to see your schedule
        </Heading>
        <Text size="2" color="gray">
          Keep track of the mics you plan to hit and the sets you have logged, week by week.
        </Text>
        <Button asChild>
          <RouterLink to={paths.auth} state={{ mode: "signIn" }}>
            Sign In
          </RouterLink>
        </Button>
      </Flex>
    </Card>
  );
}

/** /schedule: the comedian's Monday-to-Sunday week, favourites and totals. */
export function SchedulePage() {
  const { isAuthenticated, isLoading } = useConvexAuth();
  const nowMs = useClock();
  const { week, timeZone, isThisWeek, previous, next, thisWeek } = useViewedWeek(nowMs);

  return (
    <Flex direction="column" gap="5">
      <Flex
        justify="between"
        align={{ initial: "start", sm: "center" }}
        gap="3"
        direction={{ initial: "column", sm: "row" }}
      >
        <Box>
          <Heading as="h1" size={{ initial: "7", sm: "8" }}>
            Your Schedule
          </Heading>
          <Text as="p" size="2" color="gray" mt="1">
            Your mics, shows and logged sets, Monday to Sunday.
          </Text>
        </Box>
        {isAuthenticated ? (
          <Flex gap="2" wrap="wrap">
            <AddSpotButton />
            <AddToCalendarButton />
          </Flex>
        ) : null}
      </Flex>

      {!isAuthenticated ? (
        isLoading ? null : (
          <SignedOutPrompt />
        )
      ) : (
        <>
          <Flex align="center" justify="between" gap="2">
            <IconButton variant="soft" size="3" aria-label="Previous week" onClick={previous}>
              <ChevronLeftIcon aria-hidden="true" />
            </IconButton>
            <Flex direction="column" align="center" gap="1">
              <Text size="4" weight="bold" aria-live="polite" data-testid="week-range" style={{ textAlign: "center" }}>
                {weekLabel(week)}
              </Text>
              {isThisWeek ? (
                <Text size="1" color="gray">
                  This week
                </Text>
              ) : (
                <Link asChild size="1">
                  <button type="button" onClick={thisWeek}>
                    Back to this week
                  </button>
                </Link>
              )}
            </Flex>
            <IconButton variant="soft" size="3" aria-label="Next week" onClick={next}>
              <ChevronRightIcon aria-hidden="true" />
            </IconButton>
          </Flex>
          <ErrorBoundary
            fallback={
              <Callout.Root color="red" role="alert">
                <Callout.Text>Your schedule could not be loaded. Please reload the page.</Callout.Text>
              </Callout.Root>
            }
          >
            <WeekView week={week} nowMs={nowMs} timeZone={timeZone} isThisWeek={isThisWeek} />
          </ErrorBoundary>
        </>
      )}
    </Flex>
  );
}
