import { describe, expect, test } from "vitest";
import type { Id } from "@convex/_generated/dataModel";
import { checkInState } from "./checkInState";
import { formatOccurrence, nextOccurrenceNote } from "../actions/scheduleToast";

const itemId = "item1" as Id<"sceneItems">;
const otherId = "item2" as Id<"sceneItems">;
// A Saturday 6 pm mic in New York; 2026-11-21 is a Saturday (EST, UTC-5).
const item = { _id: itemId, dayOfWeek: 6, startTimeLocal: "18:00", timeZone: "America/New_York" };
const ny = (hh: number, mm = 0) => Date.UTC(2026, 10, 21, hh + 5, mm);
const checkIn = (sceneItemId: Id<"sceneItems">, localDate: string) => ({ sceneItemId, localDate, checkedInAt: 0 });

describe("checkInState", () => {
  test.each([
    ["open, signed out", null, ny(17, 45), "Check-in Available", false],
    ["open, viewer loading", undefined, ny(17, 45), "Check-in Available", false],
    ["open, no check-ins", { recentCheckIns: [] }, ny(17, 45), "Check-in Available", false],
    [
      "checked in for this occurrence",
      { recentCheckIns: [checkIn(itemId, "2026-11-21")] },
      ny(17, 45),
      "Already checked in",
      true,
    ],
    [
      "checked in last week does not count",
      { recentCheckIns: [checkIn(itemId, "2026-11-14")] },
      ny(17, 45),
      "Check-in Available",
      false,
    ],
    [
      "another mic's check-in does not count",
      { recentCheckIns: [checkIn(otherId, "2026-11-21")] },
      ny(17, 45),
      "Check-in Available",
      false,
    ],
    ["before the window", { recentCheckIns: [] }, ny(10, 0), "Check-in opens in 7h 30m", false],
    [
      "after checking in, still done once the window closed",
      { recentCheckIns: [checkIn(itemId, "2026-11-21")] },
      ny(21, 0),
      "Already checked in",
      true,
    ],
  ])("%s", (_name, viewer, now, label, already) => {
    const state = checkInState(item, viewer, now);
    expect(state.label).toBe(label);
    expect(state.alreadyCheckedIn).toBe(already);
  });

  test("a day the mic does not run is closed", () => {
    const state = checkInState(item, { recentCheckIns: [] }, Date.UTC(2026, 10, 19, 17));
    expect(state.label).toBe("Check-in window closed");
  });
});

describe("next occurrence note", () => {
  const now = ny(12); // Saturday; the week runs Mon Nov 16 to Sun Nov 22
  test("formats in the venue's time zone", () => {
    expect(formatOccurrence(Date.UTC(2026, 10, 26, 1, 0), "America/New_York")).toBe("Wed, Nov 25 at 8:00 PM");
    expect(formatOccurrence(Date.UTC(2026, 10, 26, 1, 0), "America/Los_Angeles")).toBe("Wed, Nov 25 at 5:00 PM");
  });

  test("this week: the date, no jump", () => {
    const sunday = Date.UTC(2026, 10, 23, 1, 0); // Sun Nov 22, 8 pm New York
    expect(nextOccurrenceNote(sunday, now, "America/New_York", "America/New_York")).toEqual({
      description: "Next: Sun, Nov 22 at 8:00 PM",
      jumpToWeek: null,
    });
  });

  test("a later week: the date and the week to jump to", () => {
    const wednesday = Date.UTC(2026, 10, 26, 1, 0); // Wed Nov 25, 8 pm New York
    expect(nextOccurrenceNote(wednesday, now, "America/New_York", "America/New_York")).toEqual({
      description: "Next: Wed, Nov 25 at 8:00 PM",
      jumpToWeek: "2026-11-25",
    });
  });
});
