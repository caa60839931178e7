import { PlusIcon } from "@radix-ui/react-icons";
import { Badge, Button, Flex, Heading, Link, Text, TextField } from "@radix-ui/themes";
import { useMutation, useQuery } from "convex/react";
import { useState } from "react";
import { Link as RouterLink } from "@/lib/router";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { landedSummary, MAX_BIT_SEARCH_LENGTH } from "@convex/lib/bitRules";
import { EmptyState } from "@/components/EmptyState";
import { ErrorBoundary } from "@/components/ErrorBoundary";
import { LoadingState } from "@/components/LoadingState";
import { errorMessage } from "@/lib/convexErrors";
import { paths } from "@/lib/paths";
import { toast } from "@/lib/toast";
import { RATING_COLORS, RATING_LABELS } from "./BitNumbers";
import { RateBitsForm } from "./RateBits";

/** Bits shown to add to a set afterwards: a few before a search, more for one. */
const PICK_FIRST = 8;
const PICK_FOUND = 20;

/**
 * Finds a bit of the library by search (any of hundreds, not just the first
 * page) to add to the set's ratings.
 */
function AddBitYouDid({
  hidden,
  onAdd,
}: {
  hidden: Set<string>;
  onAdd: (bit: { _id: Id<"bits">; title: string }) => void;
}) {
  const [search, setSearch] = useState("");
  const term = search.trim();
  const found = useQuery(api.bits.list, {
    paginationOpts: { numItems: term === "" ? PICK_FIRST : PICK_FOUND, cursor: null },
    archived: false,
    ...(term !== "" ? { search: term } : {}),
  });
  const choices = (found?.page ?? []).filter((b) => !hidden.has(b._id));
  return (
    <Flex direction="column" gap="2">
      <Heading as="h2" size="4">
        Add a bit you did
      </Heading>
      <TextField.Root
        type="search"
        aria-label="Search your bits to add"
        placeholder="Search your bits"
        maxLength={MAX_BIT_SEARCH_LENGTH}
        value={search}
        onChange={(e) => setSearch(e.target.value)}
      />
      {found === undefined ? (
        <LoadingState variant="skeleton" label="Loading your bits" rows={2} />
      ) : choices.length === 0 ? (
        <Text size="2" color="gray">
          {term !== "" ? (
            "No bits match."
          ) : found.page.length === 0 ? (
            <>
              Your library has no bits yet.{" "}
              <Link asChild>
                <RouterLink to={paths.bits}>Add bits on the Bits page</RouterLink>
              </Link>
            </>
          ) : (
            "Search for the other bits you did."
          )}
        </Text>
      ) : (
        <Flex direction="column" gap="1" asChild>
          <ul style={{ listStyle: "none", margin: 0, padding: 0 }} aria-label="Bits to add">
            {choices.map((b) => (
              <li key={b._id}>
                <Button
                  variant="surface"
                  size="3"
                  style={{ width: "100%", justifyContent: "flex-start", height: "auto", minHeight: 44 }}
                  aria-label={`Add ${b.title}`}
                  onClick={() => onAdd({ _id: b._id, title: b.title })}
                >
                  <PlusIcon aria-hidden="true" />
                  <Text style={{ overflowWrap: "anywhere", textAlign: "start" }}>{b.title}</Text>
                </Button>
              </li>
            ))}
          </ul>
        </Flex>
      )}
    </Flex>
  );
}

function RateSet({ performanceId }: { performanceId: Id<"performances"> }) {
  const set = useQuery(api.ratings.forSet, { performanceId });
  const skip = useMutation(api.ratings.skip);
  const [added, setAdded] = useState<Array<{ _id: Id<"bits">; title: string }>>([]);
  if (set === undefined) return <LoadingState label="Loading the set…" />;
  const shown = new Set([...set.ratings.map((r) => r.bitId as string), ...set.unrated.map((b) => b._id as string)]);
  const toRate = [...set.unrated, ...added.filter((b) => !shown.has(b._id))];
  const hidden = new Set([...shown, ...added.map((b) => b._id as string)]);
  return (
    <Flex direction="column" gap="4">
      <BackToHistory />
      <Flex direction="column" gap="1">
        <Heading as="h1" size="7">
          {set.status === "pending" ? "How did it go?" : "Bits of this set"}
        </Heading>
        {set.setListTitle !== null ? (
          <Text size="2" color="gray">
            From the set list {set.setListTitle}
          </Text>
        ) : null}
      </Flex>
      {set.rated > 0 ? (
        <Flex direction="column" gap="2">
          <Text weight="bold">{landedSummary(set)}</Text>
          <Flex direction="column" gap="1" asChild>
            <ul style={{ listStyle: "none", margin: 0, padding: 0 }} aria-label="Rated bits">
              {set.ratings.map((r) => (
                <li key={r.bitId}>
                  <Flex gap="2" align="center" wrap="wrap">
                    <Badge color={RATING_COLORS[r.rating]} highContrast>
                      {RATING_LABELS[r.rating]}
                    </Badge>
                    <Link asChild>
                      <RouterLink to={paths.bit(r.bitId)}>{r.title}</RouterLink>
                    </Link>
                    {r.note ? (
                      <Text size="2" color="gray" style={{ overflowWrap: "anywhere" }}>
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
      {toRate.length > 0 ? (
        <RateBitsForm
          key={toRate.map((b) => b._id).join()}
          performanceId={performanceId}
          bits={toRate}
          allowCut={set.setListTitle !== null}
          onDone={() => setAdded([])}
          onSkip={
            set.status === "pending"
              ? () => {
                  skip({ performanceId }).catch((err: unknown) =>
                    toast.error(errorMessage(err, "Could not skip. Please try again.")),
                  );
                }
              : undefined
          }
        />
      ) : set.rated === 0 ? (
        <Text size="2" color="gray">
          Add the bits you did to rate them.
        </Text>
      ) : null}
      <AddBitYouDid hidden={hidden} onAdd={(bit) => setAdded((prev) => [...prev, bit])} />
    </Flex>
  );
}

function BackToHistory() {
  return (
    <Link asChild size="2">
      <RouterLink to={paths.performanceHistory}>Performance History</RouterLink>
    </Link>
  );
}

function SetNotFound() {
  return <EmptyState title="Set not found" action={<BackToHistory />} />;
}

/** /sets/:id/bits: how each bit of a logged set went; bits done without a set list are added here afterwards. */
export function RateSetPage({ id }: { id: string | undefined }) {
  if (id === undefined) return <SetNotFound />;
  return (
    <ErrorBoundary fallback={<SetNotFound />}>
      <RateSet performanceId={id as Id<"performances">} />
    </ErrorBoundary>
  );
}
