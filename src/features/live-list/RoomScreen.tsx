import { Badge, Button, Flex, Heading, Text } from "@radix-ui/themes";
import { useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { paths } from "@/lib/paths";
import { summaryText } from "./listText";
import { QrCode } from "./QrCode";
import { SetTimer } from "./SetTimer";
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
  const waitlist = list.waitlist.filter((s) => s.state === "waiting");
  const signUpUrl = `${window.location.origin}${paths.event(micId)}`;
  return (
    <Flex direction="column" gap="6">
      <Flex justify="between" align="start" wrap="wrap" gap="3">
        <Flex direction="column" gap="2">
          <Heading as="h1" size="8">
            {title}
          </Heading>
          <Text size="6">{summaryText(list)}</Text>
        </Flex>
        <Flex direction="column" align="center" gap="2">
          <QrCode text={signUpUrl} size={160} label="QR code: open tonight's list to sign up" />
          <Text size="3">Scan to sign up</Text>
        </Flex>
      </Flex>
      {list.status === "closed" ? (
        <Text size="8" weight="bold">
          {list.closedReason === "cancelled" ? "Tonight is cancelled" : "The list is closed"}
        </Text>
      ) : null}
      <Slot label="Up now" name={list.upNow?.name} size="9" />
      <SetTimer list={list} size="8" />
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
      {waitlist.length > 0 ? (
        <Flex direction="column" gap="2">
          <Text size="6" color="gray">
            Waitlist
          </Text>
          <ol aria-label="Waitlist" style={{ margin: 0, paddingLeft: "1.5em" }}>
            {waitlist.map((s) => (
              <li key={s._id}>
                <Text size="6">{s.name}</Text>
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

/** Fills the TV: the browser's full screen, from a button (browsers allow it only after a tap or a key). */
function FullScreenButton() {
  if (typeof document === "undefined" || !document.fullscreenEnabled) return null;
  return (
    <Button
      variant="soft"
      color="gray"
      onClick={() =>
        void (document.fullscreenElement ? document.exitFullscreen() : document.documentElement.requestFullscreen())
      }
    >
      Full screen
    </Button>
  );
}

/** /event/:id/list/screen: the room screen for a TV in the venue (read-only, big type, live, no app navigation). */
export function RoomScreen({ id }: { id: string }) {
  const item = useQuery(api.scene.get, { id });
  if (item === undefined) return <Text size="6">Loading…</Text>;
  if (item === null) return <Text size="6">Event not found</Text>;
  return (
    <Flex direction="column" gap="4">
      <Flex justify="end">
        <FullScreenButton />
      </Flex>
      <Board micId={item._id} timeZone={item.timeZone} title={item.title} />
    </Flex>
  );
}
