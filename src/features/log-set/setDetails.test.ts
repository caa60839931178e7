import { describe, expect, it } from "vitest";
import { zonedEpoch } from "@convex/lib/time";
import {
  defaultSetDraft,
  FUTURE_DATE_MESSAGE,
  FUTURE_TIME_MESSAGE,
  performedAtOf,
  setDetailsSchema,
  setPayload,
} from "./setDetails";

const ZONE = "America/New_York";
const NOW = zonedEpoch("2026-11-21", "21:08", ZONE);

describe("set details", () => {
  it("defaults to 5 minutes, today and now rounded to 15 minutes", () => {
    expect(defaultSetDraft(NOW, ZONE)).toEqual({ minutes: 5, date: "2026-11-21", time: "21:15", notes: "", tags: [] });
  });

  it("starts at the mic's last show when it is known", () => {
    // Saturday 21 November 21:08; the mic last ran on Thursday at 19:30.
    const thursdayShow = zonedEpoch("2026-11-19", "19:30", ZONE);
    expect(defaultSetDraft(NOW, ZONE, thursdayShow)).toEqual({
      minutes: 5,
      date: "2026-11-19",
      time: "19:30",
      notes: "",
      tags: [],
    });
    expect(defaultSetDraft(NOW, ZONE, null)).toMatchObject({ date: "2026-11-21", time: "21:15" });
  });

  it("keeps a set just before midnight on today's date", () => {
    expect(defaultSetDraft(zonedEpoch("2026-11-21", "23:53", ZONE), ZONE)).toMatchObject({
      date: "2026-11-21",
      time: "23:45",
    });
    expect(defaultSetDraft(zonedEpoch("2026-11-21", "00:05", ZONE), ZONE)).toMatchObject({
      date: "2026-11-21",
      time: "00:00",
    });
  });

  it.each([
    ["7", 7],
    ["1", 1],
    [" 600 ", 600],
    [12, 12],
  ])("takes minutes %j as %d", (input, expected) => {
    const parsed = setDetailsSchema("2026-11-21").safeParse({
      minutes: input,
      date: "2026-11-20",
      time: "20:00",
      notes: "",
      tags: [],
    });
    expect(parsed.data?.minutes).toBe(expected);
  });

  it.each(["", "abc", "0", "-3", "4.9", "601", Number.NaN])("refuses minutes %j with the server's message", (input) => {
    const parsed = setDetailsSchema("2026-11-21").safeParse({
      minutes: input,
      date: "2026-11-20",
      time: "20:00",
      notes: "",
      tags: [],
    });
    expect(parsed.error?.issues.map((i) => i.message)).toEqual(["Minutes must be a whole number from 1 to 600"]);
  });

  it("refuses notes past 2,000 characters with the server's message", () => {
    const base = { minutes: 5, date: "2026-11-20", time: "20:00", tags: [] };
    const schema = setDetailsSchema("2026-11-21");
    expect(schema.safeParse({ ...base, notes: "x".repeat(2000) }).success).toBe(true);
    expect(schema.safeParse({ ...base, notes: "x".repeat(2001) }).error?.issues[0].message).toBe(
      "Notes must be 2000 characters or fewer",
    );
  });

  it("refuses a date after today", () => {
    const schema = setDetailsSchema("2026-11-21");
    const base = { minutes: 5, time: "20:00", notes: "", tags: [] };
    expect(schema.safeParse({ ...base, date: "2026-11-21" }).success).toBe(true);
    const result = schema.safeParse({ ...base, date: "2026-11-22" });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toBe(FUTURE_DATE_MESSAGE);
  });

  it("accepts only 15-minute slots", () => {
    const schema = setDetailsSchema("2026-11-21");
    expect(schema.safeParse({ minutes: 5, date: "2026-11-20", time: "20:10", notes: "", tags: [] }).success).toBe(
      false,
    );
  });

  it("takes the slot's time, treats a slot just ahead as now, and refuses a later one", () => {
    expect(performedAtOf({ date: "2026-11-20", time: "20:00" }, NOW, ZONE)).toBe(
      zonedEpoch("2026-11-20", "20:00", ZONE),
    );
    expect(performedAtOf({ date: "2026-11-21", time: "21:15" }, NOW, ZONE)).toBe(NOW);
    expect(performedAtOf({ date: "2026-11-21", time: "23:00" }, NOW, ZONE)).toEqual({ error: FUTURE_TIME_MESSAGE });
  });

  it("leaves out empty notes", () => {
    const draft = { minutes: 5, date: "2026-11-21", time: "21:00", notes: "  ", tags: ["riff"] };
    expect(setPayload(draft, NOW, ZONE)).toEqual({ minutes: 5, performedAt: NOW, tags: ["riff"], timeZone: ZONE });
    expect(setPayload({ ...draft, notes: " killed " }, NOW, ZONE).notes).toBe("killed");
  });
});
