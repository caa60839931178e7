import { ArrowRightIcon, MagnifyingGlassIcon, PlusIcon } from "@radix-ui/react-icons";
import { Box, Button, Callout, Card, Flex, Grid, Heading, Link, Skeleton, Text } from "@radix-ui/themes";
import { useConvexAuth, useQuery } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import { format } from "date-fns";
import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { Link as RouterLink } from "@/lib/router";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import { badgeByCode } from "@convex/lib/badges";
import { formatDuration, localDateString } from "@convex/lib/time";
import { goalWeek, weekGoalDisplay } from "@convex/lib/weeks";
import { weekStreakNudge } from "@convex/lib/weekStreaks";
import { ErrorBoundary } from "../../components/ErrorBoundary";
import { paths } from "../../lib/paths";
import { viewerTimeZone } from "../../lib/timeZone";
import { EditGoalDialog } from "./EditGoalDialog";
import { InstallCard } from "./InstallCard";
import { GoalRing } from "./GoalRing";
import { welcomeHeading } from "./welcome";
import { useNow } from "@/lib/useNow";
import { FlameIcon } from "../../components/icons/StageIcons";
import { BadgeIcon } from "@/components/badges/BadgeIcon";

export type DashboardSummary = FunctionReturnType<typeof api.dashboard.summary>;

/** Today's local date, re-checked every minute so the goal week rolls over at midnight. */
function useToday(timeZone: string): string {
  const [today, setToday] = useState(() => localDateString(Date.now(), timeZone));
  useEffect(() => {
    const timer = setInterval(() => setToday(localDateString(Date.now(), timeZone)), 60_000);
    return () => clearInterval(timer);
  }, [timeZone]);
  return today;
}

/** What a signed-out visitor sees (blurred) behind the preview gate. */
const PREVIEW_SUMMARY: DashboardSummary = {
  displayName: "Comedian",
  firstName: null,
  memberSince: 0,
  weeklyGoalMinutes: 30,
  weekMinutes: 12,
  totalMinutes: 245,
  totalSets: 38,
  averageMinutes: 6,
  currentStreak: 2,
  longestStreak: 5,
  badges: [
    { code: "first_set", awardedAt: 0 },
    { code: "century_club", awardedAt: 0 },
    { code: "streak_3", awardedAt: 0 },
  ],
  weekStreak: { current: 3, longest: 5, thisWeekMet: false, freezeAvailable: true, frozenWeek: null },
};

function StatTile({ label, value, to }: { label: string; value: string; to?: string }) {
  const body = (
    <>
      <Text as="p" size="1" color="gray" weight="medium">
        {label}
      </Text>
      <Text as="p" size="7" weight="bold">
        {value}
      </Text>
    </>
  );
  if (to) {
    return (
      <Card size="2" asChild>
        <RouterLink to={to} aria-label={`${label}: ${value}. View performance history`}>
          {body}
        </RouterLink>
      </Card>
    );
  }
  return (
    <Card size="2" role="group" aria-label={label}>
      {body}
    </Card>
  );
}

/** The week streak under the weekly goal: weeks in a row, the month's freeze, what is left to do. */
function WeekStreak({ summary }: { summary: DashboardSummary }) {
  const { weekStreak } = summary;
  const nudge = weekStreakNudge(weekStreak, summary.weekMinutes, summary.weeklyGoalMinutes);
  const weeks = `${weekStreak.current}-week streak`;
  const freeze = weekStreak.frozenWeek
    ? `A freeze saved the week of ${format(new Date(`${weekStreak.frozenWeek}T12:00:00`), "MMM d")}`
    : weekStreak.freezeAvailable
      ? "1 streak freeze this month"
      : "This month's freeze is used";
  return (
    <Flex direction="column" gap="1" role="group" aria-label="Week streak" data-testid="week-streak">
      {weekStreak.current > 0 ? (
        <Text size="2" weight="medium">
          {weeks}
          {weekStreak.longest > weekStreak.current ? ` (best ${weekStreak.longest})` : ""}
        </Text>
      ) : null}
      {nudge ? (
        <Text size="2" color="orange" weight="medium">
          {nudge}
        </Text>
      ) : null}
      {weekStreak.current > 0 ? (
        <Text size="1" color="gray">
          {freeze}
        </Text>
      ) : null}
    </Flex>
  );
}

function WeeklyGoalCard({ summary, editable }: { summary: DashboardSummary; editable: boolean }) {
  const { percent, text } = weekGoalDisplay(summary.weekMinutes, summary.weeklyGoalMinutes);
  return (
    <Card size="3">
      <Flex gap="5" align="center" direction={{ initial: "column", xs: "row" }}>
        <GoalRing percent={percent} text={text} />
        <Flex direction="column" gap="2" align={{ initial: "center", xs: "start" }} style={{ textAlign: "inherit" }}>
          <Heading as="h2" size="4">
            Weekly goal
          </Heading>
          <Text size="3" weight="medium" data-testid="goal-text">
            {text}
          </Text>
          <Text size="2" color="gray" data-testid="goal-minutes">
            {summary.weekMinutes} of {summary.weeklyGoalMinutes} minutes
          </Text>
          <WeekStreak summary={summary} />
          {editable ? <EditGoalDialog goal={summary.weeklyGoalMinutes} /> : null}
        </Flex>
      </Flex>
    </Card>
  );
}

function BadgeShowcase({ badges }: { badges: DashboardSummary["badges"] }) {
  const shown = badges.flatMap((b) => {
    const def = badgeByCode(b.code);
    return def ? [{ ...b, def }] : [];
  });
  return (
    <Card size="3">
      <Flex direction="column" gap="3">
        <Flex justify="between" align="center" gap="2">
          <Heading as="h2" size="4">
            Badges
          </Heading>
          <Link asChild size="2">
            <RouterLink to={paths.badges}>
              View all badges <ArrowRightIcon aria-hidden="true" />
            </RouterLink>
          </Link>
        </Flex>
        {shown.length === 0 ? (
          <Text size="2" color="gray">
            Log your first set to earn badges
          </Text>
        ) : (
          <Grid columns="3" gap="2" asChild>
            <ul style={{ listStyle: "none", margin: 0, padding: 0 }} aria-label="Earned badges">
              {shown.map(({ code, def }) => (
                <li key={code}>
                  <Card size="1" asChild>
                    <RouterLink to={paths.badges}>
                      <Flex direction="column" align="center" gap="1" style={{ textAlign: "center" }}>
                        <Text color="amber" style={{ display: "inline-flex" }}>
                          <BadgeIcon name={def.icon} size={28} />
                        </Text>
                        <Text size="1" weight="medium">
                          {def.name}
                        </Text>
                      </Flex>
                    </RouterLink>
                  </Card>
                </li>
              ))}
            </ul>
          </Grid>
        )}
      </Flex>
    </Card>
  );
}

/** The dashboard's content for a summary (live, or the preview's sample). */
function DashboardView({
  summary,
  signedIn,
  tonight,
}: {
  summary: DashboardSummary;
  signedIn: boolean;
  tonight: ReactNode;
}) {
  const now = useNow(60_000);
  const logSet = useRef<HTMLAnchorElement>(null);
  return (
    <Flex direction="column" gap="5">
      <Box>
        <Heading as="h1" size={{ initial: "7", sm: "8" }}>
          {welcomeHeading(summary.firstName, summary.memberSince, now)}
        </Heading>
        {summary.memberSince > 0 ? (
          <Text as="p" size="2" color="gray" mt="1">
            Member since {format(new Date(summary.memberSince), "MMMM yyyy")}
          </Text>
        ) : null}
        {summary.currentStreak > 1 ? (
          <Flex asChild align="center" gap="1" mt="1">
            <Text as="p" size="2">
              <Text color="orange" style={{ display: "inline-flex" }}>
                <FlameIcon role="img" aria-label="Flame" />
              </Text>
              {summary.currentStreak}-day streak
            </Text>
          </Flex>
        ) : null}
      </Box>

      {/* Focus goes on to Log a Set when the card goes. */}
      {signedIn ? <InstallCard onGone={() => logSet.current?.focus()} /> : null}

      <Grid columns={{ initial: "1", md: "2" }} gap="4">
        <WeeklyGoalCard summary={summary} editable={signedIn} />
        <Flex direction="column" gap="3" justify="center">
          <Button asChild size="4">
            <RouterLink to={paths.logSet} ref={logSet}>
              <PlusIcon aria-hidden="true" /> Log a Set
            </RouterLink>
          </Button>
          <Card size="2" asChild>
            <RouterLink to={paths.scene} aria-label="Browse Scene: find open mics and shows near you">
              <Flex align="center" gap="3">
                <MagnifyingGlassIcon aria-hidden="true" width="20" height="20" />
                <Box flexGrow="1">
                  <Text as="p" size="3" weight="bold">
                    Browse Scene
                  </Text>
                  <Text as="p" size="2" color="gray">
                    Find open mics and shows near you.
                  </Text>
                </Box>
                <ArrowRightIcon aria-hidden="true" />
              </Flex>
            </RouterLink>
          </Card>
        </Flex>
      </Grid>

      <Grid columns={{ initial: "1", xs: "3" }} gap="3">
        <StatTile label="Total Minutes" value={String(summary.totalMinutes)} to={paths.performanceHistory} />
        <StatTile label="Total Sets" value={String(summary.totalSets)} />
        <StatTile label="Average Length" value={formatDuration(summary.averageMinutes)} />
      </Grid>
      <Link asChild size="2">
        <RouterLink to={paths.season}>Your season in review: sets, mics, streaks and a card to share</RouterLink>
      </Link>

      <ErrorBoundary fallback={null}>{tonight}</ErrorBoundary>

      <BadgeShowcase badges={summary.badges} />
    </Flex>
  );
}

function DashboardSkeleton() {
  return (
    <Flex direction="column" gap="5" role="status" aria-label="Loading your dashboard" aria-busy="true">
      <Skeleton height="40px" width="60%" />
      <Grid columns={{ initial: "1", md: "2" }} gap="4">
        <Skeleton height="180px" />
        <Skeleton height="180px" />
      </Grid>
      <Grid columns={{ initial: "1", xs: "3" }} gap="3">
        {Array.from({ length: 3 }, (_, i) => (
          <Skeleton key={i} height="84px" />
        ))}
      </Grid>
      <Skeleton height="140px" />
    </Flex>
  );
}

/** The live dashboard: one subscription, so a set logged elsewhere shows at once. */
function LiveDashboard({ tonight }: { tonight: ReactNode }) {
  const timeZone = useMemo(viewerTimeZone, []);
  const today = useToday(timeZone);
  const week = useMemo(() => goalWeek(today, timeZone), [today, timeZone]);
  const summary = useQuery(api.dashboard.summary, {
    goalWeekStartMs: week.startMs,
    goalWeekEndMs: week.endMs,
    today,
  });
  if (summary === undefined) return <DashboardSkeleton />;
  return <DashboardView summary={summary} signedIn tonight={tonight} />;
}

function LoadError() {
  useEffect(() => {
    toast.error("Error loading data", { id: "dashboard-load", description: "Failed to load your performance data." });
  }, []);
  return (
    <Callout.Root color="red" role="alert">
      <Callout.Text>Failed to load your performance data. Please reload the page.</Callout.Text>
    </Callout.Root>
  );
}

/** /dashboard: goal, Log a Set, totals, the scene and badges. */
/** The dashboard; `tonight` is the Tonight card the route places in it (a feature of the scene). */
export function DashboardPage({ tonight }: { tonight: ReactNode }) {
  const { isAuthenticated, isLoading } = useConvexAuth();
  if (isLoading) return <DashboardSkeleton />;
  if (!isAuthenticated) return <DashboardView summary={PREVIEW_SUMMARY} signedIn={false} tonight={tonight} />;
  return (
    <ErrorBoundary fallback={<LoadError />}>
      <LiveDashboard tonight={tonight} />
    </ErrorBoundary>
  );
}
