import { Badge, Box, Callout, Card, Flex, Heading, Link, Text } from "@radix-ui/themes";
import { useQuery } from "convex/react";
import { Link as RouterLink } from "@/lib/router";
import { api } from "@convex/_generated/api";
import { ErrorBoundary } from "@/components/ErrorBoundary";
import { paths } from "@/lib/paths";
import { HostTools } from "./HostTools";
import { modeText, summaryText, type ListView } from "./listText";
import { MyPlace } from "./MyPlace";
import { OpenListForm, type ListMic } from "./OpenListForm";
import { RemoveSpotButton, SectionList } from "./SectionList";
import { useLiveList } from "./useLiveList";

function ListBody({ list, host, notShown }: { list: ListView; host: boolean; notShown: "full" | "removed" | null }) {
  const drawOrder = [...list.list, ...list.waitlist]
    .filter((s) => s.drawIndex !== null)
    .sort((a, b) => a.drawIndex! - b.drawIndex!);
  return (
    <Flex direction="column" gap="4">
      <Flex direction="column" gap="1">
        <Text size="4" weight="bold">
          {summaryText(list)}
        </Text>
        <Text size="2" color="gray">
          {modeText(list)}
          {` · ${list.setMinutes}-minute sets · light ${list.lightMinutes} min before the end`}
        </Text>
      </Flex>
      {list.status === "closed" ? (
        <Callout.Root color={list.closedReason === "cancelled" ? "orange" : "gray"} role="status">
          <Callout.Text>
            {list.closedReason === "cancelled"
              ? "Tonight was cancelled, so the list is closed."
              : "This list is closed."}
          </Callout.Text>
        </Callout.Root>
      ) : null}
      <MyPlace list={list} notShown={notShown} />
      {list.upNow !== null || list.onDeck !== null ? (
        <Flex gap="4" wrap="wrap">
          {list.upNow !== null ? (
            <Text size="3">
              Up now: <strong>{list.upNow.name}</strong>
            </Text>
          ) : null}
          {list.onDeck !== null ? (
            <Text size="3">
              On deck: <strong>{list.onDeck.name}</strong>
            </Text>
          ) : null}
        </Flex>
      ) : null}
      <SectionList label="Running order" spots={list.list} list={list} host={host} />
      <SectionList label="Waitlist" spots={list.waitlist} list={list} host={host} />
      {list.pool.length > 0 ? (
        <Flex direction="column" gap="2">
          <Heading as="h3" size="3">
            In the lottery ({list.pool.length})
          </Heading>
          <Flex gap="2" wrap="wrap" asChild>
            <ul aria-label="In the lottery" style={{ listStyle: "none", margin: 0, padding: 0 }}>
              {list.pool.map((s) => (
                <li key={s._id}>
                  <Flex gap="1" align="center">
                    <Badge variant={s.isMine ? "solid" : "soft"} size="2">
                      {s.name}
                    </Badge>
                    {host && list.status === "open" ? <RemoveSpotButton list={list} spot={s} /> : null}
                  </Flex>
                </li>
              ))}
            </ul>
          </Flex>
        </Flex>
      ) : null}
      {drawOrder.length > 0 ? (
        <Flex direction="column" gap="1">
          <Heading as="h3" size="3">
            Lottery draw order
          </Heading>
          <ol aria-label="Lottery draw order" style={{ margin: 0 }}>
            {drawOrder.map((s) => (
              <li key={s._id}>
                <Text size="2">{s.name}</Text>
              </li>
            ))}
          </ol>
        </Flex>
      ) : null}
      {host ? <HostTools list={list} /> : null}
      <Box>
        <Link asChild size="2">
          <RouterLink to={paths.eventListScreen(list.micId)}>Open the room screen</RouterLink>
        </Link>
      </Box>
    </Flex>
  );
}

/** The event page's live list: sign-up and place for comedians, the running order, and the host's tools. */
export function LiveListSection(mic: ListMic) {
  const data = useLiveList(mic.micId, mic.timeZone);
  if (data === undefined) return null;
  const { list, canHost, hasPriority } = data;
  if (list === null && !canHost && !hasPriority) return null;
  return (
    <Card size="3">
      <Flex direction="column" gap="3" asChild>
        <section aria-labelledby="live-list-heading">
          <Heading as="h2" size="5" id="live-list-heading">
            Tonight's list
          </Heading>
          {hasPriority ? (
            <Callout.Root color="blue" role="status">
              <Callout.Text>
                You were bumped or waitlisted at this mic's last list, so you're placed first at the next one.
              </Callout.Text>
            </Callout.Root>
          ) : null}
          {list !== null ? (
            <ListBody list={list} host={canHost} notShown={data.notShown} />
          ) : canHost ? (
            <OpenListForm {...mic} />
          ) : (
            <Text size="2">No list is open for tonight yet.</Text>
          )}
        </section>
      </Flex>
    </Card>
  );
}

function EventLiveListInner({ id }: { id: string }) {
  const item = useQuery(api.scene.get, { id });
  if (!item) return null;
  return (
    <LiveListSection
      micId={item._id}
      timeZone={item.timeZone}
      defaultSetMinutes={item.performanceMinutes}
      listTimeLocal={item.listTimeLocal}
    />
  );
}

/** The event page's live list section for the mic `id` (nothing while it loads or when the id is bad). */
export function EventLiveList({ id }: { id: string | undefined }) {
  if (!id) return null;
  return (
    <ErrorBoundary key={id} fallback={null}>
      <EventLiveListInner id={id} />
    </ErrorBoundary>
  );
}
