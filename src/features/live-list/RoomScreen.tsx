import { Badge, Flex, Heading, Text } from "@radix-ui/themes";
import { useQuery } from "convex/react";
import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";
import { summaryText } from "./listText";
import { useLiveList } from "./useLiveList";

/** 'Up now' or 'On deck' in big type: a group named by its caption, with the comedian's name or a dash. */
function Slot({ label, name, size }: { label: string; name: string | undefined; size: "8" | "9" }) {
  return (
    <Flex direction="column" gap="2" aria-label={label} role="group">
      <Text size="6" color="gray">
        {label}
      </Text>
      <Text size={size} weight="bold">
        {name ?? "—"}
      </Text>
    </Flex>
  );
}

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
      <Slot label="Up now" name={list.upNow?.name} size="9" />
      <Slot label="On deck" name={list.onDeck?.name} size="8" />
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
