import { describe, expect, test } from "vitest";
import { buildSnapshot, placeLabel } from "./snapshot";

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

const spot = (over: Partial<Parameters<typeof placeLabel>[0]> & { date: string; listStatus?: "open" | "closed" }) => ({
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
      spots: [
        spot({ date: "2026-11-20", onDeck: true }),
        spot({ date: "2026-11-19" }),
        spot({ date: "2026-11-20", listStatus: "closed" }),
      ],
    });
    expect(snapshot.tonight.map((m) => [m.title, m.status])).toEqual([
      ["Mic early", null],
      ["Mic late", "confirmed"],
    ]);
    expect(snapshot.myPlace).toEqual([{ micTitle: "List 2026-11-20", label: "On deck" }]);
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
