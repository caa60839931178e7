import { ArrowDownIcon, ArrowUpIcon, Cross2Icon, DragHandleDots2Icon, PlusIcon } from "@radix-ui/react-icons";
import {
  Badge,
  Box,
  Button,
  Card,
  Flex,
  Heading,
  IconButton,
  Link,
  Select,
  Text,
  TextField,
  VisuallyHidden,
} from "@radix-ui/themes";
import { useMutation, useQuery } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import { format } from "date-fns";
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from "react";
import { Link as RouterLink, useNavigate } from "@/lib/router";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { formatBitLength, isNightDate, MAX_SET_LIST_BITS, MAX_SET_LIST_TITLE_LENGTH } from "@convex/lib/bitRules";
import { ConfirmDialog } from "@/components/ConfirmDialog";
import { DialogShell } from "@/components/DialogShell";
import { EmptyState } from "@/components/EmptyState";
import { ErrorBoundary } from "@/components/ErrorBoundary";
import { FormActions } from "@/components/FormActions";
import { Form, FormSubmit, FormTextField } from "@/components/form";
import { LoadingState } from "@/components/LoadingState";
import { errorMessage } from "@/lib/convexErrors";
import { paths } from "@/lib/paths";
import { toast } from "@/lib/toast";
import { landedText } from "./BitNumbers";
import { setListTitleSchema } from "./SetListsPage";

type SetListView = NonNullable<FunctionReturnType<typeof api.setLists.get>>;

const listStyle = { listStyle: "none", margin: 0, padding: 0 } as const;

/** `ids` with the item at `from` moved to `to`. */
export function moved<T>(ids: readonly T[], from: number, to: number): T[] {
  const next = [...ids];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}

/**
 * Saves a new running order made from the list as shown; `busy` while a save
 * is on its way, so a second quick tap waits for the order it builds on.
 */
function useSaveOrder(list: SetListView) {
  const update = useMutation(api.setLists.update);
  const [busy, setBusy] = useState(false);
  const save = async (bitIds: Id<"bits">[]) => {
    setBusy(true);
    try {
      await update({ id: list._id, title: list.title, bitIds });
    } catch (err) {
      toast.error(errorMessage(err, "Could not save the set list. Please try again."));
    } finally {
      setBusy(false);
    }
  };
  return { save, busy };
}

function TotalLine({ list }: { list: SetListView }) {
  const spot = list.night?.spotMinutes ?? null;
  const over = spot !== null && list.totalSeconds > spot * 60;
  return (
    <Card size="2" role="group" aria-label="Estimated length">
      <Flex justify="between" align="center" gap="2" wrap="wrap">
        <Text size="5" weight="bold">
          {formatBitLength(list.totalSeconds)}
          {spot !== null ? ` of ${spot}:00` : ""}
        </Text>
        {spot === null ? (
          <Text size="2" color="gray">
            Attach the set list to a night to compare with its spot
          </Text>
        ) : over ? (
          <Badge color="red" size="2" highContrast>
            Over the spot by {formatBitLength(list.totalSeconds - spot * 60)}
          </Badge>
        ) : (
          <Badge color="green" size="2" highContrast>
            Fits the {spot}-minute spot
          </Badge>
        )}
      </Flex>
    </Card>
  );
}

/** How long a finger rests on a handle before the bit lifts (a quick swipe still scrolls the page). */
const PRESS_DELAY_MS = 200;
/** A finger that wanders this far during the press was scrolling, not dragging. */
const PRESS_SLOP_PX = 10;

type Drag = { from: number; over: number; dy: number; by: "pointer" | "keyboard" };

/**
 * Dragging with a finger, a mouse or the keyboard: press and hold a handle
 * (or Space on it), move, let go (or Space again); Escape puts it back.
 */
function useReorder(count: number, onMove: (from: number, to: number) => void) {
  const [drag, setDragState] = useState<Drag | null>(null);
  // Events can come faster than renders: the handlers read the latest drag from here.
  const latest = useRef<Drag | null>(null);
  const setDrag = (d: Drag | null) => {
    latest.current = d;
    setDragState(d);
  };
  const items = useRef<Array<HTMLLIElement | null>>([]);
  const press = useRef<{ timer: number; x: number; y: number; startY: number; index: number } | null>(null);
  const endPress = () => {
    if (press.current) window.clearTimeout(press.current.timer);
    press.current = null;
  };
  useEffect(() => endPress, []);
  /** The slot under a point: the first item whose middle is below it. */
  const slotAt = (y: number) => {
    const mids = items.current.slice(0, count).map((el) => {
      const r = el?.getBoundingClientRect();
      return r ? r.top + r.height / 2 : Number.POSITIVE_INFINITY;
    });
    const below = mids.findIndex((m) => y < m);
    return below === -1 ? count - 1 : below;
  };
  const finish = (d: Drag | null) => {
    setDrag(null);
    if (d !== null && d.over !== d.from) onMove(d.from, d.over);
  };
  const handleProps = (index: number) => ({
    onPointerDown: (e: PointerEvent<HTMLButtonElement>) => {
      if (e.button !== 0) return;
      e.currentTarget.setPointerCapture(e.pointerId);
      const delay = e.pointerType === "mouse" ? 0 : PRESS_DELAY_MS;
      const { clientX: x, clientY: y } = e;
      endPress();
      press.current = {
        x,
        y,
        startY: y,
        index,
        timer: window.setTimeout(() => setDrag({ from: index, over: index, dy: 0, by: "pointer" }), delay),
      };
    },
    onPointerMove: (e: PointerEvent<HTMLButtonElement>) => {
      const p = press.current;
      const drag = latest.current;
      if (p === null) return;
      if (drag === null || drag.by !== "pointer") {
        if (Math.hypot(e.clientX - p.x, e.clientY - p.y) > PRESS_SLOP_PX) endPress();
        return;
      }
      setDrag({ ...drag, over: slotAt(e.clientY), dy: e.clientY - p.startY });
    },
    onPointerUp: () => {
      endPress();
      const drag = latest.current;
      if (drag?.by === "pointer") finish(drag);
    },
    onPointerCancel: () => {
      endPress();
      if (latest.current?.by === "pointer") setDrag(null);
    },
    onKeyDown: (e: KeyboardEvent<HTMLButtonElement>) => {
      const drag = latest.current;
      if (e.key === " " || e.key === "Enter") {
        e.preventDefault();
        if (drag === null) setDrag({ from: index, over: index, dy: 0, by: "keyboard" });
        else finish(drag);
      } else if (drag !== null && (e.key === "ArrowUp" || e.key === "ArrowDown")) {
        e.preventDefault();
        const over = Math.max(0, Math.min(count - 1, drag.over + (e.key === "ArrowUp" ? -1 : 1)));
        setDrag({ ...drag, over });
      } else if (drag !== null && e.key === "Escape") {
        e.preventDefault();
        setDrag(null);
      }
    },
    onBlur: () => {
      if (latest.current?.by === "keyboard") setDrag(null);
    },
  });
  const itemRef = (index: number) => (el: HTMLLIElement | null) => {
    items.current[index] = el;
  };
  return { drag, handleProps, itemRef };
}

function RunningOrder({ list }: { list: SetListView }) {
  const { save, busy } = useSaveOrder(list);
  const ids = list.bits.map((b) => b._id);
  const { drag, handleProps, itemRef } = useReorder(list.bits.length, (from, to) => {
    if (!busy) void save(moved(ids, from, to));
  });
  if (list.bits.length === 0) {
    return <EmptyState title="No bits in this set yet" description="Tap a bit below to add it." headingAs="h3" />;
  }
  const dragged = drag === null ? null : list.bits[drag.from];
  return (
    <Flex direction="column" gap="2">
      <Text size="1" color="gray" id="reorder-help">
        Hold a handle and drag to reorder, or focus it and press Space, the arrow keys, then Space.
      </Text>
      <Flex direction="column" gap="2" asChild>
        <ol style={listStyle} aria-label="Running order">
          {list.bits.map((bit, i) => {
            const lifted = drag !== null && drag.from === i;
            const target = drag !== null && drag.over === i && drag.from !== i;
            return (
              <li
                key={bit._id}
                ref={itemRef(i)}
                aria-label={`${i + 1}. ${bit.title}`}
                data-dragging={lifted ? "true" : undefined}
                style={{
                  position: "relative",
                  zIndex: lifted ? 1 : undefined,
                  transform: lifted && drag.by === "pointer" ? `translateY(${drag.dy}px)` : undefined,
                }}
              >
                <Card
                  size="1"
                  style={{
                    outline: lifted || target ? "2px solid var(--accent-9)" : undefined,
                    boxShadow: lifted ? "var(--shadow-4)" : undefined,
                  }}
                >
                  <Flex align="center" gap="2">
                    <IconButton
                      size="3"
                      variant="ghost"
                      color="gray"
                      aria-label={`Drag ${bit.title}`}
                      aria-describedby="reorder-help"
                      aria-pressed={lifted}
                      disabled={busy}
                      style={{ touchAction: "none", cursor: lifted ? "grabbing" : "grab", flexShrink: 0 }}
                      {...handleProps(i)}
                    >
                      <DragHandleDots2Icon aria-hidden="true" />
                    </IconButton>
                    <Text color="gray" size="2" style={{ minWidth: 20 }}>
                      {i + 1}
                    </Text>
                    <Box flexGrow="1" minWidth="0">
                      <Text as="p" weight="bold" style={{ overflowWrap: "anywhere" }}>
                        {bit.title}
                      </Text>
                      <Text as="p" size="1" color="gray">
                        {[bit.seconds !== null ? formatBitLength(bit.seconds) : null, landedText(bit.landedRate)]
                          .filter(Boolean)
                          .join(" · ") || "No length yet"}
                      </Text>
                    </Box>
                    <Flex gap="1" flexShrink="0">
                      <IconButton
                        size="2"
                        variant="soft"
                        aria-label={`Move ${bit.title} up`}
                        disabled={busy || i === 0}
                        onClick={() => void save(moved(ids, i, i - 1))}
                      >
                        <ArrowUpIcon />
                      </IconButton>
                      <IconButton
                        size="2"
                        variant="soft"
                        aria-label={`Move ${bit.title} down`}
                        disabled={busy || i === list.bits.length - 1}
                        onClick={() => void save(moved(ids, i, i + 1))}
                      >
                        <ArrowDownIcon />
                      </IconButton>
                      <IconButton
                        size="2"
                        variant="soft"
                        color="gray"
                        aria-label={`Remove ${bit.title} from the set`}
                        disabled={busy}
                        onClick={() => void save(ids.filter((id) => id !== bit._id))}
                      >
                        <Cross2Icon />
                      </IconButton>
                    </Flex>
                  </Flex>
                </Card>
              </li>
            );
          })}
        </ol>
      </Flex>
      <VisuallyHidden role="status" aria-live="polite">
        {dragged && drag
          ? `${dragged.title}: position ${drag.over + 1} of ${list.bits.length}. ${drag.by === "keyboard" ? "Press Space to drop, Escape to cancel." : ""}`
          : ""}
      </VisuallyHidden>
    </Flex>
  );
}

function AddBits({ list }: { list: SetListView }) {
  const { save, busy } = useSaveOrder(list);
  const [search, setSearch] = useState("");
  const term = search.trim();
  const page = useQuery(api.bits.list, {
    paginationOpts: { numItems: 50, cursor: null },
    archived: false,
    ...(term !== "" ? { search: term } : {}),
  });
  const notDone = useQuery(api.ratings.notDoneAt, list.night ? { micId: list.night.micId } : "skip");
  const inSet = new Set(list.bits.map((b) => b._id));
  const notDoneHere = new Set((notDone ?? []).map((b) => b._id));
  const full = list.bits.length >= MAX_SET_LIST_BITS;
  const candidates = (page?.page ?? []).filter((b) => !inSet.has(b._id) && b.status !== "retired");
  return (
    <Flex direction="column" gap="2">
      <Heading as="h2" size="4">
        Add bits
      </Heading>
      <TextField.Root
        type="search"
        aria-label="Search your bits to add"
        placeholder="Search your bits"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
      />
      {page === undefined ? (
        <LoadingState variant="skeleton" label="Loading your bits" rows={2} />
      ) : candidates.length === 0 ? (
        <Text size="2" color="gray">
          {term !== ""
            ? "No bits match."
            : page.page.length === 0
              ? "Your library has no bits yet. "
              : "Every bit you can add is in this set. "}
          {term === "" ? (
            <Link asChild>
              <RouterLink to={paths.bits}>Add bits on the Bits page</RouterLink>
            </Link>
          ) : null}
        </Text>
      ) : (
        <Flex direction="column" gap="1" asChild>
          <ul style={listStyle} aria-label="Bits to add">
            {candidates.map((b) => (
              <li key={b._id}>
                <Button
                  variant="surface"
                  size="3"
                  disabled={full || busy}
                  style={{ width: "100%", justifyContent: "space-between", height: "auto", minHeight: 44 }}
                  aria-label={`Add ${b.title}`}
                  onClick={() => void save([...list.bits.map((x) => x._id), b._id])}
                >
                  <Flex align="center" gap="2" minWidth="0">
                    <PlusIcon aria-hidden="true" />
                    <Text style={{ overflowWrap: "anywhere", textAlign: "start" }}>{b.title}</Text>
                  </Flex>
                  <Flex gap="1" align="center">
                    {notDoneHere.has(b._id) ? (
                      <Badge color="blue" variant="soft" highContrast>
                        New here
                      </Badge>
                    ) : null}
                    {b.seconds !== null ? <Text size="1">{formatBitLength(b.seconds)}</Text> : null}
                  </Flex>
                </Button>
              </li>
            ))}
          </ul>
        </Flex>
      )}
    </Flex>
  );
}

type NightChoice = { key: string; label: string; micId: Id<"sceneItems">; date: string | null };

function AttachDialog({ list }: { list: SetListView }) {
  const [open, setOpen] = useState(false);
  const attach = useMutation(api.setLists.attach);
  const spots = useQuery(api.nightLists.myRecent, open ? {} : "skip");
  const fromMs = useMemo(() => Math.floor(Date.now() / 3_600_000) * 3_600_000, []);
  const scheduled = useQuery(api.schedule.calendar, open ? { fromMs } : "skip");
  const [choice, setChoice] = useState<string>("");
  const [date, setDate] = useState(format(new Date(), "yyyy-MM-dd"));
  const [busy, setBusy] = useState(false);
  const choices: NightChoice[] = [
    ...(spots ?? [])
      .filter((s) => s.listStatus === "open")
      .map((s) => ({
        key: `spot:${s.spotId}`,
        label: `Your spot at ${s.micTitle} (${s.date})`,
        micId: s.micId,
        date: s.date,
      })),
    ...(scheduled ?? []).map((m) => ({
      key: `mic:${m.sceneItemId}`,
      label: `${m.title} (${m.venueName})`,
      micId: m.sceneItemId,
      date: null,
    })),
  ];
  const picked = choices.find((c) => c.key === choice);
  const submit = async () => {
    if (!picked) return;
    const night = { micId: picked.micId, date: picked.date ?? date };
    if (!isNightDate(night.date)) {
      toast.error("Please choose a valid date");
      return;
    }
    setBusy(true);
    try {
      await attach({ id: list._id, night });
      toast.success("Set list attached");
      setOpen(false);
    } catch (err) {
      toast.error(errorMessage(err, "Could not attach the set list. Please try again."));
    } finally {
      setBusy(false);
    }
  };
  return (
    <DialogShell
      trigger={<Button variant="soft">{list.night ? "Change night" : "Attach to a night"}</Button>}
      title="Attach to a night"
      description="After a set there (logged by you or by the host), you'll be asked how each bit went."
      maxWidth="480px"
      open={open}
      onOpenChange={setOpen}
    >
      <Flex direction="column" gap="3">
        {spots === undefined || scheduled === undefined ? (
          <LoadingState variant="skeleton" label="Loading your nights" rows={2} />
        ) : choices.length === 0 ? (
          <Text size="2" color="gray">
            Sign up on a live list or add a mic to your schedule first.
          </Text>
        ) : (
          <Flex direction="column" gap="1">
            <Text as="label" size="2" weight="medium" htmlFor="attach-night">
              Night
            </Text>
            <Select.Root value={choice} onValueChange={setChoice}>
              <Select.Trigger id="attach-night" aria-label="Night" placeholder="Choose a list spot or a mic" />
              <Select.Content position="popper">
                {choices.map((c) => (
                  <Select.Item key={c.key} value={c.key}>
                    {c.label}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select.Root>
          </Flex>
        )}
        {picked && picked.date === null ? (
          <Flex direction="column" gap="1">
            <Text as="label" size="2" weight="medium" htmlFor="attach-date">
              Date
            </Text>
            <TextField.Root id="attach-date" type="date" value={date} onChange={(e) => setDate(e.target.value)} />
          </Flex>
        ) : null}
        <FormActions cancel="dialog">
          {list.night ? (
            <Button
              variant="soft"
              color="red"
              disabled={busy}
              onClick={() => {
                setBusy(true);
                attach({ id: list._id, night: null })
                  .then(() => setOpen(false))
                  .catch((err: unknown) => toast.error(errorMessage(err, "Could not detach. Please try again.")))
                  .finally(() => setBusy(false));
              }}
            >
              Detach
            </Button>
          ) : null}
          <Button loading={busy} disabled={!picked} onClick={() => void submit()}>
            Attach
          </Button>
        </FormActions>
      </Flex>
    </DialogShell>
  );
}

function RenameDialog({ list }: { list: SetListView }) {
  const [open, setOpen] = useState(false);
  const update = useMutation(api.setLists.update);
  return (
    <DialogShell
      trigger={<Button variant="soft">Rename</Button>}
      title="Rename set list"
      description="A name for the night or the kind of set."
      maxWidth="440px"
      open={open}
      onOpenChange={setOpen}
    >
      <Form
        schema={setListTitleSchema}
        defaultValues={{ title: list.title }}
        aria-label="Rename set list"
        onSubmit={async ({ title }) => {
          try {
            await update({ id: list._id, title, bitIds: list.bits.map((b) => b._id) });
            setOpen(false);
          } catch (err) {
            toast.error(errorMessage(err, "Could not rename the set list. Please try again."));
          }
        }}
      >
        <FormTextField name="title" label="Name" required maxLength={MAX_SET_LIST_TITLE_LENGTH} />
        <FormActions cancel="dialog" mt="2">
          <FormSubmit>Save</FormSubmit>
        </FormActions>
      </Form>
    </DialogShell>
  );
}

function Actions({ list }: { list: SetListView }) {
  const duplicate = useMutation(api.setLists.duplicate);
  const remove = useMutation(api.setLists.remove);
  const navigate = useNavigate();
  return (
    <Flex gap="2" wrap="wrap">
      <Button asChild>
        <RouterLink to={paths.setListStage(list._id)}>Stage view</RouterLink>
      </Button>
      <AttachDialog list={list} />
      <RenameDialog list={list} />
      <Button
        variant="soft"
        onClick={() => {
          duplicate({ id: list._id })
            .then((id) => {
              toast.success("Set list duplicated");
              navigate(paths.setList(id));
            })
            .catch((err: unknown) => toast.error(errorMessage(err, "Could not duplicate. Please try again.")));
        }}
      >
        Duplicate
      </Button>
      <ConfirmDialog
        trigger={
          <Button variant="soft" color="red">
            Delete
          </Button>
        }
        title="Delete this set list?"
        description="Its bits stay in your library."
        confirmLabel="Delete"
        onConfirm={async () => {
          try {
            await remove({ id: list._id });
            navigate(paths.setLists);
            return true;
          } catch (err) {
            toast.error(errorMessage(err, "Could not delete the set list. Please try again."));
            return false;
          }
        }}
      />
    </Flex>
  );
}

function Builder({ id }: { id: Id<"setLists"> }) {
  const list = useQuery(api.setLists.get, { id });
  if (list === undefined) return <LoadingState label="Loading the set list…" />;
  if (list === null) return <EmptyState title="Set list not found" />;
  return (
    <Flex direction="column" gap="4">
      <Link asChild size="2">
        <RouterLink to={paths.setLists}>All set lists</RouterLink>
      </Link>
      <Flex direction="column" gap="1">
        <Heading as="h1" size="7" style={{ overflowWrap: "anywhere" }}>
          {list.title}
        </Heading>
        <Text size="2" color="gray">
          {list.night
            ? `For ${list.night.micTitle} on ${list.night.date}${list.night.hasList ? " (live list)" : ""}`
            : "Not attached to a night"}
        </Text>
      </Flex>
      <Actions list={list} />
      <TotalLine list={list} />
      <RunningOrder list={list} />
      <AddBits list={list} />
    </Flex>
  );
}

/** /set-lists/:id: build the set: tap to add, reorder (buttons or drag), total against the spot, attach, duplicate. */
export function SetListPage({ id }: { id: string | undefined }) {
  if (id === undefined) return <EmptyState title="Set list not found" />;
  return (
    <ErrorBoundary fallback={<EmptyState title="Set list not found" />}>
      <Builder id={id as Id<"setLists">} />
    </ErrorBoundary>
  );
}
