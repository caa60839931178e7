import { describe, expect, test } from "vitest";
import type { Id } from "@convex/_generated/dataModel";
import { withoutEntry, type ScheduleWeekResult } from "./optimistic";

const entry = (s: string) => s as Id<"scheduleEntries">;
const item = (s: string) => s as Id<"sceneItems">;

const scheduled = (entryId: string, startsAt: number) => ({
  kind: "scheduled" as const,
  entryId: entry(entryId),
  sceneItemId: item(`i-${entryId}`),
  title: `Mic ${entryId}`,
  venueName: "Room",
  city: "NYC",
  startsAt,
  type: "open_mic" as const,
  recurrence: "weekly" as const,
});

const week: ScheduleWeekResult = {
  items: [
    scheduled("e1", 1),
    {
      kind: "session",
      performanceId: "p1" as Id<"performances">,
      sceneItemId: null,
      title: "Unknown Venue",
      venueName: null,
      startsAt: 2,
      minutes: 5,
    },
    scheduled("e2", 3),
    // A twice-weekly custom mic appears twice under one entry.
    scheduled("e2", 4),
  ],
  stats: { upcoming: 3, totalSetsLogged: 9, uniqueVenues: 4, totalMinutes: 60 },
};

describe("withoutEntry", () => {
  test("drops every occurrence of the entry and lowers Upcoming by as many", () => {
    const next = withoutEntry(week, "e2");
    expect(next.items.map((i) => i.startsAt)).toEqual([1, 2]);
    expect(next.stats).toEqual({ upcoming: 1, totalSetsLogged: 9, uniqueVenues: 4, totalMinutes: 60 });
  });

  test("returns the same week when the entry is not in it", () => {
    expect(withoutEntry(week, "nope")).toBe(week);
  });

  test("a session is never removed by an entry id", () => {
    expect(withoutEntry(week, "p1")).toBe(week);
  });
});
