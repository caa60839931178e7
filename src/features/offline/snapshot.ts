import type { FunctionReturnType } from "convex/server";
import type { api } from "@convex/_generated/api";
import { occurrencesInRange } from "@convex/lib/recurrence";
import { addDaysToDate, localDateString, startOfLocalDay } from "@convex/lib/time";
import { nightStatus } from "@convex/lib/tonight";
import { SNAPSHOT_CAPS, type OfflineList, type OfflineMic, type Snapshot } from "@/lib/offline/store";

type Week = FunctionReturnType<typeof api.schedule.week>;
type Sets = FunctionReturnType<typeof api.history.list>["page"];
type Spots = FunctionReturnType<typeof api.nightLists.myRecent>;
type Spot = Spots[number];
type Favorites = FunctionReturnType<typeof api.favorites.list>;
type ListView = NonNullable<FunctionReturnType<typeof api.nightLists.current>["list"]>;
type Tonight = Snapshot["tonight"][number];

/** At most this many live lists are watched for the offline copy (a comedian's busy night). */
export const WATCHED_LISTS = 6;

/** How a spot on a live list reads to its comedian. */
export function placeLabel(spot: Pick<Spot, "section" | "state" | "onDeck">): string {
  if (spot.state === "up") return "Up now";
  if (spot.onDeck) return "On deck";
  if (spot.section === "list") return "On the list";
  if (spot.section === "waitlist") return "On the waitlist";
  return "In the lottery pool";
}

/** "You're #4 on tonight's list at The Pit Mic" (the place when the list view has it). */
export function placeSentence(
  spot: Pick<Spot, "section" | "state" | "onDeck" | "micTitle"> & { place: number | null },
): string {
  const at = `at ${spot.micTitle}`;
  if (spot.state === "up") return `You're up now ${at}`;
  if (spot.onDeck) return `You're on deck ${at}`;
  const place = spot.place === null ? "" : `#${spot.place} `;
  if (spot.section === "list") return `You're ${place}on tonight's list ${at}`;
  if (spot.section === "waitlist") return `You're ${place}on the waitlist ${at}`;
  if (spot.section === "pool") return `You're in the lottery pool ${at}`;
  return `You're on tonight's list ${at}`;
}

type Input = {
  userId: string;
  nowMs: number;
  timeZone: string;
  week: Week;
  sets: Sets;
  spots: Spots;
  favorites: Favorites;
  /** The live lists of {@link listsToWatch}, as nightLists.current answered (null: none). */
  lists: ListView[];
};

/**
 * Tonight's spots of this comedian on lists still open. A list's date is its mic's, which
 * may be a day either side of the viewer's (another zone, or a night running past midnight).
 */
function spotsTonight(spots: Spots, today: string): Spots {
  const near = new Set([addDaysToDate(today, -1), today, addDaysToDate(today, 1)]);
  return spots.filter((spot) => near.has(spot.date) && spot.listStatus === "open" && spot.state !== "done");
}

/** Tonight's mics they scheduled or follow (scheduled wins), in start order, without their lists. */
function tonightMics(input: Omit<Input, "lists" | "sets" | "userId" | "spots">): Tonight[] {
  const today = localDateString(input.nowMs, input.timeZone);
  const scheduled: Tonight[] = input.week.items
    .flatMap((item) => (item.kind === "scheduled" ? [item] : []))
    .filter((item) => localDateString(item.startsAt, input.timeZone) === today)
    .map((item) => ({
      sceneItemId: item.sceneItemId,
      title: item.title,
      venueName: item.venueName,
      startsAt: item.startsAt,
      status: item.nightStatus ?? null,
      following: "scheduled",
    }));
  const taken = new Set(scheduled.map((mic) => mic.sceneItemId));
  const dayStart = startOfLocalDay(today, input.timeZone);
  const dayEnd = startOfLocalDay(addDaysToDate(today, 1), input.timeZone) - 1;
  const favourites: Tonight[] = input.favorites
    .filter((item) => !taken.has(item._id))
    .flatMap((item) =>
      occurrencesInRange(item, dayStart, dayEnd).map((startsAt) => ({
        sceneItemId: item._id,
        title: item.title,
        venueName: item.venueName,
        startsAt,
        status: nightStatus(item, localDateString(startsAt, item.timeZone)),
        following: "favourite" as const,
      })),
    );
  return [...scheduled, ...favourites].sort((a, b) => a.startsAt - b.startsAt);
}

/** The mics whose live list the offline copy keeps: where they are signed up tonight first, then tonight's mics. */
export function listsToWatch(input: Omit<Input, "lists" | "sets" | "userId">): string[] {
  const today = localDateString(input.nowMs, input.timeZone);
  const ids = [
    ...spotsTonight(input.spots, today).map((spot) => spot.micId as string),
    ...tonightMics(input).map((mic) => mic.sceneItemId),
  ];
  return [...new Set(ids)].slice(0, WATCHED_LISTS);
}

/** Tonight's list of a mic (its newest list, when it is tonight's in the mic's own zone). */
function offlineList(view: ListView, nowMs: number, mine: ReadonlySet<string>): OfflineList | null {
  if (view.date !== localDateString(nowMs, view.timeZone)) return null;
  const rows = [...view.list, ...view.waitlist, ...view.pool].slice(0, SNAPSHOT_CAPS.listRows);
  return {
    status: view.status,
    spots: view.spots,
    taken: view.taken,
    rows: rows.map((row) => ({
      name: row.name,
      place: row.place,
      section: row.section,
      state: row.state,
      mine: mine.has(row._id),
    })),
  };
}

/** The offline copy of what the comedian needs tonight, from the queries the app already runs. */
export function buildSnapshot(input: Input): Snapshot {
  const today = localDateString(input.nowMs, input.timeZone);
  const mySpots = new Set<string>(input.spots.map((spot) => spot.spotId));
  const listsByMic = new Map(input.lists.map((view) => [view.micId as string, view]));
  const listsById = new Map(input.lists.map((view) => [view._id as string, view]));
  const mics = new Map<string, OfflineMic>();
  for (const item of input.week.items) {
    if (item.kind === "scheduled") {
      mics.set(item.sceneItemId, {
        sceneItemId: item.sceneItemId,
        title: item.title,
        venueName: item.venueName,
        city: item.city,
      });
    }
  }
  for (const item of input.favorites) {
    mics.set(item._id, { sceneItemId: item._id, title: item.title, venueName: item.venueName, city: item.city });
  }
  return {
    userId: input.userId,
    savedAt: input.nowMs,
    tonight: tonightMics(input).map((mic) => {
      const view = listsByMic.get(mic.sceneItemId);
      return { ...mic, list: view ? offlineList(view, input.nowMs, mySpots) : null };
    }),
    myPlace: spotsTonight(input.spots, today).map((spot) => {
      // The list view places a pending sign-up too; its row says where.
      const view = listsById.get(spot.listId);
      const row = view ? [...view.list, ...view.waitlist, ...view.pool].find((r) => r._id === spot.spotId) : undefined;
      const placed = row ? { ...spot, section: row.section, state: row.state, onDeck: row.onDeck } : spot;
      return {
        micTitle: spot.micTitle,
        label: placeLabel(placed),
        sentence: placeSentence({ ...placed, place: row?.place ?? null }),
      };
    }),
    week: input.week.items
      .flatMap((item) => (item.kind === "scheduled" || item.kind === "session" ? [item] : []))
      .map((item) =>
        item.kind === "scheduled"
          ? {
              key: item.entryId + item.startsAt,
              title: item.title,
              venueName: item.venueName,
              startsAt: item.startsAt,
              detail: item.nightStatus === "cancelled" ? "Cancelled" : "Scheduled",
            }
          : {
              key: item.performanceId,
              title: item.title,
              venueName: item.venueName ?? "",
              startsAt: item.startsAt,
              detail: `${item.minutes} min set`,
            },
      )
      .sort((a, b) => a.startsAt - b.startsAt),
    lastSets: input.sets.map((set) => ({
      key: set._id,
      venueName: set.venueName,
      performedAt: set.performedAt,
      minutes: set.minutes,
    })),
    mics: [...mics.values()].sort((a, b) => a.title.localeCompare(b.title)),
  };
}
