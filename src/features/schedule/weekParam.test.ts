import { describe, expect, test } from "vitest";
import { zonedEpoch } from "@convex/lib/time";
import { groupByDay, initialWeekStart, parseWeekParam, timeOfDay, weekAt, weekLabel } from "./weekParam";

const NY = "America/New_York";

describe("parseWeekParam", () => {
  test.each([
    ["2026-12-02", "2026-12-02"],
    ["2026-12-02T23:30:00.000Z", "2026-12-02"],
    [" 2027-01-01 ", "2027-01-01"],
    ["2026-02-30", null],
    ["2026-13-01", null],
    ["next week", null],
    ["", null],
    [null, null],
  ])("%s -> %s", (input, expected) => {
    expect(parseWeekParam(input)).toBe(expected);
  });
});

describe("initialWeekStart", () => {
  // Saturday 21 November 2026, 10 PM in New York (already Sunday in UTC).
  const now = zonedEpoch("2026-11-21", "22:00", NY);

  test("the week holding the parameter's date, starting Monday", () => {
    expect(initialWeekStart("2026-12-02", now, NY)).toBe("2026-11-30");
    expect(initialWeekStart("2026-12-06", now, NY)).toBe("2026-11-30");
    expect(initialWeekStart("2026-12-07", now, NY)).toBe("2026-12-07");
  });

  test("this week, in the viewer's zone, without a valid parameter", () => {
    expect(initialWeekStart(null, now, NY)).toBe("2026-11-16");
    expect(initialWeekStart("garbage", now, NY)).toBe("2026-11-16");
    expect(initialWeekStart(null, now, "UTC")).toBe("2026-11-16");
    expect(initialWeekStart(null, now, "Asia/Tokyo")).toBe("2026-11-16");
  });
});

describe("weekAt and weekLabel", () => {
  test("previous and next weeks, across a year end", () => {
    const next = weekAt("2026-12-21", 1, NY);
    expect(next.startDate).toBe("2026-12-28");
    expect(next.endDate).toBe("2027-01-03");
    expect(weekLabel(next)).toBe("Dec 28, 2026 – Jan 3, 2027");
    expect(weekAt("2026-12-21", -1, NY).startDate).toBe("2026-12-14");
    expect(weekLabel(weekAt("2026-11-16", 0, NY))).toBe("Nov 16 – 22, 2026");
    expect(weekLabel(weekAt("2026-11-30", 0, NY))).toBe("Nov 30 – Dec 6, 2026");
  });

  test("the bounds run from Monday 00:00 to Sunday 23:59:59.999 local, DST week included", () => {
    const week = weekAt("2026-10-26", 0, NY);
    expect(week.startMs).toBe(zonedEpoch("2026-10-26", "00:00", NY));
    expect(week.endMs).toBe(zonedEpoch("2026-11-02", "00:00", NY) - 1);
    expect(week.endMs - week.startMs + 1).toBe(169 * 3600_000);
  });
});

describe("groupByDay", () => {
  test("groups by local day in order, keeping each day's order", () => {
    const a = { id: "a", startsAt: zonedEpoch("2026-11-18", "19:00", NY) };
    const b = { id: "b", startsAt: zonedEpoch("2026-11-18", "21:30", NY) };
    const c = { id: "c", startsAt: zonedEpoch("2026-11-20", "23:30", NY) };
    const groups = groupByDay([a, b, c], NY);
    expect(groups.map((g) => [g.date, g.label, g.items.map((i) => i.id)])).toEqual([
      ["2026-11-18", "Wednesday, Nov 18", ["a", "b"]],
      ["2026-11-20", "Friday, Nov 20", ["c"]],
    ]);
    // The same late set is Saturday in UTC.
    expect(groupByDay([c], "UTC")[0].date).toBe("2026-11-21");
    expect(timeOfDay(c.startsAt, NY)).toBe("11:30 PM");
  });
});
