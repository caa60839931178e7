import { ArrowLeftIcon } from "@radix-ui/react-icons";
import { Badge, Button, DataList, Flex, Grid, Heading, Link, Text } from "@radix-ui/themes";
import { useQuery } from "convex/react";
import { format } from "date-fns";
import { Link as RouterLink } from "@/lib/router";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { BIT_STATUS_LABELS, formatBitLength } from "@convex/lib/bitRules";
import { EmptyState } from "@/components/EmptyState";
import { ErrorBoundary } from "@/components/ErrorBoundary";
import { LoadingState } from "@/components/LoadingState";
import { StatTile } from "@/components/StatTile";
import { TagBadges } from "@/components/TagBadges";
import { paths } from "@/lib/paths";
import { BitDialog } from "./BitDialog";
import { landedText, TrendMarks } from "./BitNumbers";
import { STATUS_COLORS } from "./BitsPage";

function BackToBits() {
  return (
    <Link asChild size="2">
      <RouterLink to={paths.bits}>
        <ArrowLeftIcon aria-hidden="true" /> All bits
      </RouterLink>
    </Link>
  );
}

function Rooms({ id }: { id: Id<"bits"> }) {
  const rooms = useQuery(api.ratings.rooms, { bitId: id });
  if (!rooms || rooms.best === null) return null;
  const line = (r: NonNullable<typeof rooms.best>) =>
    `${r.title} (${r.venueName}): landed ${Math.round(r.landedRate * 100)}% of ${r.performed} ${r.performed === 1 ? "set" : "sets"}`;
  return (
    <DataList.Root orientation={{ initial: "vertical", sm: "horizontal" }} aria-label="Rooms">
      <DataList.Item>
        <DataList.Label>Best room</DataList.Label>
        <DataList.Value>{line(rooms.best)}</DataList.Value>
      </DataList.Item>
      {rooms.worst ? (
        <DataList.Item>
          <DataList.Label>Worst room</DataList.Label>
          <DataList.Value>{line(rooms.worst)}</DataList.Value>
        </DataList.Item>
      ) : null}
    </DataList.Root>
  );
}

function BitDetail({ id }: { id: Id<"bits"> }) {
  const bit = useQuery(api.bits.get, { id });
  if (bit === undefined) return <LoadingState label="Loading the bit…" />;
  if (bit === null) return <EmptyState title="Bit not found" action={<BackToBits />} />;
  const rate = landedText(bit.landedRate);
  return (
    <Flex direction="column" gap="4">
      <BackToBits />
      <Flex justify="between" align="start" gap="3" wrap="wrap">
        <Flex direction="column" gap="1" minWidth="0">
          <Heading as="h1" size="7" style={{ overflowWrap: "anywhere" }}>
            {bit.title}
          </Heading>
          <Flex gap="2" align="center" wrap="wrap">
            <Badge color={STATUS_COLORS[bit.status]} highContrast>
              {BIT_STATUS_LABELS[bit.status]}
            </Badge>
            {bit.archived ? (
              <Badge color="gray" highContrast>
                Archived
              </Badge>
            ) : null}
            {bit.seconds !== null ? (
              <Text size="2" color="gray">
                About {formatBitLength(bit.seconds)}
              </Text>
            ) : null}
          </Flex>
        </Flex>
        <BitDialog bit={bit} trigger={<Button variant="soft">Edit</Button>} />
      </Flex>
      <Grid columns={{ initial: "2", sm: "4" }} gap="3">
        <StatTile label="Times performed" value={bit.performed} />
        <StatTile label="Landed rate" value={rate === null ? "–" : `${Math.round((bit.landedRate ?? 0) * 100)}%`} />
        <StatTile label="Landed / okay / flat" value={`${bit.landed} / ${bit.okay} / ${bit.flat}`} />
        <StatTile
          label="Last performed"
          value={bit.lastPerformedAt === null ? "Never" : format(bit.lastPerformedAt, "MMM d")}
        />
      </Grid>
      <ErrorBoundary fallback={null}>
        <Rooms id={bit._id} />
      </ErrorBoundary>
      {bit.recent.length > 0 ? (
        <Flex direction="column" gap="2">
          <Heading as="h2" size="4">
            Trend
          </Heading>
          <TrendMarks recent={bit.recent} />
        </Flex>
      ) : null}
      <DataList.Root orientation={{ initial: "vertical", sm: "horizontal" }}>
        <DataList.Item>
          <DataList.Label>Tags</DataList.Label>
          <DataList.Value>{bit.tags.length > 0 ? <TagBadges tags={bit.tags} color="gray" /> : "None"}</DataList.Value>
        </DataList.Item>
        <DataList.Item>
          <DataList.Label>Premise and notes</DataList.Label>
          <DataList.Value>
            <Text style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>{bit.notes ?? "None"}</Text>
          </DataList.Value>
        </DataList.Item>
      </DataList.Root>
    </Flex>
  );
}

/** /bits/:id: one bit, its notes and its numbers. */
export function BitPage({ id }: { id: string | undefined }) {
  if (id === undefined) return <EmptyState title="Bit not found" action={<BackToBits />} />;
  return (
    <ErrorBoundary fallback={<EmptyState title="Bit not found" action={<BackToBits />} />}>
      <BitDetail id={id as Id<"bits">} />
    </ErrorBoundary>
  );
}
