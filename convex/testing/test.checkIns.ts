/** The check-in tests' world (a Wednesday 20:00 mic in Manhattan, seen at 19:45 New York time) and helpers. */
import { beforeEach, vi } from "vitest";
import type { Id } from "../_generated/dataModel";
// Load @date-fns/tz before fake timers replace Date: a TZDate class that
// extends the fake Date loses its time zone (every date comes out in UTC).
import "../lib/time";
import { useFrozenClock } from "./test.clock";
import { api } from "../_generated/api";
import {
  createSceneItem,
  createUser,
  foldQueuedCheckIns,
  newTest,
  type SceneItemOverrides,
  type TestBackend,
  type TestUser,
} from "./test.setup";

export const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;
/** One degree of latitude in metres on a 6371000 m sphere. */
export const METERS_PER_DEGREE_LAT = (Math.PI * 6371000) / 180;

/** A Wednesday 20:00 mic in Manhattan; in November New York is UTC-5. */
export const VENUE = { latitude: 40.7411, longitude: -73.9897 };
export const WEDNESDAY_MIC = { dayOfWeek: 3, startTimeLocal: "20:00", ...VENUE };
/** New York wall-clock time on Wednesday 2026-11-25 as epoch ms. */
export const nyWed = (hhmm: string) => Date.parse(`2026-11-25T${hhmm}:00-05:00`);
export const AT_VENUE = { ...VENUE };

/** A comedian whose account is two days old: old enough for their check-ins to verify a mic. */
export async function seasonedUser(t: TestBackend) {
  const now = Date.now();
  vi.setSystemTime(now - 2 * DAY);
  try {
    return await createUser(t);
  } finally {
    vi.setSystemTime(now);
  }
}

export async function item(t: TestBackend, id: Id<"sceneItems">) {
  return await t.run(async (ctx) => (await ctx.db.get("sceneItems", id))!);
}

export let t: TestBackend;

/**
 * `comic` checks in at `mic`, standing at the venue unless `at` says where;
 * then the fold the check-in scheduled for the next second runs at once, so
 * the mic row shows it.
 */
export async function checkIn(
  comic: TestUser,
  mic: Id<"sceneItems">,
  at: { latitude: number; longitude: number } = AT_VENUE,
) {
  const result = await comic.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mic, ...at });
  await foldQueuedCheckIns(t);
  return result;
}

export { foldQueuedCheckIns };

/** A Wednesday mic (with `overrides`) and a comedian who has not checked in there. */
export async function micAndComic(overrides: SceneItemOverrides = {}) {
  const mic = await createSceneItem(t, { ...WEDNESDAY_MIC, ...overrides });
  return { mic, comic: await createUser(t) };
}

/** Registers the hooks every check-in test runs under: the clock at 19:45 on Wednesday 25 November in New York and a fresh backend (`t`). */
export function useWednesdayCheckIns(): void {
  useFrozenClock(nyWed("19:45"));
  beforeEach(() => {
    t = newTest();
  });
}
