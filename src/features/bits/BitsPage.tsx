import { MagnifyingGlassIcon } from "@radix-ui/react-icons";
import { Badge, Box, Button, Card, Flex, Heading, SegmentedControl, Select, Text, TextField } from "@radix-ui/themes";
import { useMutation, usePaginatedQuery, useQuery } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import { useEffect, useState } from "react";
import { Link as RouterLink } from "@/lib/router";
import { api } from "@convex/_generated/api";
import {
  BIT_STATUS_LABELS,
  BIT_STATUSES,
  formatBitLength,
  MAX_BIT_SEARCH_LENGTH,
  type BitStatus,
} from "@convex/lib/bitRules";
import { EmptyState } from "@/components/EmptyState";
import { ErrorBoundary } from "@/components/ErrorBoundary";
import { LoadingState } from "@/components/LoadingState";
import { TagBadges } from "@/components/TagBadges";
import { errorMessage } from "@/lib/convexErrors";
import { paths } from "@/lib/paths";
import { toast } from "@/lib/toast";
import { BitDialog, NewBitButton } from "./BitDialog";
import { BitNumbersLine } from "./BitNumbers";
import { RatingPrompt } from "./RateBits";

/** Bits fetched per page (and per 'Load more'). */
export const BITS_PAGE_SIZE = 30;

const ALL = "all";
const listStyle = { listStyle: "none", margin: 0, padding: 0 } as const;

export type BitRow = FunctionReturnType<typeof api.bits.list>["page"][number];

export const STATUS_COLORS: Record<BitStatus, "blue" | "amber" | "green" | "gray"> = {
  new: "blue",
  working: "amber",
  tight: "green",
  retired: "gray",
};

/** The text typed in the search box, once typing pauses. */
function useSettled(value: string, ms = 250): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

function ArchiveButton({ bit }: { bit: BitRow }) {
  const setArchived = useMutation(api.bits.setArchived);
  const [busy, setBusy] = useState(false);
  return (
    <Button
      size="1"
      variant="soft"
      color="gray"
      loading={busy}
      aria-label={`${bit.archived ? "Restore" : "Archive"} ${bit.title}`}
      onClick={async () => {
        setBusy(true);
        try {
          await setArchived({ id: bit._id, archived: !bit.archived });
          toast.success(bit.archived ? "Bit restored" : "Bit archived");
        } catch (err) {
          toast.error(errorMessage(err, "Could not change the bit. Please try again."));
        } finally {
          setBusy(false);
        }
      }}
    >
      {bit.archived ? "Restore" : "Archive"}
    </Button>
  );
}

function BitCard({ bit }: { bit: BitRow }) {
  return (
    <li aria-label={bit.title}>
      <Card size="2">
        <Flex direction="column" gap="2">
          <Flex justify="between" align="start" gap="2">
            <Box minWidth="0">
              <Text as="p" size="3" weight="bold" style={{ overflowWrap: "anywhere" }}>
                <RouterLink to={paths.bit(bit._id)} style={{ color: "inherit" }}>
                  {bit.title}
                </RouterLink>
              </Text>
              <BitNumbersLine bit={bit} />
            </Box>
            <Flex gap="1" align="center" flexShrink="0">
              {bit.seconds !== null ? (
                <Text size="2" color="gray" aria-label={`About ${formatBitLength(bit.seconds)}`}>
                  {formatBitLength(bit.seconds)}
                </Text>
              ) : null}
              <Badge color={STATUS_COLORS[bit.status]} highContrast>
                {BIT_STATUS_LABELS[bit.status]}
              </Badge>
            </Flex>
          </Flex>
          <TagBadges tags={bit.tags} color="gray" />
          <Flex gap="2" justify="end">
            <BitDialog
              bit={bit}
              trigger={
                <Button size="1" variant="soft" aria-label={`Edit ${bit.title}`}>
                  Edit
                </Button>
              }
            />
            <ArchiveButton bit={bit} />
          </Flex>
        </Flex>
      </Card>
    </li>
  );
}

type Filter = { archived: boolean; status?: BitStatus; tag?: string; search?: string };

function BitList({ filter }: { filter: Filter }) {
  const { results, status, loadMore } = usePaginatedQuery(api.bits.list, filter, {
    initialNumItems: BITS_PAGE_SIZE,
  });
  if (status === "LoadingFirstPage") return <LoadingState variant="skeleton" label="Loading your bits" rows={4} />;
  if (results.length === 0) {
    const filtered = filter.status !== undefined || filter.tag !== undefined || filter.search !== undefined;
    if (filtered) return <EmptyState title="No bits match" description="Try another search or filter." />;
    if (filter.archived) return <EmptyState title="No archived bits" description="Bits you archive wait here." />;
    return (
      <EmptyState
        title="No bits yet"
        description="Write down your bits to build sets from them and see which ones land."
        action={<NewBitButton />}
      />
    );
  }
  return (
    <Flex direction="column" gap="3">
      <Flex direction="column" gap="2" asChild>
        <ul style={listStyle} aria-label="Your bits">
          {results.map((bit) => (
            <BitCard key={bit._id} bit={bit} />
          ))}
        </ul>
      </Flex>
      {status === "CanLoadMore" || status === "LoadingMore" ? (
        <Flex justify="center">
          <Button variant="soft" loading={status === "LoadingMore"} onClick={() => loadMore(BITS_PAGE_SIZE)}>
            Load more
          </Button>
        </Flex>
      ) : null}
    </Flex>
  );
}

function TagSelect({ value, onChange }: { value: string; onChange: (tag: string) => void }) {
  const tags = useQuery(api.bits.tags);
  return (
    <Select.Root value={value} onValueChange={onChange} disabled={tags === undefined || tags.length === 0}>
      <Select.Trigger aria-label="Filter by tag" />
      <Select.Content position="popper">
        <Select.Item value={ALL}>All tags</Select.Item>
        {(tags ?? []).map((tag) => (
          <Select.Item key={tag} value={tag}>
            {tag}
          </Select.Item>
        ))}
      </Select.Content>
    </Select.Root>
  );
}

/** /bits: the comedian's bit library, searchable and filtered by tag and status, with archived bits apart. */
export function BitsPage() {
  const [typed, setTyped] = useState("");
  const search = useSettled(typed).trim();
  const [status, setStatus] = useState<string>(ALL);
  const [tag, setTag] = useState<string>(ALL);
  const [shelf, setShelf] = useState<"library" | "archived">("library");
  const filter: Filter = {
    archived: shelf === "archived",
    ...(status !== ALL ? { status: status as BitStatus } : {}),
    ...(tag !== ALL ? { tag } : {}),
    ...(search !== "" ? { search } : {}),
  };
  return (
    <Flex direction="column" gap="4">
      <Flex justify="between" align="center" gap="3" wrap="wrap">
        <Heading as="h1" size="8">
          Bits
        </Heading>
        <Flex gap="2" wrap="wrap">
          <Button asChild variant="soft">
            <RouterLink to={paths.setLists}>Set lists</RouterLink>
          </Button>
          <NewBitButton />
        </Flex>
      </Flex>
      <RatingPrompt />
      <Flex direction="column" gap="2">
        <TextField.Root
          type="search"
          size="3"
          placeholder="Search title, tags and notes"
          aria-label="Search bits"
          maxLength={MAX_BIT_SEARCH_LENGTH}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
        >
          <TextField.Slot>
            <MagnifyingGlassIcon aria-hidden="true" />
          </TextField.Slot>
        </TextField.Root>
        <Flex gap="2" wrap="wrap" align="center">
          <Select.Root value={status} onValueChange={setStatus}>
            <Select.Trigger aria-label="Filter by status" />
            <Select.Content position="popper">
              <Select.Item value={ALL}>All statuses</Select.Item>
              {BIT_STATUSES.map((s) => (
                <Select.Item key={s} value={s}>
                  {BIT_STATUS_LABELS[s]}
                </Select.Item>
              ))}
            </Select.Content>
          </Select.Root>
          <ErrorBoundary fallback={null}>
            <TagSelect value={tag} onChange={setTag} />
          </ErrorBoundary>
          <SegmentedControl.Root
            value={shelf}
            onValueChange={(v) => setShelf(v as "library" | "archived")}
            aria-label="Show"
          >
            <SegmentedControl.Item value="library">Library</SegmentedControl.Item>
            <SegmentedControl.Item value="archived">Archived</SegmentedControl.Item>
          </SegmentedControl.Root>
        </Flex>
      </Flex>
      <ErrorBoundary fallback={<EmptyState title="Your bits could not be loaded" description="Please try again." />}>
        <BitList filter={filter} />
      </ErrorBoundary>
    </Flex>
  );
}
