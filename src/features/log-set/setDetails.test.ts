import { describe, expect, it } from "vitest";
import { zonedEpoch } from "../../../convex/lib/time";
import {
  defaultSetDraft,
  FUTURE_DATE_MESSAGE,
  FUTURE_TIME_MESSAGE,
  parseMinutes,
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
    ["", 0],
    ["abc", 0],
    [Number.NaN, 0],
    ["4.9", 4],
    [-3, 0],
  ])("counts minutes %j as %d", (input, expected) => {
    expect(parseMinutes(input)).toBe(expected);
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
