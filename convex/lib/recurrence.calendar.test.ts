import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { calendarRecurrence, occurrencesInRange, type RecurringItem } from "./recurrence";
import { at, fri, NY, SAT_NOON } from "../testing/test.recurrence";
import { localDateString } from "./time";

describe("calendarRecurrence (.ics export)", () => {
  it.each<[RecurringItem, string | null, string]>([
    [fri(), "FREQ=WEEKLY;BYDAY=FR", "2026-11-27"],
    [fri({ recurrence: "bi-weekly", anchorDate: "2026-11-06" }), "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR", "2026-12-04"],
    [fri({ recurrence: "monthly", monthlyRule: "Monthly on the 31st" }), "FREQ=MONTHLY;BYMONTHDAY=31", "2026-12-31"],
    [
      fri({ recurrence: "monthly", monthlyRule: "last Friday of every month" }),
      "FREQ=MONTHLY;BYDAY=-1FR",
      "2026-11-27",
    ],
    [
      fri({ dayOfWeek: 4, recurrence: "custom", customRecurrenceDescription: "quarterly", anchorDate: "2026-11-19" }),
      "FREQ=MONTHLY;INTERVAL=3;BYDAY=3TH",
      "2027-02-18",
    ],
    [
      fri({ recurrence: "custom", customRecurrenceDescription: "every 3 weeks", anchorDate: "2026-11-06" }),
      "FREQ=WEEKLY;INTERVAL=3;BYDAY=FR",
      "2026-11-27",
    ],
    [fri({ recurrence: "one-time", anchorDate: "2026-11-27" }), null, "2026-11-27"],
  ])("%o -> %s from %s", (item, rrule, firstDate) => {
    const cal = calendarRecurrence(item, SAT_NOON);
    expect(cal).not.toBeNull();
    expect(cal?.rrule).toBe(rrule);
    expect(cal?.timeZone).toBe(NY);
    expect(localDateString(cal?.startMs as number, NY)).toBe(firstDate);
  });

  it("is null when the item never runs again", () => {
    expect(calendarRecurrence(fri({ recurrence: "one-time", anchorDate: "2026-11-20" }), SAT_NOON)).toBeNull();
  });

  it.each<[string, RecurringItem]>([
    ["weekly", fri()],
    ["bi-weekly", fri({ recurrence: "bi-weekly", anchorDate: "2026-11-06" })],
    ["monthly on the 31st", fri({ recurrence: "monthly", monthlyRule: "Monthly on the 31st" })],
    ["monthly on the 29th", fri({ recurrence: "monthly", monthlyRule: "Monthly on the 29th" })],
    ["last Tuesday", fri({ dayOfWeek: 2, recurrence: "monthly", monthlyRule: "last Tuesday of every month" })],
    ["fourth Thursday", fri({ dayOfWeek: 4, recurrence: "monthly", monthlyRule: "fourth Thursday of every month" })],
    [
      "quarterly",
      fri({ dayOfWeek: 4, recurrence: "custom", customRecurrenceDescription: "quarterly", anchorDate: "2026-11-19" }),
    ],
    [
      "every other month, last Friday",
      fri({ recurrence: "custom", customRecurrenceDescription: "every other month", anchorDate: "2026-10-30" }),
    ],
    [
      "every 5 weeks",
      fri({ recurrence: "custom", customRecurrenceDescription: "every 5 weeks", anchorDate: "2026-10-02" }),
    ],
  ])("an independent RRULE expansion (ical.js) gives the same dates: %s", (_name, item) => {
    const cal = calendarRecurrence(item, SAT_NOON);
    if (cal === null || cal.rrule === null) throw new Error("expected a repeating rule");
    const first = localDateString(cal.startMs, NY);
    const [year, month, day] = first.split("-").map(Number);
    const iterator = ICAL.Recur.fromString(cal.rrule).iterator(
      ICAL.Time.fromData({ year, month, day, hour: 20, minute: 0, second: 0, isDate: false }),
    );
    const until = "2029-12-31";
    const expected: string[] = [];
    for (let t = iterator.next(); t && t.toString().slice(0, 10) <= until; t = iterator.next()) {
      expected.push(t.toString().slice(0, 10));
    }
    const ours = occurrencesInRange(item, cal.startMs, at(until, "23:59")).map((ms) => localDateString(ms, NY));
    expect(expected.length).toBeGreaterThan(8);
    expect(ours).toEqual(expected);
  });
});
