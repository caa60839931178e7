import { Box, Button, Flex, Heading, Text, Theme } from "@radix-ui/themes";
import { useQuery } from "convex/react";
import { Link as RouterLink } from "@/lib/router";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { formatBitLength } from "@convex/lib/bitRules";
import { EmptyState } from "@/components/EmptyState";
import { ErrorBoundary } from "@/components/ErrorBoundary";
import { LoadingState } from "@/components/LoadingState";
import { paths } from "@/lib/paths";

function NotFound() {
  return (
    <EmptyState
      title="Set list not found"
      action={
        <Button asChild variant="soft" size="3">
          <RouterLink to={paths.setLists}>All set lists</RouterLink>
        </Button>
      }
    />
  );
}

function Stage({ id }: { id: Id<"setLists"> }) {
  const list = useQuery(api.setLists.get, { id });
  if (list === undefined) return <LoadingState label="Loading the set…" />;
  if (list === null) return <NotFound />;
  return (
    <Flex direction="column" gap="5">
      <Flex justify="between" align="center" gap="3">
        <Heading as="h1" size="6" color="gray">
          {list.title} · {formatBitLength(list.totalSeconds)}
        </Heading>
        <Button asChild variant="soft" size="3">
          <RouterLink to={paths.setList(list._id)}>Close</RouterLink>
        </Button>
      </Flex>
      {list.bits.length === 0 ? (
        <EmptyState
          title="No bits in this set yet"
          description="Add bits to the set list, then come back to this view."
          action={
            <Button asChild size="3">
              <RouterLink to={paths.setList(list._id)}>Add bits</RouterLink>
            </Button>
          }
        />
      ) : null}
      <Flex direction="column" gap="4" asChild>
        <ol aria-label="The set" style={{ listStyle: "none", margin: 0, padding: 0 }}>
          {list.bits.map((bit, i) => (
            <li key={bit._id}>
              <Text size="9" weight="bold" style={{ lineHeight: 1.15, overflowWrap: "anywhere" }}>
                <Text color="gray">{i + 1}. </Text>
                {bit.title}
              </Text>
            </li>
          ))}
        </ol>
      </Flex>
    </Flex>
  );
}

/** /set-lists/:id/stage: the set in large type, light on dark, readable at a glance from the stage. */
export function StageView({ id }: { id: string | undefined }) {
  return (
    <Theme appearance="dark" accentColor="amber" hasBackground>
      <Box p={{ initial: "4", sm: "6" }} style={{ minHeight: "100dvh" }} asChild>
        <main id="main">
          {id === undefined ? (
            <NotFound />
          ) : (
            <ErrorBoundary fallback={<NotFound />}>
              <Stage id={id as Id<"setLists">} />
            </ErrorBoundary>
          )}
        </main>
      </Box>
    </Theme>
  );
}
