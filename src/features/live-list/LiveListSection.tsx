import { Badge, Box, Button, Callout, Card, Flex, Heading, Link, Text, TextField } from "@radix-ui/themes";
import { useConvexAuth, useMutation, useQuery } from "convex/react";
import { useId, useState, type DragEvent } from "react";
import { Link as RouterLink } from "react-router-dom";
import { toast } from "sonner";
import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";
import { ErrorBoundary } from "@/components/ErrorBoundary";
import { errorMessage } from "@/lib/convexErrors";
import { paths } from "@/lib/paths";
import { useNow } from "@/lib/useNow";
import { clockText, mySpot, placeText, summaryText, type ListView, type SpotView } from "./listText";
import { OpenListForm } from "./OpenListForm";
import { useLiveList } from "./useLiveList";

/** Runs a list mutation, showing the server's message when it is refused. */
function useListAction() {
  const [busy, setBusy] = useState<string | null>(null);
  const run = async (key: string, action: () => Promise<unknown>, success?: string) => {
    setBusy(key);
    try {
      await action();
      if (success) toast.success(success);
    } catch (error) {
      toast.error(errorMessage(error, "Could not update the list. Please try again."));
    } finally {
      setBusy(null);
    }
  };
  return { busy, run };
}

function SpotBadges({ spot }: { spot: SpotView }) {
  return (
    <>
      {spot.state === "up" ? (
        <Badge color="green" highContrast>
          Up now
        </Badge>
      ) : null}
      {spot.onDeck ? (
        <Badge color="amber" highContrast>
          On deck
        </Badge>
      ) : null}
      {spot.state === "done" ? <Badge color="gray">Done</Badge> : null}
      {spot.state === "no_show" ? <Badge color="red">No-show</Badge> : null}
      {spot.walkIn ? (
        <Badge variant="outline" color="gray">
          Walk-in
        </Badge>
      ) : null}
      {spot.priority ? (
        <Badge variant="soft" color="blue">
          Priority
        </Badge>
      ) : null}
      {spot.bumped ? (
        <Badge variant="soft" color="orange">
          Bumped
        </Badge>
      ) : null}
      {spot.drawIndex !== null ? (
        <Badge variant="soft" color="gray">
          Drawn #{spot.drawIndex}
        </Badge>
      ) : null}
      {spot.isMine ? <Badge variant="solid">You</Badge> : null}
    </>
  );
}

function elapsedText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The set timer the host sees for whoever is up, with the light. */
function SetTimer({ list }: { list: ListView }) {
  const now = useNow(1000);
  if (list.upNow === null || list.upStartedAt === null) return null;
  const elapsed = now - list.upStartedAt;
  const light = elapsed >= (list.setMinutes - list.lightMinutes) * 60_000;
  return (
    <Flex gap="2" align="center">
      <Text size="2">Timer {elapsedText(elapsed)}</Text>
      {light ? (
        <Badge color="red" highContrast>
          Light
        </Badge>
      ) : null}
    </Flex>
  );
}

function SectionList({
  label,
  spots,
  list,
  host,
}: {
  label: string;
  spots: SpotView[];
  list: ListView;
  host: boolean;
}) {
  const move = useMutation(api.nightLists.move);
  const bump = useMutation(api.nightLists.bump);
  const noShow = useMutation(api.nightLists.noShow);
  const upNow = useMutation(api.nightLists.upNow);
  const done = useMutation(api.nightLists.done);
  const { busy, run } = useListAction();
  const [dragged, setDragged] = useState<Id<"listSpots"> | null>(null);
  const canRun = host && list.status === "open";
  const args = (spot: SpotView) => ({ listId: list._id, spotId: spot._id, version: list.version });
  const moveTo = (spot: SpotView, toIndex: number) => run(`move-${spot._id}`, () => move({ ...args(spot), toIndex }));

  const onDrop = (event: DragEvent, target: number) => {
    event.preventDefault();
    const spot = spots.find((s) => s._id === dragged);
    setDragged(null);
    if (spot && spot.place - 1 !== target) void moveTo(spot, target);
  };

  if (spots.length === 0) return null;
  return (
    <Flex direction="column" gap="2">
      <Heading as="h3" size="3">
        {label}
      </Heading>
      <Flex direction="column" gap="2" asChild>
        <ol aria-label={label} style={{ listStyle: "none", margin: 0, padding: 0 }}>
          {spots.map((spot, i) => (
            <li
              key={spot._id}
              draggable={canRun}
              onDragStart={canRun ? () => setDragged(spot._id) : undefined}
              onDragOver={canRun ? (e) => e.preventDefault() : undefined}
              onDrop={canRun ? (e) => onDrop(e, i) : undefined}
              data-spot-name={spot.name}
            >
              <Card variant="surface" style={{ cursor: canRun ? "grab" : undefined }}>
                <Flex direction="column" gap="2">
                  <Flex gap="2" align="center" wrap="wrap">
                    <Text weight="bold">#{spot.place}</Text>
                    <Text>{spot.name}</Text>
                    <SpotBadges spot={spot} />
                  </Flex>
                  {canRun ? (
                    <Flex gap="2" wrap="wrap">
                      <Button
                        size="1"
                        variant="soft"
                        color="gray"
                        disabled={i === 0}
                        loading={busy === `move-${spot._id}`}
                        aria-label={`Move ${spot.name} up`}
                        onClick={() => void moveTo(spot, i - 1)}
                      >
                        Move up
                      </Button>
                      <Button
                        size="1"
                        variant="soft"
                        color="gray"
                        disabled={i === spots.length - 1}
                        aria-label={`Move ${spot.name} down`}
                        onClick={() => void moveTo(spot, i + 1)}
                      >
                        Move down
                      </Button>
                      {spot.section === "list" && spot.state === "waiting" ? (
                        <>
                          <Button
                            size="1"
                            aria-label={`${spot.name} is up now`}
                            disabled={list.upNow !== null}
                            onClick={() =>
                              void run(`up-${spot._id}`, () => upNow({ listId: list._id, spotId: spot._id }))
                            }
                          >
                            Up now
                          </Button>
                          <Button
                            size="1"
                            variant="soft"
                            color="orange"
                            aria-label={`Bump ${spot.name} to the waitlist`}
                            onClick={() => void run(`bump-${spot._id}`, () => bump(args(spot)))}
                          >
                            Bump
                          </Button>
                          <Button
                            size="1"
                            variant="soft"
                            color="red"
                            aria-label={`Mark ${spot.name} a no-show`}
                            onClick={() => void run(`noshow-${spot._id}`, () => noShow(args(spot)))}
                          >
                            No-show
                          </Button>
                        </>
                      ) : null}
                      {spot.state === "up" ? (
                        <>
                          <Button
                            size="1"
                            color="green"
                            aria-label={`${spot.name}'s set is done`}
                            loading={busy === `done-${spot._id}`}
                            onClick={() =>
                              void run(`done-${spot._id}`, () =>
                                done({ listId: list._id, spotId: spot._id, useTimer: false }),
                              )
                            }
                          >
                            Done
                          </Button>
                          <Button
                            size="1"
                            variant="soft"
                            color="green"
                            aria-label={`${spot.name}'s set is done, log the timer's minutes`}
                            onClick={() =>
                              void run(`done-${spot._id}`, () =>
                                done({ listId: list._id, spotId: spot._id, useTimer: true }),
                              )
                            }
                          >
                            Done (timed)
                          </Button>
                        </>
                      ) : null}
                    </Flex>
                  ) : null}
                </Flex>
              </Card>
            </li>
          ))}
        </ol>
      </Flex>
    </Flex>
  );
}

function WalkInForm({ listId }: { listId: Id<"nightLists"> }) {
  const addWalkIn = useMutation(api.nightLists.addWalkIn);
  const [name, setName] = useState("");
  const { busy, run } = useListAction();
  const id = useId();
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void run("walk-in", async () => {
          await addWalkIn({ listId, name });
          setName("");
        });
      }}
    >
      <Flex gap="2" align="end" wrap="wrap">
        <Flex direction="column" gap="1">
          <Text as="label" htmlFor={id} size="2" weight="medium">
            Walk-in name
          </Text>
          <TextField.Root id={id} value={name} maxLength={60} onChange={(e) => setName(e.target.value)} />
        </Flex>
        <Button type="submit" variant="soft" loading={busy === "walk-in"} disabled={!name.trim()}>
          Add walk-in
        </Button>
      </Flex>
    </form>
  );
}

function HostTools({ list }: { list: ListView }) {
  const draw = useMutation(api.nightLists.draw);
  const close = useMutation(api.nightLists.close);
  const { busy, run } = useListAction();
  if (list.status !== "open") return null;
  return (
    <Flex direction="column" gap="3">
      <Heading as="h3" size="3">
        Host tools
      </Heading>
      <SetTimer list={list} />
      <WalkInForm listId={list._id} />
      <Flex gap="2" wrap="wrap">
        {list.mode === "lottery" && list.drawnAt === null ? (
          <Button
            loading={busy === "draw"}
            onClick={() => void run("draw", () => draw({ listId: list._id }), "The lottery was drawn")}
          >
            Draw the lottery now
          </Button>
        ) : null}
        <Button
          variant="soft"
          color="red"
          loading={busy === "close"}
          onClick={() => void run("close", () => close({ listId: list._id }), "The list is closed")}
        >
          Close the list
        </Button>
      </Flex>
    </Flex>
  );
}

function MyPlace({ list }: { list: ListView }) {
  const { isAuthenticated } = useConvexAuth();
  const signUp = useMutation(api.nightLists.signUp);
  const dropOut = useMutation(api.nightLists.dropOut);
  const { busy, run } = useListAction();
  const now = useNow(15_000);
  if (!isAuthenticated) {
    return (
      <Text size="2">
        <Link asChild>
          <RouterLink to={paths.auth}>Sign in</RouterLink>
        </Link>{" "}
        to put your name on the list.
      </Text>
    );
  }
  const spot = mySpot(list);
  if (spot !== null) {
    return (
      <Flex gap="3" align="center" wrap="wrap">
        <Text size="5" weight="bold" role="status" aria-live="polite">
          {placeText(list, spot)}
        </Text>
        {spot.state === "waiting" && list.status === "open" ? (
          <Button
            variant="soft"
            color="red"
            loading={busy === "drop"}
            onClick={() => void run("drop", () => dropOut({ listId: list._id }), "You dropped out")}
          >
            Drop out
          </Button>
        ) : null}
      </Flex>
    );
  }
  if (list.status !== "open") return null;
  if (now < list.signupOpensAt) {
    return <Text size="2">Online sign-up opens at {clockText(list.signupOpensAt, list.timeZone)}.</Text>;
  }
  return (
    <Box>
      <Button
        size="3"
        loading={busy === "sign-up"}
        onClick={() => void run("sign-up", () => signUp({ listId: list._id }))}
      >
        Sign up for tonight
      </Button>
    </Box>
  );
}

function ListBody({ list, host }: { list: ListView; host: boolean }) {
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
          {list.mode === "first_come"
            ? "First come, first served"
            : list.drawnAt !== null
              ? `Lottery drawn at ${clockText(list.drawnAt, list.timeZone)}`
              : `Lottery drawn at ${list.drawAt !== null ? clockText(list.drawAt, list.timeZone) : "the host's call"}${list.bucket ? " (bucket)" : ""}`}
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
      <MyPlace list={list} />
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
                  <Badge variant={s.isMine ? "solid" : "soft"} size="2">
                    {s.name}
                  </Badge>
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
export function LiveListSection({
  micId,
  timeZone,
  defaultSetMinutes,
  listTimeLocal,
}: {
  micId: Id<"sceneItems">;
  timeZone: string;
  defaultSetMinutes: number | undefined;
  listTimeLocal: string | undefined;
}) {
  const data = useLiveList(micId, timeZone);
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
            <ListBody list={list} host={canHost} />
          ) : canHost ? (
            <OpenListForm
              micId={micId}
              timeZone={timeZone}
              defaultSetMinutes={defaultSetMinutes}
              listTimeLocal={listTimeLocal}
            />
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
