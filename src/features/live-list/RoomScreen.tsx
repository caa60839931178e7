import { Badge, Flex, Heading, Text } from "@radix-ui/themes";
import { useQuery } from "convex/react";
import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";
import { summaryText } from "./listText";
import { useLiveList } from "./useLiveList";

function Board({ micId, timeZone, title }: { micId: Id<"sceneItems">; timeZone: string; title: string }) {
  const data = useLiveList(micId, timeZone);
  if (data === undefined) return <Text size="6">Loading the list…</Text>;
  const list = data.list;
  if (list === null) {
    return (
      <Flex direction="column" gap="4">
        <Heading as="h1" size="9">
          {title}
        </Heading>
        <Text size="7">No list tonight yet.</Text>
      </Flex>
    );
  }
  const next = list.list.filter((s) => s.state === "waiting" && !s.onDeck).slice(0, 3);
  return (
    <Flex direction="column" gap="6">
      <Flex justify="between" align="center" wrap="wrap" gap="3">
        <Heading as="h1" size="8">
          {title}
        </Heading>
        <Text size="6">{summaryText(list)}</Text>
      </Flex>
      {list.status === "closed" ? (
        <Text size="8" weight="bold">
          {list.closedReason === "cancelled" ? "Tonight is cancelled" : "The list is closed"}
        </Text>
      ) : null}
      <Flex direction="column" gap="2" aria-label="Up now" role="group">
        <Text size="6" color="gray">
          Up now
        </Text>
        <Text size="9" weight="bold">
          {list.upNow?.name ?? "—"}
        </Text>
      </Flex>
      <Flex direction="column" gap="2" aria-label="On deck" role="group">
        <Text size="6" color="gray">
          On deck
        </Text>
        <Text size="8" weight="bold">
          {list.onDeck?.name ?? "—"}
        </Text>
      </Flex>
      {next.length > 0 ? (
        <Flex direction="column" gap="2">
          <Text size="6" color="gray">
            Then
          </Text>
          <ol aria-label="Then" style={{ margin: 0, paddingLeft: "1.5em" }}>
            {next.map((s) => (
              <li key={s._id}>
                <Text size="7">{s.name}</Text>
              </li>
            ))}
          </ol>
        </Flex>
      ) : null}
      {list.mode === "lottery" && list.drawnAt === null ? (
        <Flex gap="2" align="center">
          <Badge size="3">Lottery</Badge>
          <Text size="6">{list.pool.length} in the lottery</Text>
        </Flex>
      ) : null}
    </Flex>
  );
}

/** /event/:id/list/screen: the room screen for a TV in the venue (read-only, big type, live). */
export function RoomScreen({ id }: { id: string }) {
  const item = useQuery(api.scene.get, { id });
  if (item === undefined) return <Text size="6">Loading…</Text>;
  if (item === null) return <Text size="6">Event not found</Text>;
  return <Board micId={item._id} timeZone={item.timeZone} title={item.title} />;
}
