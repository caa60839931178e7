import { Badge, Box, Button, Card, Flex, Heading, Link, Skeleton, Text } from "@radix-ui/themes";
import { useQuery } from "convex/react";
import { useId, useRef, useState } from "react";
import { Link as RouterLink } from "react-router-dom";
import { api } from "../../../convex/_generated/api";
import { checkInWindow } from "../../../convex/lib/checkInWindow";
import { freshness, NIGHT_STATUS_LABELS, type PlanFilters } from "../../../convex/lib/tonight";
import type { TonightNight } from "../../../convex/model/tonight";
import { paths } from "@/lib/paths";
import { viewerTimeZone } from "@/lib/timeZone";
import { useNow } from "@/lib/useNow";
import { TypeBadge } from "../scene/SceneParts";
import { confirmationDateText, distanceText, FRESHNESS_LABELS, nightTimesText, startsInText } from "./tonightText";

export type TonightArea = { lat: number; lng: number; radiusMiles: number };

export const NO_PLAN_FILTERS: PlanFilters = { freeOnly: false, signup: "any", timeOfDay: "any", hideStale: false };

/** How many nights Tonight shows first, and how many more each 'Show more' asks for. */
const TONIGHT_PAGE = 10;
const TONIGHT_MAX = 100;

/** The query's clock moves once a minute (the cards' own clock ticks more often). */
function minuteOf(nowMs: number): number {
  return Math.floor(nowMs / 60_000) * 60_000;
}

/** The latest answer, kept while the next minute's answer loads (no flicker). */
function useTonight(args: {
  area: TonightArea | null;
  type: "all" | "open_mic" | "show";
  search: string;
  filters: PlanFilters;
  limit: number;
}) {
  const now = useNow(60_000);
  const result = useQuery(api.tonight.list, {
    nowMs: minuteOf(now),
    timeZone: viewerTimeZone(),
    ...(args.area ? { area: args.area } : {}),
    type: args.type,
    search: args.search.trim(),
    filters: args.filters,
    limit: args.limit,
  });
  const last = useRef(result);
  if (result !== undefined) last.current = result;
  return result ?? last.current;
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
          {compact ? null : (
            <Flex gap="2" align="center" wrap="wrap">
              <TypeBadge type={item.type} />
              {window.status !== "unscheduled" && !cancelled ? (
                <Badge color={window.status === "open" ? "green" : "gray"} variant="soft" highContrast>
                  {window.status === "open"
                    ? "Check-in open"
                    : window.status === "upcoming"
                      ? "Check-in opens soon"
                      : "Check-in closed"}
                </Badge>
              ) : null}
              <Badge color={GRADE_COLORS[grade]} variant="soft" highContrast data-testid="freshness" data-grade={grade}>
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

const GRADE_COLORS = { fresh: "green", ageing: "amber", stale: "gray" } as const;

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
  const [limit, setLimit] = useState(compact ? 5 : TONIGHT_PAGE);
  const now = useNow(30_000);
  const tonight = useTonight({ area, type, search, filters, limit });
  // The query's clock is a minute behind at most: drop nights that ended since.
  const nights = tonight?.nights.filter((n) => n.endMs > now) ?? [];
  return (
    <Card size="2" asChild>
      <section aria-labelledby={headingId} data-testid="tonight">
        <Flex direction="column" gap="3">
          <Heading as="h2" size="5" id={headingId}>
            Tonight
          </Heading>
          {tonight === undefined ? (
            <Box role="status" aria-label="Loading tonight's mics">
              <Skeleton height="60px" />
            </Box>
          ) : nights.length > 0 ? (
            <>
              <NightList nights={nights} now={now} compact={compact} label="On tonight" />
              {!tonight.isDone && !compact && limit < TONIGHT_MAX ? (
                <Box>
                  <Button variant="soft" onClick={() => setLimit((l) => Math.min(TONIGHT_MAX, l + TONIGHT_PAGE))}>
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
