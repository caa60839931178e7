/** The recurrence tests' calendar: a Friday 20:00 New York item (`fri`) seen at noon on Saturday 2026-11-21, and wall-clock helpers. */
import type { RecurringItem } from "../lib/recurrence";
import { zonedEpoch } from "../lib/time";

export const NY = "America/New_York";
export const LA = "America/Los_Angeles";
export const at = (date: string, time = "20:00", tz = NY) => zonedEpoch(date, time, tz);
export const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

// Calendar notes: 2026-11-21 is a Saturday; Fridays in Nov 2026 are 6, 13, 20, 27;
// Dec 2026 starts on a Tuesday; 2028-02-29 is a Tuesday.
export const SAT_NOON = at("2026-11-21", "12:00");
export const fri = (extra: Partial<RecurringItem> = {}): RecurringItem => ({
  dayOfWeek: 5,
  startTimeLocal: "20:00",
  timeZone: NY,
  recurrence: "weekly",
  ...extra,
});
