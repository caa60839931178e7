import { Button, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { useMutation } from "convex/react";
import { useState, type DragEvent } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import type { ListView, SpotView } from "./listText";
import { RenameWalkInButton } from "./RenameWalkIn";
import { SpotBadges } from "./SpotBadges";
import { useListAction } from "./useListAction";

/** The host's "Remove" for any name not yet on stage (a walk-in, a pool entry, a spam account). */
export function RemoveSpotButton({ list, spot }: { list: ListView; spot: SpotView }) {
  const remove = useMutation(api.nightLists.remove);
  const { busy, run } = useListAction();
  if (spot.state === "up" || spot.state === "done") return null;
  return (
    <Button
      size="1"
      variant="ghost"
      color="red"
      loading={busy === "remove"}
      aria-label={`Remove ${spot.name} from the list`}
      onClick={() =>
        void run(
          "remove",
          () => remove({ listId: list._id, spotId: spot._id, version: list.version }),
          `${spot.name} is off the list`,
        )
      }
    >
      Remove
    </Button>
  );
}

/** One section of the list (the running order or the waitlist), with the host's controls for each spot. */
export function SectionList({
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
                      <RenameWalkInButton list={list} spot={spot} />
                      <RemoveSpotButton list={list} spot={spot} />
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
