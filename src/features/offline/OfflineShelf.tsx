import { Badge, Box, Callout, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { format } from "date-fns";
import { useEffect, useState } from "react";
import { Form, FormSelectField, FormSubmit, FormTextField } from "@/components/form";
import { PageContainer } from "@/components/PageContainer";
import {
  lastAccount,
  queueSet,
  readSnapshot,
  type OfflineList,
  type QueuedSet,
  type Snapshot,
} from "@/lib/offline/store";
import { toast } from "@/lib/toast";
import { viewerTimeZone } from "@/lib/timeZone";
import { OTHER_VENUE, offlineSetSchema } from "./offlineSetSchema";
import { useOutbox } from "./usePocket";

type Loaded = { userId: string | null; snapshot: Snapshot | null };

/** "Offline — showing what you had at 8:42 PM" */
export function offlineNote(savedAt: number): string {
  return `Offline — showing what you had at ${format(savedAt, "h:mm a")}`;
}

/** The page shown without a network: this device's copy of tonight, the week and the last sets, and the outbox. */
export default function OfflineShelf() {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  useEffect(() => {
    let live = true;
    void (async () => {
      const userId = await lastAccount().catch(() => null);
      const snapshot = userId === null ? null : await readSnapshot(userId).catch(() => null);
      if (live) setLoaded({ userId, snapshot });
    })();
    return () => {
      live = false;
    };
  }, []);
  const outbox = useOutbox(loaded?.userId ?? null);
  if (loaded === null) return null;
  const { userId, snapshot } = loaded;
  return (
    <PageContainer>
      <Flex direction="column" gap="4">
        <Heading as="h1" size="6">
          StageTime
        </Heading>
        <Callout.Root color="amber" role="status">
          <Callout.Text>
            {snapshot ? offlineNote(snapshot.savedAt) : "Offline — nothing saved on this device yet"}
          </Callout.Text>
        </Callout.Root>
        {snapshot ? <SnapshotSections snapshot={snapshot} /> : null}
        {userId !== null ? <WaitingSets sets={outbox} /> : null}
        {userId !== null ? <OfflineLogSet userId={userId} snapshot={snapshot} /> : null}
      </Flex>
    </PageContainer>
  );
}

function Section({ title, empty, children }: { title: string; empty: string; children: React.ReactNode[] }) {
  return (
    <Card asChild>
      <section aria-label={title}>
        <Heading as="h2" size="4" mb="2">
          {title}
        </Heading>
        {children.length === 0 ? (
          <Text size="2" color="gray">
            {empty}
          </Text>
        ) : (
          <Flex asChild direction="column" gap="2">
            <ul style={{ listStyle: "none", margin: 0, padding: 0 }}>{children}</ul>
          </Flex>
        )}
      </section>
    </Card>
  );
}

function SnapshotSections({ snapshot }: { snapshot: Snapshot }) {
  const time = (ms: number) => format(ms, "h:mm a");
  return (
    <>
      <Section title="Tonight" empty="Nothing scheduled tonight">
        {snapshot.tonight.map((mic) => (
          <li key={mic.sceneItemId + mic.startsAt}>
            <Flex direction="column" gap="1">
              <Text>
                <Text weight="bold">{mic.title}</Text>{" "}
                <Text color="gray">
                  {mic.venueName} · {time(mic.startsAt)}
                </Text>{" "}
                {mic.following === "favourite" ? <Badge color="gray">Favourite</Badge> : null}{" "}
                {mic.status === "cancelled" ? <Badge color="red">Cancelled</Badge> : null}
                {mic.status === "confirmed" ? <Badge color="green">Host confirmed</Badge> : null}
              </Text>
              {mic.list ? <TonightsList title={mic.title} list={mic.list} /> : null}
            </Flex>
          </li>
        ))}
      </Section>
      <Section title="Your place on tonight's list" empty="You're not on a list tonight">
        {snapshot.myPlace.map((spot) => (
          <li key={spot.micTitle}>
            {spot.sentence ? (
              <Text weight="bold">{spot.sentence}</Text>
            ) : (
              <>
                <Text weight="bold">{spot.micTitle}</Text> <Badge>{spot.label}</Badge>
              </>
            )}
          </li>
        ))}
      </Section>
      <Section title="This week" empty="Nothing on your schedule this week">
        {snapshot.week.map((item) => (
          <li key={item.key}>
            <Text>{format(item.startsAt, "EEE h:mm a")}</Text> <Text weight="bold">{item.title}</Text>{" "}
            <Text color="gray">{item.detail}</Text>
          </li>
        ))}
      </Section>
      <Section title="Your last sets" empty="No sets logged yet">
        {snapshot.lastSets.map((set) => (
          <li key={set.key}>
            <Text>{format(set.performedAt, "MMM d")}</Text> <Text weight="bold">{set.venueName}</Text>{" "}
            <Text color="gray">{set.minutes} min</Text>
          </li>
        ))}
      </Section>
    </>
  );
}

const SECTION_NAMES = { list: "List", waitlist: "Waitlist", pool: "Lottery pool" } as const;

/** A mic's live list as it was when the device last saw it: names in order, the comedian's own marked. */
function TonightsList({ title, list }: { title: string; list: OfflineList }) {
  if (list.rows.length === 0) {
    return (
      <Text size="2" color="gray">
        {list.status === "open" ? "The list is open; nobody on it yet" : "The list is closed"}
      </Text>
    );
  }
  return (
    <Box asChild pl="3">
      <ol aria-label={`Tonight's list at ${title}`} style={{ margin: 0 }}>
        {list.rows.map((row) => (
          <li key={`${row.section}-${row.place}`} style={{ listStyle: "none" }}>
            <Text size="2" weight={row.mine ? "bold" : "regular"}>
              {row.section === "list" ? `${row.place}.` : `${SECTION_NAMES[row.section]} ${row.place}.`} {row.name}
              {row.mine ? " (you)" : ""}
              {row.state === "done" ? " · done" : row.state === "up" ? " · up now" : ""}
            </Text>
          </li>
        ))}
      </ol>
    </Box>
  );
}

/** The sets in the outbox, each marked "Waiting to sync". */
export function WaitingSets({ sets }: { sets: QueuedSet[] }) {
  if (sets.length === 0) return null;
  return (
    <Section title="Sets saved on this phone" empty="">
      {sets.map((set) => (
        <li key={set.clientKey}>
          <Text weight="bold">{set.label}</Text> <Badge color="amber">Waiting to sync</Badge>
        </li>
      ))}
    </Section>
  );
}

function OfflineLogSet({ userId, snapshot }: { userId: string; snapshot: Snapshot | null }) {
  const mics = snapshot?.tonight ?? [];
  const options = [
    ...mics.map((mic) => ({ value: mic.sceneItemId, label: `${mic.title} (${mic.venueName})` })),
    { value: OTHER_VENUE, label: "Somewhere else" },
  ];
  return (
    <Card asChild>
      <section aria-label="Log a set">
        <Heading as="h2" size="4" mb="2">
          Log a set
        </Heading>
        <Text as="p" size="2" color="gray" mb="3">
          It is saved on this phone and logged when you are back online.
        </Text>
        <Form
          aria-label="Log a set offline"
          schema={offlineSetSchema}
          defaultValues={{ where: options[0].value, venueName: "", minutes: 5 }}
          onSubmit={async (values, methods) => {
            const mic = mics.find((m) => m.sceneItemId === values.where);
            const venueName = mic ? mic.venueName : values.venueName;
            const queued = await queueSet({
              clientKey: crypto.randomUUID(),
              userId,
              queuedAt: Date.now(),
              label: `${values.minutes} min at ${venueName}`,
              set: {
                minutes: values.minutes,
                performedAt: Date.now(),
                tags: [],
                timeZone: viewerTimeZone(),
                ...(mic ? { sceneItemId: mic.sceneItemId } : { venueName }),
              },
            }).catch(() => false);
            if (!queued) {
              toast.error("Could not save", { description: "This phone's outbox is full: connect to send the sets." });
              return;
            }
            toast.success("Set saved on this phone", { description: "Waiting to sync" });
            methods.reset({ where: options[0].value, venueName: "", minutes: 5 });
          }}
        >
          {({ watch }) => (
            <>
              <FormSelectField name="where" label="Where" options={options} />
              {watch("where") === OTHER_VENUE ? <FormTextField name="venueName" label="Venue" /> : null}
              <FormTextField name="minutes" label="Minutes" type="number" />
              <Box>
                <FormSubmit>Save set</FormSubmit>
              </Box>
            </>
          )}
        </Form>
      </section>
    </Card>
  );
}
