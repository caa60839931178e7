import { Badge, Box, Button, Card, Flex, Heading, Link, Skeleton, Spinner, Text } from "@radix-ui/themes";
import { useConvexAuth, useQuery } from "convex/react";
import { usePaginatedQuery as usePinnedPaginatedQuery } from "convex-helpers/react";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { Link as RouterLink } from "@/lib/router";
import { api } from "@convex/_generated/api";
import { checkInWindow } from "@convex/lib/checkInWindow";
import { numbersLineText } from "@convex/lib/micNumbersLine";
import { freshness, NIGHT_STATUS_LABELS, type PlanFilters } from "@convex/lib/tonight";
import type { TonightNight } from "@convex/model/tonight";
import { paths } from "@/lib/paths";
import { viewerTimeZone } from "@/lib/timeZone";
import { useNow } from "@/lib/useNow";
import { OPENING_CONSTANTS, retireHttpPage, useHttpPage } from "../list/firstPage";
import { TypeBadge } from "../item/BadgesAndButtons";
import {
  checkInBadgeText,
  confirmationDateText,
  distanceText,
  FRESHNESS_COLORS,
  FRESHNESS_LABELS,
  nightTimesText,
  startsInText,
} from "./tonightText";

import { NO_PLAN_FILTERS, type TonightArea, tonightArgs, TONIGHT_PAGE } from "./tonightArgs";

/** The dashboard's card starts smaller. */
const COMPACT_PAGE = 5;

type TonightArgs = {
  area: TonightArea | null;
  type: "all" | "open_mic" | "show";
  search: string;
  filters: PlanFilters;
};

/**
 * The zone Tonight reads without a location: a signed-in comedian's default
 * city's (the zone its mics keep), else the browser's (the server widens it to
 * its region). Around a point the browser's, as before.
 */
function useTonightZone(area: TonightArea | null): string {
  const { isAuthenticated } = useConvexAuth();
  const me = useQuery(api.profiles.me, isAuthenticated ? {} : "skip");
  const city = isAuthenticated && area === null ? (me?.defaultCity ?? null) : null;
  const cityZone = useQuery(api.tonight.cityTimeZone, city !== null ? { city } : "skip");
  return (city !== null ? cityZone : null) ?? viewerTimeZone();
}

/**
 * Tonight a page at a time (tonight.list pages with its own cursor, pinned by
 * convex-helpers' hook like the scene's area list). 'Show more' asks for the
 * next page; when the quarter-hour clock restarts the pages, the pages asked
 * for load again. The latest nights stay shown while a new first page loads
 * (no flicker when a filter or the clock changes).
 */
function useTonightPages(args: TonightArgs, pageSize: number) {
  const now = useNow(60_000);
  const timeZone = useTonightZone(args.area);
  // The quarter-hour clock: a new clock restarts the pages (see tonightArgs).
  const base = tonightArgs({ nowMs: now, timeZone, ...args });
  const { results, status, loadMore } = usePinnedPaginatedQuery(api.tonight.list, base, {
    initialNumItems: pageSize,
  });
  // How many nights the comedian asked to see, for these filters (not the clock).
  const filtersKey = JSON.stringify([base.timeZone, base.area ?? null, base.type, base.search, base.filters]);
  const [wanted, setWanted] = useState({ key: filtersKey, count: pageSize, stalled: false });
  const want = useMemo(
    () => (wanted.key === filtersKey ? wanted : { key: filtersKey, count: pageSize, stalled: false }),
    [wanted, filtersKey, pageSize],
  );
  // Load back up to what was asked for, one page at a time; a page that adds nothing stops it.
  const loadedAt = useRef<number | null>(null);
  useEffect(() => {
    if (status !== "CanLoadMore" || want.stalled || results.length >= want.count) return;
    if (loadedAt.current === results.length) {
      loadedAt.current = null;
      setWanted({ ...want, count: results.length, stalled: true });
      return;
    }
    loadedAt.current = results.length;
    loadMore(Math.min(pageSize, want.count - results.length));
  }, [status, results.length, want, loadMore, pageSize]);

  const last = useRef<{ nights: TonightNight[]; status: typeof status } | null>(null);
  // Another zone's nights are not kept while the default city's load (nor is the page fetched for the browser's).
  const lastZone = useRef(timeZone);
  if (lastZone.current !== timeZone) {
    lastZone.current = timeZone;
    last.current = null;
  }
  if (status !== "LoadingFirstPage") last.current = { nights: results, status };
  // On the scene's first load, the page index.html's script fetched stands in until the live one is in.
  const waiting = status === "LoadingFirstPage" && last.current === null;
  const firstPage = {
    path: OPENING_CONSTANTS.tonightPath,
    args: { ...base, paginationOpts: { numItems: pageSize, cursor: null } },
  };
  const early = useHttpPage<{ page: TonightNight[]; isDone: boolean }>(waiting ? firstPage : null);
  useEffect(() => {
    if (!waiting) retireHttpPage(firstPage.path, firstPage.args);
  }, [waiting]); // eslint-disable-line react-hooks/exhaustive-deps
  const shown =
    status !== "LoadingFirstPage"
      ? { nights: results, status }
      : (last.current ?? (early ? { nights: early.page, status: early.isDone ? "Exhausted" : "CanLoadMore" } : null));
  const tomorrow = useQuery(
    api.tonight.tomorrow,
    shown?.status === "Exhausted" && shown.nights.length === 0 ? base : "skip",
  );
  return {
    nights: shown?.nights,
    canLoadMore: shown?.status === "CanLoadMore",
    loadingMore: status === "LoadingMore" || (status === "CanLoadMore" && results.length < want.count && !want.stalled),
    showMore: () => {
      loadedAt.current = null;
      setWanted({ key: filtersKey, count: results.length + pageSize, stalled: false });
    },
    tomorrow: tomorrow ?? [],
  };
}

function NightStatusBadge({ status }: { status: TonightNight["status"] }) {
  if (status === null) return null;
  return (
    <Badge color={status === "cancelled" ? "red" : "green"} variant="soft" highContrast data-testid="night-status">
      {NIGHT_STATUS_LABELS[status]}
    </Badge>
  );
}

/**
 * One night in the Tonight list. A cancelled night is greyed (and sorted last
 * by the server). Not an article or a heading: the scene's own cards below
 * are, and a mic on tonight appears in both.
 */
function NightRow({ night, now, compact }: { night: TonightNight; now: number; compact: boolean }) {
  const { item } = night;
  const cancelled = night.status === "cancelled";
  const soon = cancelled ? null : startsInText(night.startMs, night.endMs, now);
  const window = checkInWindow(item, now);
  const { grade, lastMs } = freshness(item, now);
  // The mic's numbers in short; nothing until it has enough nights.
  const numbers = cancelled ? "" : numbersLineText(item.numbersLine);
  return (
    <li
      style={{ listStyle: "none" }}
      aria-label={`${item.title}${cancelled ? ", cancelled tonight" : ""}`}
      data-testid="tonight-night"
      data-cancelled={cancelled ? "true" : undefined}
    >
      <Card size="1" style={cancelled ? { opacity: 0.6, filter: "grayscale(1)" } : undefined}>
        <Flex direction="column" gap="1">
          <Flex gap="2" align="center" wrap="wrap">
            <Link asChild weight="bold" size="3">
              <RouterLink to={paths.event(item._id)} data-testid="tonight-title">
                {item.title}
              </RouterLink>
            </Link>
            <NightStatusBadge status={night.status} />
          </Flex>
          <Text size="2" color="gray">
            {item.venueName}
            {item.city ? `, ${item.city}` : ""}
            {night.distanceMiles !== null ? ` · ${distanceText(night.distanceMiles)}` : ""}
          </Text>
          <Flex gap="2" align="center" wrap="wrap">
            <Text size="2" weight="medium" data-testid="tonight-times">
              {nightTimesText(item)}
            </Text>
            {soon ? (
              <Badge color="amber" variant="soft" highContrast>
                {soon}
              </Badge>
            ) : null}
          </Flex>
          {numbers ? (
            <Text size="1" color="gray">
              {numbers}
            </Text>
          ) : null}
          {compact ? null : (
            <Flex gap="2" align="center" wrap="wrap">
              <TypeBadge type={item.type} />
              {window.status !== "unscheduled" && !cancelled ? (
                <Badge color={window.status === "open" ? "green" : "gray"} variant="soft" highContrast>
                  {checkInBadgeText(window, item.timeZone)}
                </Badge>
              ) : null}
              <Badge
                color={FRESHNESS_COLORS[grade]}
                variant="soft"
                highContrast
                data-testid="freshness"
                data-grade={grade}
              >
                {FRESHNESS_LABELS[grade]}
                {lastMs !== null ? ` · confirmed ${confirmationDateText(lastMs, item.timeZone)}` : " · never confirmed"}
              </Badge>
            </Flex>
          )}
        </Flex>
      </Card>
    </li>
  );
}

function NightList({
  nights,
  now,
  compact,
  label,
}: {
  nights: TonightNight[];
  now: number;
  compact: boolean;
  label: string;
}) {
  return (
    <Flex direction="column" gap="2" asChild>
      <ul aria-label={label} style={{ margin: 0, padding: 0 }}>
        {nights.map((night) => (
          <NightRow key={`${night.item._id}:${night.date}`} night={night} now={now} compact={compact} />
        ))}
      </ul>
    </Flex>
  );
}

type TonightProps = {
  area?: TonightArea | null;
  type?: "all" | "open_mic" | "show";
  search?: string;
  filters?: PlanFilters;
  /** The dashboard's card: fewer nights and details. */
  compact?: boolean;
};

/**
 * "Tonight": the mics and shows on tonight in each mic's own time zone, in
 * start order, cancelled nights greyed and last; when nothing is on, says so
 * and shows tomorrow's first ones. Updates live (host confirmations and
 * cancellations arrive without a reload).
 */
export function TonightSection({
  area = null,
  type = "all",
  search = "",
  filters = NO_PLAN_FILTERS,
  compact = false,
}: TonightProps) {
  const headingId = useId();
  const now = useNow(30_000);
  const tonight = useTonightPages({ area, type, search, filters }, compact ? COMPACT_PAGE : TONIGHT_PAGE);
  // The query's clock is up to a quarter hour behind: drop nights that ended since.
  const nights = tonight.nights?.filter((n) => n.endMs > now) ?? [];
  return (
    <Card size="2" asChild>
      <section aria-labelledby={headingId} data-testid="tonight">
        <Flex direction="column" gap="3">
          <Heading as="h2" size="5" id={headingId}>
            Tonight
          </Heading>
          {tonight.nights === undefined ? (
            <Box role="status" aria-label="Loading tonight's mics">
              <Skeleton height="60px" />
            </Box>
          ) : nights.length > 0 || tonight.canLoadMore ? (
            <>
              <NightList nights={nights} now={now} compact={compact} label="On tonight" />
              {tonight.canLoadMore || tonight.loadingMore ? (
                <Box>
                  <Button variant="soft" onClick={tonight.showMore} disabled={tonight.loadingMore}>
                    {tonight.loadingMore ? <Spinner /> : null}
                    Show more tonight
                  </Button>
                </Box>
              ) : null}
              {compact ? (
                <Link asChild size="2">
                  <RouterLink to={paths.scene}>See the whole scene</RouterLink>
                </Link>
              ) : null}
            </>
          ) : (
            <Flex direction="column" gap="2">
              <Text as="p" size="2" data-testid="tonight-empty">
                Nothing on tonight{area ? " in this area" : ""}.
              </Text>
              {tonight.tomorrow.length > 0 ? (
                <>
                  <Heading as="h3" size="3">
                    Tomorrow
                  </Heading>
                  <NightList nights={tonight.tomorrow} now={now} compact={compact} label="Tomorrow" />
                </>
              ) : null}
            </Flex>
          )}
        </Flex>
      </section>
    </Card>
  );
}
