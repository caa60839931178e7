/** The night-list tests' world (a Wednesday mic with its host, see useWednesdayNight) and their helpers: open a list, read it as someone, make comedians. */
import { afterEach, beforeEach, vi } from "vitest";
import { api } from "../_generated/api";
import type { Id } from "../_generated/dataModel";
// Load @date-fns/tz before fake timers replace Date (see checkIns.test.ts).
import "../lib/time";
import { joinViewer } from "../lib/liveListViewer";
import { useFrozenClock } from "./test.clock";
import { createSceneItem, createUser, newTest, type TestBackend, type TestUser } from "./test.setup";

export const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;
export const VENUE = { latitude: 40.7411, longitude: -73.9897 };
/** Wednesday 2026-11-25 in New York (UTC-5 in November). */
export const nyWed = (hhmm: string) => Date.parse(`2026-11-25T${hhmm}:00-05:00`);
export const TONIGHT = "2026-11-25";
export const NOW = nyWed("19:45");

export let t: TestBackend;
export let host: TestUser;
export let mic: Id<"sceneItems">;

/**
 * Registers the hooks every night-list test runs under: the clock at 19:45 on
 * Wednesday 25 November in New York, a fresh backend, and Hana Host, the
 * approved claimant of the Wednesday Laughs mic (list at 19:30, show at 20:00).
 */
export function useWednesdayNight(): void {
  useFrozenClock(NOW);
  beforeEach(async () => {
    // Accounts made by these tests are minutes old; the minimum age has its own tests.
    vi.stubEnv("LIST_MIN_ACCOUNT_AGE_HOURS", "0");
    t = newTest();
    host = await createUser(t, { name: "Hana Host" });
    mic = await createSceneItem(t, {
      title: "Wednesday Laughs",
      dayOfWeek: 3,
      startTimeLocal: "20:00",
      listTimeLocal: "19:30",
      performanceMinutes: 7,
      ...VENUE,
    });
    // The host is the mic's approved claimant.
    await t.run(async (ctx) => {
      await ctx.db.insert("micClaims", { micId: mic, claimantId: host.userId, status: "approved" });
    });
  });

  afterEach(() => {
    vi.unstubAllEnvs();
  });
}

export type OpenOptions = Partial<{
  spots: number;
  waitlistSpots: number;
  mode: "first_come" | "lottery";
  drawAt: number;
  bucket: boolean;
  signupOpensAt: number;
  date: string;
  setMinutes: number;
}>;

export async function openList(opts: OpenOptions = {}, by: TestUser = host, micId = mic) {
  return await by.asUser.mutation(api.nightLists.open, {
    micId,
    date: opts.date ?? TONIGHT,
    spots: opts.spots ?? 3,
    waitlistSpots: opts.waitlistSpots ?? 2,
    lightMinutes: 1,
    mode: opts.mode ?? "first_come",
    ...(opts.setMinutes !== undefined ? { setMinutes: opts.setMinutes } : {}),
    ...(opts.drawAt !== undefined ? { drawAt: opts.drawAt } : {}),
    ...(opts.bucket !== undefined ? { bucket: opts.bucket } : {}),
    ...(opts.signupOpensAt !== undefined ? { signupOpensAt: opts.signupOpensAt } : {}),
  });
}

/** The live list as `as` (or a signed-out visitor) sees it: the shared view joined with their own side, as the app does. */
export async function view(as?: TestUser, sinceDate = "2026-11-24", micId = mic) {
  const caller = as ? as.asUser : t;
  const [current, viewer] = await Promise.all([
    t.query(api.nightLists.current, { micId }),
    caller.query(api.nightLists.viewer, { micId }),
  ]);
  return joinViewer(current, viewer, sinceDate);
}

export async function listOf(as?: TestUser) {
  const result = await view(as);
  if (result.list === null) throw new Error("no list");
  return result.list;
}

export const names = (spots: Array<{ name: string }>) => spots.map((s) => s.name);

export async function comics(n: number, prefix = "Comic"): Promise<TestUser[]> {
  const out: TestUser[] = [];
  for (let i = 1; i <= n; i++) out.push(await createUser(t, { name: `${prefix} ${i}`, withStats: true }));
  return out;
}

export async function snapshot() {
  return await t.run(async (ctx) => ({
    lists: await ctx.db.query("nightLists").collect(),
    spots: await ctx.db.query("listSpots").collect(),
    sets: await ctx.db.query("performances").collect(),
    checkIns: await ctx.db.query("checkIns").collect(),
  }));
}
