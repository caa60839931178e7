/** The schedule's "Add to calendar" file: one VEVENT per scheduled mic, its recurrence an RRULE (`ics` package). */
import { TZDate, tzOffset, tzScan } from "@date-fns/tz";
import { format } from "date-fns";
import { createEvents, type EventAttributes } from "ics";
import type { FunctionReturnType } from "convex/server";
import type { api } from "@convex/_generated/api";
import { calendarRecurrence, recurrenceSummary, type RecurringItem } from "@convex/lib/recurrence";
import { COMPLETED_AFTER_MIN } from "@convex/lib/schedule";
import { withoutControlCharacters } from "@convex/lib/textRules";
import { daysInMonth } from "@convex/lib/time";
import { downloadBlob } from "@/lib/download";

export type CalendarItem = FunctionReturnType<typeof api.schedule.calendar>[number];

export const CALENDAR_FILE_NAME = "stagetime-schedule.ics";
const PRODUCT_ID = "-//StageTime//Schedule//EN";
const UID_DOMAIN = "stagetime.app";
const RRULE_DAYS = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"] as const;

const pad2 = (n: number) => String(n).padStart(2, "0");

/** "+0530" / "-0400" for an offset in minutes east of UTC. */
function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${pad2(Math.floor(abs / 60))}${pad2(abs % 60)}`;
}

/** Wall-clock "YYYYMMDDTHHMMSS" of an instant in a zone. */
function localStamp(epochMs: number, timeZone: string): string {
  return format(new TZDate(epochMs, timeZone), "yyyyMMdd'T'HHmmss");
}

/** Wall-clock stamp of `epochMs` at a fixed offset (minutes east of UTC). */
function offsetStamp(epochMs: number, offsetMinutes: number): string {
  const d = new Date(epochMs + offsetMinutes * 60_000);
  return (
    `${d.getUTCFullYear()}${pad2(d.getUTCMonth() + 1)}${pad2(d.getUTCDate())}` +
    `T${pad2(d.getUTCHours())}${pad2(d.getUTCMinutes())}${pad2(d.getUTCSeconds())}`
  );
}

type Transition = { at: number; from: number; to: number };

/** A yearly rule ("second Sunday of March at 02:00") matching every transition, or null. */
function yearlyRule(transitions: Transition[]): string | null {
  const parts = transitions.map((t) => {
    const d = new Date(t.at + t.from * 60_000);
    const year = d.getUTCFullYear();
    const month = d.getUTCMonth() + 1;
    const day = d.getUTCDate();
    return {
      year,
      month,
      weekday: d.getUTCDay(),
      time: d.getUTCHours() * 60 + d.getUTCMinutes(),
      nth: Math.ceil(day / 7),
      last: day + 7 > daysInMonth(year, month),
      from: t.from,
      to: t.to,
    };
  });
  const [first] = parts;
  const same = parts.every(
    (p, i) =>
      p.year === first.year + i &&
      p.month === first.month &&
      p.weekday === first.weekday &&
      p.time === first.time &&
      p.from === first.from &&
      p.to === first.to,
  );
  if (!same) return null;
  const byDay = parts.every((p) => p.nth === first.nth)
    ? `${first.nth}${RRULE_DAYS[first.weekday]}`
    : parts.every((p) => p.last)
      ? `-1${RRULE_DAYS[first.weekday]}`
      : null;
  return byDay === null ? null : `FREQ=YEARLY;BYMONTH=${first.month};BYDAY=${byDay}`;
}

/**
 * A VTIMEZONE for an IANA zone covering the years around `aroundMs` (a year
 * back, five ahead): a yearly RRULE per kind of change when the changes follow
 * one ("second Sunday of March"), otherwise one observance per change.
 */
export function vtimezone(timeZone: string, aroundMs: number): string {
  const year = new Date(aroundMs).getUTCFullYear();
  const start = new Date(Date.UTC(year - 1, 0, 1));
  const end = new Date(Date.UTC(year + 5, 0, 1));
  const initial = tzOffset(timeZone, start);
  const changes = tzScan(timeZone, { start, end });
  const lines = ["BEGIN:VTIMEZONE", `TZID:${timeZone}`];
  const observance = (kind: "STANDARD" | "DAYLIGHT", dtstart: string, from: number, to: number, rrule?: string) => {
    lines.push(
      `BEGIN:${kind}`,
      `DTSTART:${dtstart}`,
      `TZOFFSETFROM:${formatOffset(from)}`,
      `TZOFFSETTO:${formatOffset(to)}`,
      ...(rrule ? [`RRULE:${rrule}`] : []),
      `END:${kind}`,
    );
  };
  if (changes.length === 0) {
    observance("STANDARD", "19700101T000000", initial, initial);
  } else {
    const transitions: Transition[] = changes.map((c) => ({
      at: c.date.getTime(),
      from: c.offset - c.change,
      to: c.offset,
    }));
    // The offset in force before the first change, so times early in the range resolve too.
    observance("STANDARD", offsetStamp(start.getTime(), initial), initial, initial);
    for (const kind of ["DAYLIGHT", "STANDARD"] as const) {
      const group = transitions.filter((t) => (kind === "DAYLIGHT" ? t.to > t.from : t.to <= t.from));
      if (group.length === 0) continue;
      const rule = group.length > 1 ? yearlyRule(group) : null;
      if (rule !== null) {
        observance(kind, offsetStamp(group[0].at, group[0].from), group[0].from, group[0].to, rule);
      } else {
        for (const t of group) observance(kind, offsetStamp(t.at, t.from), t.from, t.to);
      }
    }
  }
  lines.push("END:VTIMEZONE");
  return lines.join("\r\n");
}

/** Where the mic is, as one line: venue, street address or city. */
function locationOf(item: CalendarItem): string {
  return [item.venueName, item.address ?? item.city].filter((s) => s && s.trim()).join(", ");
}

/**
 * Text for a calendar property: every kind of line break becomes "\n" (which
 * `ics` writes as the escaped newline "\\n"), a tab a space, and any other
 * control, separator or bidi character is dropped.
 */
export function calendarText(value: string): string {
  return value
    .replace(/\r\n|[\r\u2028\u2029]/g, "\n")
    .split("\n")
    .map((line) => withoutControlCharacters(line.replace(/\t/g, " ")).replace(/ {2,}/g, " "))
    .join("\n");
}

const encoder = new TextEncoder();

/**
 * A content line folded as RFC 5545 says: no line longer than 75 octets (the
 * CRLF aside), each continuation starting with a space, never splitting a
 * UTF-8 sequence or a surrogate pair.
 */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = "";
  let octets = 0;
  for (const char of line) {
    const size = encoder.encode(char).length;
    // A continuation's leading space counts against its 75 octets.
    const limit = parts.length === 0 ? 75 : 74;
    if (octets + size > limit) {
      parts.push(current);
      current = "";
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join("\r\n ");
}

export type CalendarExport = {
  /** The .ics text, or null when nothing in the schedule runs again. */
  ics: string | null;
  /** How many events it holds. */
  events: number;
};

/**
 * The .ics text of the comedian's scheduled mics that run at or after
 * `fromMs`: first start in the venue's zone, RRULE for repeating mics, and a
 * length of 60 minutes plus the set length (the time the app treats the spot
 * as over).
 */
export function buildScheduleCalendar(items: readonly CalendarItem[], fromMs: number): CalendarExport {
  const events: EventAttributes[] = [];
  const zoneByUid = new Map<string, string>();
  const firstStartByZone = new Map<string, number>();
  for (const item of items) {
    const recurring: RecurringItem = {
      dayOfWeek: item.dayOfWeek,
      startTimeLocal: item.startTimeLocal,
      timeZone: item.timeZone,
      recurrence: item.recurrence,
      customRecurrenceDescription: item.customRecurrenceDescription,
      monthlyRule: item.monthlyRule,
      anchorDate: item.anchorDate ?? undefined,
    };
    const occurrence = calendarRecurrence(recurring, fromMs);
    if (occurrence === null) continue;
    const uid = `${item.sceneItemId}@${UID_DOMAIN}`;
    zoneByUid.set(uid, occurrence.timeZone);
    const seen = firstStartByZone.get(occurrence.timeZone);
    if (seen === undefined || occurrence.startMs < seen) firstStartByZone.set(occurrence.timeZone, occurrence.startMs);
    const when = recurrenceSummary(recurring);
    events.push({
      uid,
      title: calendarText(item.title), // `ics` passes a bare CR, which a lenient reader takes as a line break
      // The venue's wall clock, written as is; the TZID is added below. A UTC start drifts an hour across a DST
      // change, a floating time follows the importer's zone; TZID + VTIMEZONE keep 8 PM local all year.
      start: localStamp(occurrence.startMs, occurrence.timeZone),
      duration: { minutes: COMPLETED_AFTER_MIN + (item.performanceMinutes ?? 0) },
      location: calendarText(locationOf(item)),
      description: calendarText(`${when} · From your StageTime schedule`),
      ...(occurrence.rrule ? { recurrenceRule: occurrence.rrule } : {}),
    });
  }
  if (events.length === 0) return { ics: null, events: 0 };

  const { error, value } = createEvents(events, { productId: PRODUCT_ID, calName: "StageTime schedule" });
  if (error || !value) throw error ?? new Error("Could not build the calendar file");

  const out: string[] = [];
  let uid: string | null = null;
  let zonesAdded = false;
  // `ics` folds with CRLF + tab at 75 characters; unfolded here and folded again at 75 octets below.
  const unfolded = value.replace(/\r\n[ \t]/g, "");
  for (const line of unfolded.split("\r\n")) {
    if (line === "BEGIN:VEVENT" && !zonesAdded) {
      for (const [zone, startMs] of firstStartByZone) out.push(...vtimezone(zone, startMs).split("\r\n"));
      zonesAdded = true;
    }
    if (line.startsWith("UID:")) uid = line.slice(4);
    const zone = uid === null ? undefined : zoneByUid.get(uid);
    if (zone !== undefined && /^DTSTART:\d{8}T\d{6}$/.test(line)) {
      out.push(`DTSTART;TZID=${zone}:${line.slice("DTSTART:".length)}`);
    } else {
      out.push(line);
    }
    if (line === "END:VEVENT") uid = null;
  }
  return { ics: out.map(foldLine).join("\r\n"), events: events.length };
}

/** Starts a download of `text` as `fileName` (text/calendar). */
export function downloadCalendarFile(text: string, fileName = CALENDAR_FILE_NAME): void {
  // Let the browser start reading the blob before it is released.
  downloadBlob(new Blob([text], { type: "text/calendar;charset=utf-8" }), fileName, 1_000);
}
