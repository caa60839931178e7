import ICAL from "ical.js";
import { describe, expect, test } from "vitest";
import type { Id } from "@convex/_generated/dataModel";
import { zonedEpoch } from "@convex/lib/time";
import { buildScheduleCalendar, calendarText, foldLine, vtimezone, type CalendarItem } from "./calendarExport";

const id = (s: string) => s as Id<"sceneItems">;

function item(overrides: Partial<CalendarItem> & Pick<CalendarItem, "sceneItemId" | "title">): CalendarItem {
  return {
    venueName: "The Cellar",
    city: "New York",
    timeZone: "America/New_York",
    dayOfWeek: 3,
    startTimeLocal: "20:00",
    recurrence: "weekly",
    anchorDate: "2026-01-07",
    ...overrides,
  };
}

/** Parses the file and registers its VTIMEZONEs, as a calendar app would. */
function parse(ics: string) {
  const root = new ICAL.Component(ICAL.parse(ics));
  for (const tz of root.getAllSubcomponents("vtimezone")) {
    ICAL.TimezoneService.register(new ICAL.Timezone(tz));
  }
  return root.getAllSubcomponents("vevent").map((c) => new ICAL.Event(c));
}

function occurrences(event: ICAL.Event, count: number): number[] {
  const it = event.iterator();
  const out: number[] = [];
  for (let next = it.next(); next && out.length < count; next = it.next()) out.push(next.toJSDate().getTime());
  return out;
}

// Friday 20 November 2026, noon in New York.
const FROM = zonedEpoch("2026-11-20", "12:00", "America/New_York");

describe("buildScheduleCalendar", () => {
  test("a weekly mic repeats at the venue's wall-clock time across DST", () => {
    const { ics, events } = buildScheduleCalendar(
      [item({ sceneItemId: id("a1"), title: "Basement Bombs", performanceMinutes: 5 })],
      FROM,
    );
    expect(events).toBe(1);
    expect(ics).not.toBeNull();
    expect(ics).toContain("DTSTART;TZID=America/New_York:20261125T200000");
    expect(ics).toContain("RRULE:FREQ=WEEKLY;BYDAY=WE");
    const [event] = parse(ics!);
    expect(event.summary).toBe("Basement Bombs");
    expect(event.uid).toBe("a1@stagetime.app");
    expect(event.location).toBe("The Cellar, New York");
    expect(event.isRecurring()).toBe(true);
    expect(event.duration.toSeconds()).toBe(65 * 60);
    expect(event.startDate.toJSDate().getTime()).toBe(zonedEpoch("2026-11-25", "20:00", "America/New_York"));
    // Wednesdays at 8 PM; 2027-03-17 is after the spring-forward change (EDT).
    const starts = occurrences(event, 17);
    expect(starts[1]).toBe(zonedEpoch("2026-12-02", "20:00", "America/New_York"));
    expect(starts[16]).toBe(zonedEpoch("2027-03-17", "20:00", "America/New_York"));
  });

  test("bi-weekly, nth-weekday monthly and one-time items get their rules", () => {
    const { ics, events } = buildScheduleCalendar(
      [
        item({
          sceneItemId: id("b1"),
          title: "Every Other",
          recurrence: "bi-weekly",
          dayOfWeek: 2,
          anchorDate: "2026-11-17",
        }),
        item({
          sceneItemId: id("m1"),
          title: "First Monday",
          recurrence: "custom",
          customRecurrenceDescription: "first Monday of month",
          dayOfWeek: 1,
          startTimeLocal: "19:30",
        }),
        item({
          sceneItemId: id("o1"),
          title: "Special Show",
          recurrence: "one-time",
          dayOfWeek: 6,
          startTimeLocal: "21:00",
          anchorDate: "2026-11-28",
          timeZone: "America/Los_Angeles",
          address: "1 Sunset Blvd",
        }),
      ],
      FROM,
    );
    expect(events).toBe(3);
    const byUid = new Map(parse(ics!).map((e) => [e.uid, e]));
    const biweekly = byUid.get("b1@stagetime.app")!;
    expect(biweekly.component.getFirstPropertyValue("rrule")?.toString()).toBe("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU");
    expect(occurrences(biweekly, 2)).toEqual([
      zonedEpoch("2026-12-01", "20:00", "America/New_York"),
      zonedEpoch("2026-12-15", "20:00", "America/New_York"),
    ]);
    const monthly = byUid.get("m1@stagetime.app")!;
    expect(monthly.component.getFirstPropertyValue("rrule")?.toString()).toBe("FREQ=MONTHLY;BYDAY=1MO");
    expect(occurrences(monthly, 2)).toEqual([
      zonedEpoch("2026-12-07", "19:30", "America/New_York"),
      zonedEpoch("2027-01-04", "19:30", "America/New_York"),
    ]);
    const once = byUid.get("o1@stagetime.app")!;
    expect(once.isRecurring()).toBe(false);
    expect(once.location).toBe("The Cellar, 1 Sunset Blvd");
    expect(once.startDate.toJSDate().getTime()).toBe(zonedEpoch("2026-11-28", "21:00", "America/Los_Angeles"));
    expect(ics).toContain("TZID:America/Los_Angeles");
  });

  test("a one-time show that is over is left out; nothing left gives no file", () => {
    const past = item({
      sceneItemId: id("p1"),
      title: "Last Week",
      recurrence: "one-time",
      dayOfWeek: 6,
      anchorDate: "2026-11-14",
    });
    expect(buildScheduleCalendar([past], FROM)).toEqual({ ics: null, events: 0 });
    expect(buildScheduleCalendar([], FROM)).toEqual({ ics: null, events: 0 });
  });
});

describe("hostile text in the calendar file", () => {
  /** The file's logical lines as a reader that takes a bare CR or LF as a line break sees them. */
  const lenientLines = (ics: string) =>
    ics.split(/\r\n|\r|\n/).reduce<string[]>((lines, line) => {
      if (/^[ \t]/.test(line) && lines.length > 0) lines[lines.length - 1] += line.slice(1);
      else lines.push(line);
      return lines;
    }, []);

  test("a bare CR or a newline in a title or venue cannot add a property; the text round-trips escaped", () => {
    const title =
      "Open Mic\rURL:https://evil.example/\r\nATTACH:https://evil.example/x.exe\u2028DTSTART:19990101T000000";
    const venueName = "The Cellar\rATTACH:https://evil.example/y";
    const { ics } = buildScheduleCalendar([item({ sceneItemId: id("h1"), title, venueName })], FROM);
    expect(ics).not.toMatch(/\r(?!\n)/);
    expect(ics).not.toMatch(/(?<!\r)\n/);
    const properties = lenientLines(ics!).map((line) => line.split(/[:;]/)[0]);
    expect(properties).not.toContain("URL");
    expect(properties).not.toContain("ATTACH");
    expect(properties.filter((p) => p === "DTSTART")).toHaveLength(4); // the event's, and the zone's three observances
    const [event] = parse(ics!);
    expect(event.component.getAllProperties("url")).toEqual([]);
    expect(event.component.getAllProperties("attach")).toEqual([]);
    expect(event.summary).toBe(
      "Open Mic\nURL:https://evil.example/\nATTACH:https://evil.example/x.exe\nDTSTART:19990101T000000",
    );
    expect(event.location).toBe("The Cellar\nATTACH:https://evil.example/y, New York");
    expect(event.startDate.toJSDate().getTime()).toBe(zonedEpoch("2026-11-25", "20:00", "America/New_York"));
  });

  test("backslashes, semicolons, commas and quotes round-trip; control and bidi characters are dropped", () => {
    const title = 'Joe\\Mic; "Best", Night\u202e\u0000\u0007\u0085\u2066\t!';
    const { ics } = buildScheduleCalendar([item({ sceneItemId: id("h2"), title })], FROM);
    expect(ics).toContain('SUMMARY:Joe\\\\Mic\\; "Best"\\, Night !');
    const [event] = parse(ics!);
    expect(event.summary).toBe('Joe\\Mic; "Best", Night !');
  });

  test("long lines fold at 75 octets without splitting a character, and unfold to the same text", () => {
    const title = "Café Comedy 🎤 Night ".repeat(6).trim();
    const { ics } = buildScheduleCalendar(
      [item({ sceneItemId: id("h3"), title, venueName: "Ñandú Bar ".repeat(12).trim() })],
      FROM,
    );
    const encoder = new TextEncoder();
    for (const line of ics!.split("\r\n")) expect(encoder.encode(line).length).toBeLessThanOrEqual(75);
    expect(ics).not.toContain("\uFFFD");
    const [event] = parse(ics!);
    expect(event.summary).toBe(title);
    expect(event.location).toBe(`${"Ñandú Bar ".repeat(12).trim()}, New York`);
  });

  test("calendarText and foldLine", () => {
    expect(calendarText("a\r\nb\rc\nd\u2029e\tf\u202eg")).toBe("a\nb\nc\nd\ne fg");
    expect(foldLine("x".repeat(75))).toBe("x".repeat(75));
    expect(foldLine("x".repeat(76))).toBe(`${"x".repeat(75)}\r\n x`);
    // "é" is 2 octets: 37 of them fill 74 octets, the 38th would pass 75.
    expect(foldLine("é".repeat(38))).toBe(`${"é".repeat(37)}\r\n é`);
  });
});

describe("vtimezone", () => {
  test("US zones get yearly daylight and standard rules", () => {
    const text = vtimezone("America/New_York", FROM);
    expect(text).toContain("RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU");
    expect(text).toContain("RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU");
    expect(text).toContain("TZOFFSETTO:-0400");
  });

  test("a zone without DST has one fixed observance", () => {
    const text = vtimezone("Asia/Kolkata", FROM);
    expect(text).toContain("TZOFFSETFROM:+0530");
    expect(text).not.toContain("DAYLIGHT");
  });

  test("Europe's last-Sunday rules", () => {
    const text = vtimezone("Europe/London", FROM);
    expect(text).toContain("RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU");
    expect(text).toContain("RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU");
  });
});
