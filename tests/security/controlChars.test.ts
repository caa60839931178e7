/**
 * Control characters in user text (29.7), through the real client against a
 * running local backend serving the app's convex/ folder. A bare CR in a mic
 * title once reached the schedule's calendar file, where a reader that takes
 * a CR as a line break saw injected `URL:` and `ATTACH:` properties. Now every
 * text field refuses C0/C1 controls, U+2028/2029 and bidi overrides, and the
 * export (the app's own `buildScheduleCalendar`) escapes a row saved before
 * the rule.
 */
import ICAL from "ical.js";
import { describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { expectAppError } from "@convex/testing/test.expect";
import { buildScheduleCalendar } from "../../src/features/schedule/calendarExport";
import { cliRun, exportRows, signUp, useAppBackend, VENUE } from "./support/app";

useAppBackend();

const INJECTED = "\rURL:https://evil.example/\rATTACH:https://evil.example/payload.exe";

/** A property name per logical line, as a reader that breaks lines at a bare CR or LF reads the file. */
function lenientProperties(ics: string): string[] {
  const lines: string[] = [];
  for (const line of ics.split(/\r\n|\r|\n/)) {
    if (/^[ \t]/.test(line) && lines.length > 0) lines[lines.length - 1] += line.slice(1);
    else lines.push(line);
  }
  return lines.map((line) => line.split(/[:;]/)[0]);
}

describe("29.7: control characters never reach stored text or the calendar file", () => {
  test("a mic title with a bare CR, a bidi override in a host name and a newline in a link are refused", async () => {
    const comic = await signUp("ctrl-mic@example.com");
    const base = {
      venue: { venueName: "Control Room", address: "1 Control St, New York, NY", timeZone: "UTC", ...VENUE },
      details: { type: "open_mic" as const, dayOfWeek: 3, startTimeLocal: "20:00", recurrence: "weekly" as const },
    };
    await expectAppError(
      comic.http.mutation(api.events.create, { ...base, details: { ...base.details, title: `Open Mic${INJECTED}` } }),
      "INVALID_INPUT",
      "Event name must not contain control characters",
    );
    await expectAppError(
      comic.http.mutation(api.events.create, {
        ...base,
        details: { ...base.details, title: "Open Mic", hostName: "\u202eliame ruoy yfirev" },
      }),
      "INVALID_INPUT",
      "Host name must not contain control characters",
    );
    // The URL parser drops a newline, so the link alone would have passed as valid.
    await expectAppError(
      comic.http.mutation(api.events.create, {
        ...base,
        details: {
          ...base.details,
          title: "Open Mic",
          signupLink: "https://ok.example/\nATTACH:https://evil.example/",
        },
      }),
      "INVALID_INPUT",
      "Signup link must not contain control characters",
    );
    await expectAppError(
      comic.http.mutation(api.profiles.update, { displayName: "Casey\u2028Comic", weeklyGoalMinutes: 15 }),
      "INVALID_INPUT",
      "Display name must not contain control characters",
    );
    expect((await exportRows("sceneItems")).filter((m) => String(m.venueName).startsWith("Control Room"))).toEqual([]);
    // The same mic without them is taken.
    const { sceneItemId } = await comic.http.mutation(api.events.create, {
      ...base,
      details: { ...base.details, title: "Open Mic" },
    });
    expect(sceneItemId).toBeTruthy();
  });

  test("a title saved before the rule is escaped in the exported calendar file", async () => {
    const comic = await signUp("ctrl-ics@example.com");
    // A row written before the rule existed, as an operator's import would hold it.
    const inserted = await cliRun("fixtures:insertSceneItem", {
      title: `Basement Bombs${INJECTED}`,
      venueName: "The Cellar\rATTACH:https://evil.example/x",
      city: "New York",
      type: "open_mic",
      recurrence: "weekly",
      dayOfWeek: 3,
      startTimeLocal: "20:00",
      timeZone: "America/New_York",
    });
    expect(inserted.code, inserted.stderr).toBe(0);
    const legacyId = JSON.parse(inserted.stdout) as Id<"sceneItems">;
    await comic.http.mutation(api.schedule.add, { sceneItemId: legacyId });
    const items = await comic.http.query(api.schedule.calendar, { fromMs: Date.now() });
    expect(items.map((i) => i.title)).toContain(`Basement Bombs${INJECTED}`);

    const { ics } = buildScheduleCalendar(items, Date.now());
    expect(ics).not.toBeNull();
    const properties = lenientProperties(ics!);
    expect(properties).not.toContain("URL");
    expect(properties).not.toContain("ATTACH");
    const events = new ICAL.Component(ICAL.parse(ics!)).getAllSubcomponents("vevent").map((c) => new ICAL.Event(c));
    const legacy = events.find((e) => e.uid === `${legacyId}@stagetime.app`)!;
    expect(legacy.summary).toBe("Basement Bombs\nURL:https://evil.example/\nATTACH:https://evil.example/payload.exe");
    expect(legacy.location).toBe("The Cellar\nATTACH:https://evil.example/x, New York");
    for (const event of events) {
      expect(event.component.getAllProperties("url")).toEqual([]);
      expect(event.component.getAllProperties("attach")).toEqual([]);
    }
  });
});
