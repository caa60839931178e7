import { CalendarIcon, ExternalLinkIcon, TrashIcon } from "@radix-ui/react-icons";
import { Badge, Button, Card, Flex, Heading, Text } from "@radix-ui/themes";
import type { FunctionReturnType } from "convex/server";
import { useId } from "react";
import { Link as RouterLink } from "@/lib/router";
import { ConfirmDialog } from "@/components/ConfirmDialog";
import type { api } from "@convex/_generated/api";
import { formatDuration } from "@convex/lib/time";
import { paths } from "../../lib/paths";
import { TYPE_LABELS } from "./labels";
import { useDeletePerformance, useRemoveFromSchedule } from "./useScheduleActions";
import { groupByDay, timeOfDay } from "./weekParam";

export type WeekItem = FunctionReturnType<typeof api.schedule.week>["items"][number];

const listStyle = { listStyle: "none", margin: 0, padding: 0 } as const;

function itemKey(item: WeekItem): string {
  switch (item.kind) {
    case "scheduled":
      return `s-${item.entryId}-${item.startsAt}`;
    case "session":
      return `p-${item.performanceId}`;
    case "scene":
      return `c-${item.sceneItemId}-${item.startsAt}`;
  }
}

function DeletePerformanceButton({ item }: { item: Extract<WeekItem, { kind: "session" }> }) {
  const deletePerformance = useDeletePerformance();
  return (
    <ConfirmDialog
      trigger={
        <Button size="1" variant="soft" color="red">
          <TrashIcon aria-hidden="true" /> Delete Performance Log
        </Button>
      }
      title="Delete this performance log?"
      description={
        <>
          Your {formatDuration(item.minutes)} set at {item.title} will be removed from your history and totals.
        </>
      }
      confirmLabel="Delete"
      onConfirm={() => deletePerformance(item.performanceId)}
    />
  );
}

/** A night's status on its schedule entry ("that night", whichever day it is). */
const NIGHT_STATUS_NIGHT_LABELS = { cancelled: "Cancelled that night", confirmed: "Host confirmed" } as const;

function WeekItemCard({ item, timeZone }: { item: WeekItem; timeZone: string }) {
  const titleId = useId();
  const removeFromSchedule = useRemoveFromSchedule();
  const where = item.kind === "session" ? item.venueName : `${item.venueName}, ${item.city}`;
  return (
    <li aria-labelledby={titleId}>
      <Card size="2">
        <Flex
          direction={{ initial: "column", sm: "row" }}
          gap="3"
          justify="between"
          align={{ initial: "stretch", sm: "center" }}
        >
          <Flex direction="column" gap="1" style={{ minWidth: 0 }}>
            <Flex gap="2" align="center" wrap="wrap">
              <Text size="2" weight="bold" color="gray">
                {timeOfDay(item.startsAt, timeZone)}
              </Text>
              {item.kind === "scheduled" ? (
                <Badge color="blue">Scheduled</Badge>
              ) : item.kind === "session" ? (
                <Badge color="green">Logged set · {formatDuration(item.minutes)}</Badge>
              ) : (
                <Badge color="purple">Your event</Badge>
              )}
              {item.kind !== "session" ? <Badge variant="outline">{TYPE_LABELS[item.type]}</Badge> : null}
              {item.kind !== "session" && item.nightStatus ? (
                <Badge color={item.nightStatus === "cancelled" ? "red" : "green"} variant="soft" highContrast>
                  {NIGHT_STATUS_NIGHT_LABELS[item.nightStatus]}
                </Badge>
              ) : null}
            </Flex>
            <Heading as="h3" size="3" id={titleId} style={{ overflowWrap: "anywhere" }}>
              {item.title}
            </Heading>
            {where && where !== item.title ? (
              <Text size="2" color="gray" style={{ overflowWrap: "anywhere" }}>
                {where}
              </Text>
            ) : null}
          </Flex>
          <Flex gap="2" wrap="wrap" flexShrink="0">
            {item.kind === "scheduled" ? (
              <>
                <Button size="1" variant="soft" asChild>
                  <RouterLink to={paths.event(item.sceneItemId)}>
                    <ExternalLinkIcon aria-hidden="true" /> View Event
                  </RouterLink>
                </Button>
                <Button size="1" variant="soft" color="red" onClick={() => void removeFromSchedule(item.entryId)}>
                  <TrashIcon aria-hidden="true" /> Remove from Schedule
                </Button>
              </>
            ) : item.kind === "session" ? (
              <DeletePerformanceButton item={item} />
            ) : (
              <Button size="1" variant="soft" asChild>
                <RouterLink to={paths.event(item.sceneItemId)}>
                  <ExternalLinkIcon aria-hidden="true" /> View Event
                </RouterLink>
              </Button>
            )}
          </Flex>
        </Flex>
      </Card>
    </li>
  );
}

/** The week's items under a heading per day. */
export function WeekItems({ items, timeZone }: { items: readonly WeekItem[]; timeZone: string }) {
  const days = groupByDay(items, timeZone);
  return (
    <Flex direction="column" gap="4" asChild>
      <ul style={listStyle} aria-label="This week's events">
        {days.map((day) => (
          <li key={day.date}>
            <Flex direction="column" gap="2">
              <Heading as="h2" size="3">
                <Flex as="span" gap="2" align="center">
                  <CalendarIcon aria-hidden="true" /> {day.label}
                </Flex>
              </Heading>
              <Flex direction="column" gap="2" asChild>
                <ul style={listStyle}>
                  {day.items.map((item) => (
                    <WeekItemCard key={itemKey(item)} item={item} timeZone={timeZone} />
                  ))}
                </ul>
              </Flex>
            </Flex>
          </li>
        ))}
      </ul>
    </Flex>
  );
}
