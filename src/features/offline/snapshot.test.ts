import { describe, expect, test } from "vitest";
import { buildSnapshot, listsToWatch, placeLabel, placeSentence } from "./snapshot";

const TZ = "America/New_York";
// 2026-11-20 18:00 in New York.
const NOW = Date.UTC(2026, 10, 20, 23, 0);
const HOUR = 3600_000;

const scheduled = (id: string, startsAt: number, nightStatus?: "cancelled" | "confirmed") => ({
  kind: "scheduled" as const,
  entryId: `entry-${id}` as never,
  sceneItemId: `mic-${id}` as never,
  title: `Mic ${id}`,
  venueName: `Bar ${id}`,
  city: "New York",
  startsAt,
  type: "open_mic" as const,
  recurrence: "weekly" as const,
  ...(nightStatus ? { nightStatus } : {}),
});

const spot = (over: Partial<Parameters<typeof buildSnapshot>[0]["spots"][number]> & { date: string }) => ({
  spotId: "s" as never,
  listId: "l" as never,
  micId: "m" as never,
  micTitle: `List ${over.date}`,
  closedReason: null,
  name: "Casey",
  performanceId: null,
  section: "list" as const,
  state: "waiting" as const,
  onDeck: false,
  listStatus: "open" as const,
  ...over,
});

describe("buildSnapshot", () => {
  test("tonight is today's scheduled mics in start order; the week keeps mics and sets", () => {
    const snapshot = buildSnapshot({
      userId: "u1",
      nowMs: NOW,
      timeZone: TZ,
      week: {
        items: [
          scheduled("late", NOW + 3 * HOUR, "confirmed"),
          scheduled("early", NOW + HOUR),
          scheduled("tomorrow", NOW + 24 * HOUR, "cancelled"),
          {
            kind: "session",
            performanceId: "p1" as never,
            sceneItemId: null,
            title: "Basement Show",
            venueName: null,
            startsAt: NOW - 24 * HOUR,
            minutes: 7,
          },
        ],
        stats: { upcoming: 3, totalSetsLogged: 1, uniqueVenues: 0, totalMinutes: 7 },
      },
      sets: [],
      favorites: [],
      lists: [],
      spots: [
        spot({ date: "2026-11-20", onDeck: true }),
        spot({ date: "2026-11-17" }),
        spot({ date: "2026-11-20", listStatus: "closed" }),
      ],
    });
    expect(snapshot.tonight.map((m) => [m.title, m.status])).toEqual([
      ["Mic early", null],
      ["Mic late", "confirmed"],
    ]);
    expect(snapshot.myPlace).toEqual([
      { micTitle: "List 2026-11-20", label: "On deck", sentence: "You're on deck at List 2026-11-20" },
    ]);
    expect(snapshot.week.map((w) => [w.title, w.detail])).toEqual([
      ["Basement Show", "7 min set"],
      ["Mic early", "Scheduled"],
      ["Mic late", "Scheduled"],
      ["Mic tomorrow", "Cancelled"],
    ]);
  });

  test.each([
    [{ section: "list", state: "up", onDeck: false }, "Up now"],
    [{ section: "list", state: "waiting", onDeck: true }, "On deck"],
    [{ section: "list", state: "waiting", onDeck: false }, "On the list"],
    [{ section: "waitlist", state: "waiting", onDeck: false }, "On the waitlist"],
    [{ section: "pool", state: "waiting", onDeck: false }, "In the lottery pool"],
  ] as const)("placeLabel(%j) is %s", (spotState, label) => {
    expect(placeLabel(spotState)).toBe(label);
  });
});

const EMPTY_WEEK = { items: [], stats: { upcoming: 0, totalSetsLogged: 0, uniqueVenues: 0, totalMinutes: 0 } };

/** A favourite mic (as favorites.list answers) running every Friday at `startTimeLocal` in New York. */
const favourite = (id: string, startTimeLocal: string, extra: Record<string, unknown> = {}) =>
  ({
    _id: `fav-${id}`,
    _creationTime: NOW - 90 * 24 * HOUR,
    title: `Fav ${id}`,
    venueName: `Club ${id}`,
    city: "New York",
    type: "open_mic",
    recurrence: "weekly",
    dayOfWeek: 5,
    startTimeLocal,
    timeZone: TZ,
    status: "active",
    checkInCount: 0,
    verifiedCheckIns30d: 0,
    ...extra,
  }) as never;

/** Tonight's list at a mic: `names` on the list in order, then one on the waitlist. */
const listView = (micId: string, names: string[], spotIds: string[] = []) =>
  ({
    _id: `list-${micId}`,
    micId,
    micTitle: `Fav ${micId}`,
    timeZone: TZ,
    date: "2026-11-20",
    status: "open",
    spots: 10,
    taken: names.length,
    list: names.map((name, i) => ({
      _id: spotIds[i] ?? `spot-${name}`,
      name,
      section: "list",
      place: i + 1,
      state: "waiting",
      onDeck: i === 0,
    })),
    waitlist: [
      { _id: "spot-late", name: "Late Larry", section: "waitlist", place: 1, state: "waiting", onDeck: false },
    ],
    pool: [],
  }) as never;

describe("tonight for the mics they follow", () => {
  // 2026-11-20 is a Friday: the weekly Friday favourites run tonight.
  test("favourites running tonight join the scheduled ones, with tonight's list and the comedian's place", () => {
    const favorites = [
      favourite("a", "21:00", { cancelledDates: ["2026-11-20"] }),
      favourite("b", "19:30"),
      favourite("thursday", "20:00", { dayOfWeek: 4 }),
    ];
    const spots = [
      spot({ date: "2026-11-20", spotId: "me" as never, listId: "list-fav-b" as never, micTitle: "Fav b" }),
    ];
    const input = { nowMs: NOW, timeZone: TZ, week: EMPTY_WEEK, spots, favorites };
    expect(listsToWatch(input)).toEqual(["m", "fav-b", "fav-a"]);

    const snapshot = buildSnapshot({
      ...input,
      userId: "u1",
      sets: [],
      lists: [listView("fav-b", ["Ann", "Bo", "Cy", "Casey"], ["s1", "s2", "s3", "me"])],
    });
    expect(snapshot.tonight.map((m) => [m.title, m.following, m.status])).toEqual([
      ["Fav b", "favourite", null],
      ["Fav a", "favourite", "cancelled"],
    ]);
    expect(snapshot.tonight[0].list?.rows.map((r) => [r.section, r.place, r.name, r.mine])).toEqual([
      ["list", 1, "Ann", false],
      ["list", 2, "Bo", false],
      ["list", 3, "Cy", false],
      ["list", 4, "Casey", true],
      ["waitlist", 1, "Late Larry", false],
    ]);
    expect(snapshot.tonight[1].list).toBeNull();
    expect(snapshot.myPlace.map((p) => p.sentence)).toEqual(["You're #4 on tonight's list at Fav b"]);
    expect(snapshot.mics?.map((m) => m.title)).toEqual(["Fav a", "Fav b", "Fav thursday"]);
  });

  test("a list from another night is not tonight's", () => {
    const snapshot = buildSnapshot({
      userId: "u1",
      nowMs: NOW,
      timeZone: TZ,
      week: EMPTY_WEEK,
      sets: [],
      spots: [],
      favorites: [favourite("b", "19:30")],
      lists: [{ ...(listView("fav-b", ["Ann"]) as object), date: "2026-11-13" } as never],
    });
    expect(snapshot.tonight[0].list).toBeNull();
  });

  test.each([
    [{ section: "list", state: "waiting", onDeck: false, place: 4 }, "You're #4 on tonight's list at The Pit"],
    [{ section: "waitlist", state: "waiting", onDeck: false, place: 2 }, "You're #2 on the waitlist at The Pit"],
    [{ section: "list", state: "waiting", onDeck: true, place: 1 }, "You're on deck at The Pit"],
    [{ section: "list", state: "up", onDeck: false, place: 1 }, "You're up now at The Pit"],
    [{ section: "pool", state: "waiting", onDeck: false, place: 3 }, "You're in the lottery pool at The Pit"],
    [{ section: "pending", state: "waiting", onDeck: false, place: null }, "You're on tonight's list at The Pit"],
  ] as const)("placeSentence(%j) is %s", (spotState, sentence) => {
    expect(placeSentence({ ...spotState, micTitle: "The Pit" })).toBe(sentence);
  });
});
