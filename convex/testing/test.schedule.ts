/** The schedule tests' clock and backend (useSaturdayNoon) and helpers: entries, week arguments, logging a set. */
import { beforeEach } from "vitest";
import type { Id } from "../_generated/dataModel";
// Load @date-fns/tz before fake timers replace Date: a TZDate class that
// extends the fake Date loses its time zone (every date comes out in UTC).
import "../lib/time";
import { scheduleWeek } from "../lib/weeks";
import { useFrozenClock } from "./test.clock";
import { newTest, type SceneItemOverrides, type TestBackend } from "./test.setup";

export const DAY = 24 * 60 * 60_000;
/** Saturday 2026-11-21 12:00 in New York (UTC-5 in November). */
export const NOW = Date.parse("2026-11-21T12:00:00-05:00");

export async function entries(t: TestBackend, userId: Id<"users">) {
  return await t.run(async (ctx) =>
    ctx.db
      .query("scheduleEntries")
      .withIndex("by_user_and_item", (q) => q.eq("userId", userId))
      .collect(),
  );
}

export let t: TestBackend;

/** A bi-weekly Tuesday 20:00 mic (its cadence counts from the day it is created). */
export const BI_WEEKLY_TUESDAY = {
  title: "Bi-weekly",
  recurrence: "bi-weekly",
  dayOfWeek: 2,
  startTimeLocal: "20:00",
} satisfies SceneItemOverrides;
/** A monthly mic on the 25th (a Wednesday in November 2026), 19:00. */
export const MONTHLY_ON_THE_25TH = {
  title: "Monthly",
  recurrence: "monthly",
  monthlyRule: "Monthly on the 25th",
  dayOfWeek: 3,
  startTimeLocal: "19:00",
} satisfies SceneItemOverrides;

/** Registers the hooks every schedule test runs under: the clock at Saturday 21 November 2026, noon in New York, and a fresh backend (`t`). */
export function useSaturdayNoon(): void {
  useFrozenClock(NOW);
  beforeEach(() => {
    t = newTest();
  });
}

export const NY = "America/New_York";
export const at = (iso: string) => Date.parse(iso);
/** schedule.week's arguments for the Monday-to-Sunday week holding `date`, seen at `nowMs`. */
export function weekOf(date: string, nowMs = NOW, timeZone = NY) {
  const w = scheduleWeek(date, timeZone);
  return { weekStartMs: w.startMs, weekEndMs: w.endMs, nowMs };
}

export async function logSetAt(
  userId: Id<"users">,
  performedAt: number,
  fields: { minutes?: number; sceneItemId?: Id<"sceneItems">; venueName?: string } = {},
): Promise<Id<"performances">> {
  return await t.run(async (ctx) =>
    ctx.db.insert("performances", {
      userId,
      minutes: fields.minutes ?? 5,
      performedAt,
      performanceDate: new Date(performedAt).toISOString().slice(0, 10),
      sceneItemId: fields.sceneItemId,
      venueName: fields.venueName,
      tags: [],
    }),
  );
}
