/** Property checks across the lib modules (fast-check), complementing the tables. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkInWindow } from "./checkInWindow";
import { decodeGeohashBounds, encodeGeohash, geohashNeighbors } from "./geo";
import { nextOccurrence, occurrencesInRange } from "./recurrence";
import { computeStreaks } from "./streaks";
import { wordOverlapScore } from "./similarity";
import { addDaysToDate, dayOfWeekOfDate, localDateString, localDayOfWeek, zonedEpoch } from "./time";
import { goalWeek, scheduleWeek } from "./weeks";

const ZONES = [
  "America/New_York",
  "America/Chicago",
  "America/Los_Angeles",
  "Europe/London",
  "Asia/Kolkata",
  "Australia/Sydney",
];
const MIN = 60_000;
const instant = fc.integer({ min: Date.parse("2026-01-01T00:00:00Z"), max: Date.parse("2030-12-31T00:00:00Z") });
const zone = fc.constantFrom(...ZONES);
const weekday = fc.integer({ min: 0, max: 6 });
const hhmm = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 15, 30, 45))
  .map(([h, m]) => `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`);

describe("properties", () => {
  it("a weekly item's next start is the nearest matching local day and time", () => {
    fc.assert(
      fc.property(instant, zone, weekday, hhmm, (from, timeZone, day, time) => {
        const next = nextOccurrence({ dayOfWeek: day, startTimeLocal: time, timeZone, recurrence: "weekly" }, from);
        expect(next).not.toBeNull();
        const n = next as number;
        expect(n).toBeGreaterThanOrEqual(from);
        expect(n - from).toBeLessThan(7 * 24 * 60 * MIN + 60 * MIN);
        const date = localDateString(n, timeZone);
        expect(localDayOfWeek(n, timeZone)).toBe(day);
        expect(zonedEpoch(date, time, timeZone)).toBe(n);
        // No earlier matching day was skipped.
        const previous = zonedEpoch(addDaysToDate(date, -7), time, timeZone);
        expect(previous).toBeLessThan(from);
      }),
      { numRuns: 300 },
    );
  });

  it("the check-in window is open exactly from 30 minutes before to 120 minutes after a weekly start", () => {
    fc.assert(
      fc.property(
        instant,
        zone,
        weekday,
        hhmm,
        fc.integer({ min: -200, max: 200 }),
        (base, timeZone, day, time, offsetMin) => {
          const item = { dayOfWeek: day, startTimeLocal: time, timeZone, recurrence: "weekly" as const };
          const start = nextOccurrence(item, base) as number;
          const now = start + offsetMin * MIN;
          const starts = occurrencesInRange(item, now - 3 * 60 * MIN, now + 60 * MIN);
          const shouldBeOpen = starts.some((s) => now >= s - 30 * MIN && now < s + 120 * MIN);
          const w = checkInWindow(item, now);
          expect(w.status === "open").toBe(shouldBeOpen);
          if (w.status === "open") expect(starts).toContain(w.occurrenceStartMs);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("weeks contain their instant and start on Monday / Sunday", () => {
    fc.assert(
      fc.property(instant, zone, (t, timeZone) => {
        const s = scheduleWeek(t, timeZone);
        const g = goalWeek(t, timeZone);
        for (const [w, firstDay] of [
          [s, 1],
          [g, 0],
        ] as const) {
          expect(w.startMs).toBeLessThanOrEqual(t);
          expect(w.endMs).toBeGreaterThanOrEqual(t);
          expect(dayOfWeekOfDate(w.startDate)).toBe(firstDay);
          expect(localDateString(w.startMs, timeZone)).toBe(w.startDate);
          expect(localDateString(w.endMs + 1, timeZone)).toBe(addDaysToDate(w.startDate, 7));
        }
      }),
      { numRuns: 300 },
    );
  });

  it("streaks match a brute-force count", () => {
    const today = "2026-11-21";
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { maxLength: 30 }), (backs) => {
        const dates = backs.map((b) => addDaysToDate(today, -b)).sort();
        const set = new Set(dates);
        let longest = 0;
        for (const d of dates) {
          let run = 0;
          while (set.has(addDaysToDate(d, -run))) run++;
          longest = Math.max(longest, run);
        }
        const runEndingAt = (d: string) => {
          let run = 0;
          while (set.has(addDaysToDate(d, -run))) run++;
          return run;
        };
        const current = set.has(today) ? runEndingAt(today) : runEndingAt(addDaysToDate(today, -1));
        expect(computeStreaks(dates, today)).toEqual({ current, longest });
      }),
    );
  });

  it("word overlap is symmetric, within 0..1 and 1 for the same words", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const s = wordOverlapScore(a, b);
        expect(s).toBeGreaterThanOrEqual(0);
        expect(s).toBeLessThanOrEqual(1);
        expect(wordOverlapScore(b, a)).toBe(s);
      }),
    );
    expect(wordOverlapScore("Late Night Mic", "mic NIGHT late")).toBe(1);
  });

  it("geohash cells contain their point and neighbours touch the cell", () => {
    fc.assert(
      fc.property(
        fc.double({ min: -80, max: 80, noNaN: true }),
        fc.double({ min: -179.9, max: 179.9, noNaN: true }),
        fc.integer({ min: 2, max: 9 }),
        (lat, lng, precision) => {
          const hash = encodeGeohash(lat, lng, precision);
          const b = decodeGeohashBounds(hash);
          expect(lat >= b.minLat && lat <= b.maxLat && lng >= b.minLng && lng <= b.maxLng).toBe(true);
          const neighbours = geohashNeighbors(hash);
          expect(new Set(neighbours).size).toBe(8);
          expect(neighbours).not.toContain(hash);
          for (const n of neighbours) {
            const nb = decodeGeohashBounds(n);
            const touchesLat = nb.maxLat >= b.minLat - 1e-9 && nb.minLat <= b.maxLat + 1e-9;
            const touchesLng =
              (nb.maxLng >= b.minLng - 1e-9 && nb.minLng <= b.maxLng + 1e-9) ||
              Math.abs(Math.abs(nb.minLng - b.maxLng) - 360) < 1e-9 ||
              Math.abs(Math.abs(nb.maxLng - b.minLng) - 360) < 1e-9;
            expect(touchesLat && touchesLng).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
