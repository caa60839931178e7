import { Badge, Button, Flex, Heading, Link, Select, Text } from "@radix-ui/themes";
import { useQuery } from "convex/react";
import { useState } from "react";
import { Link as RouterLink } from "react-router-dom";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { landedSummary } from "@convex/lib/bitRules";
import { EmptyState } from "@/components/EmptyState";
import { ErrorBoundary } from "@/components/ErrorBoundary";
import { LoadingState } from "@/components/LoadingState";
import { paths } from "@/lib/paths";
import { RATING_COLORS, RATING_LABELS } from "./BitNumbers";
import { RateBitsForm } from "./RateBits";

function RateSet({ performanceId }: { performanceId: Id<"performances"> }) {
  const set = useQuery(api.ratings.forSet, { performanceId });
  const library = useQuery(api.bits.list, { paginationOpts: { numItems: 100, cursor: null }, archived: false });
  const [added, setAdded] = useState<Array<{ _id: Id<"bits">; title: string }>>([]);
  const [pick, setPick] = useState("");
  if (set === undefined) return <LoadingState label="Loading the set…" />;
  const shown = new Set([...set.ratings.map((r) => r.bitId as string), ...set.unrated.map((b) => b._id as string)]);
  const toRate = [...set.unrated, ...added.filter((b) => !shown.has(b._id))];
  const choices = (library?.page ?? []).filter((b) => !shown.has(b._id) && !added.some((a) => a._id === b._id));
  return (
    <Flex direction="column" gap="4">
      <Link asChild size="2">
        <RouterLink to={paths.performanceHistory}>Performance History</RouterLink>
      </Link>
      <Heading as="h1" size="7">
        Bits of this set
      </Heading>
      {set.rated > 0 ? (
        <Flex direction="column" gap="2">
          <Text weight="bold">{landedSummary(set)}</Text>
          <Flex direction="column" gap="1" asChild>
            <ul style={{ listStyle: "none", margin: 0, padding: 0 }} aria-label="Rated bits">
              {set.ratings.map((r) => (
                <li key={r.bitId}>
                  <Flex gap="2" align="center">
                    <Badge color={RATING_COLORS[r.rating]}>{RATING_LABELS[r.rating]}</Badge>
                    <Link asChild>
                      <RouterLink to={paths.bit(r.bitId)}>{r.title}</RouterLink>
                    </Link>
                    {r.note ? (
                      <Text size="2" color="gray">
                        {r.note}
                      </Text>
                    ) : null}
                  </Flex>
                </li>
              ))}
            </ul>
          </Flex>
        </Flex>
      ) : null}
      <Flex direction="column" gap="2">
        <Heading as="h2" size="4">
          Add a bit you did
        </Heading>
        <Flex gap="2" wrap="wrap">
          <Select.Root value={pick} onValueChange={setPick}>
            <Select.Trigger aria-label="Bit you did" placeholder="Choose a bit" />
            <Select.Content position="popper">
              {choices.map((b) => (
                <Select.Item key={b._id} value={b._id}>
                  {b.title}
                </Select.Item>
              ))}
            </Select.Content>
          </Select.Root>
          <Button
            variant="soft"
            disabled={pick === ""}
            onClick={() => {
              const bit = choices.find((b) => b._id === pick);
              if (bit) setAdded((prev) => [...prev, { _id: bit._id, title: bit.title }]);
              setPick("");
            }}
          >
            Add
          </Button>
        </Flex>
      </Flex>
      {toRate.length > 0 ? (
        <RateBitsForm
          key={toRate.map((b) => b._id).join()}
          performanceId={performanceId}
          bits={toRate}
          allowCut={false}
          onDone={() => setAdded([])}
        />
      ) : set.rated === 0 ? (
        <Text size="2" color="gray">
          Add the bits you did to rate them.
        </Text>
      ) : null}
    </Flex>
  );
}

/** /sets/:id/bits: how each bit of a logged set went; bits done without a set list are added here afterwards. */
export function RateSetPage({ id }: { id: string | undefined }) {
  if (id === undefined) return <EmptyState title="Set not found" />;
  return (
    <ErrorBoundary fallback={<EmptyState title="Set not found" />}>
      <RateSet performanceId={id as Id<"performances">} />
    </ErrorBoundary>
  );
}
