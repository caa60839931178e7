/**
 * The season's month rows and the goal weeks are kept incrementally by the
 * set triggers. After a random run of logs, edits (new day, month, minutes or
 * mic) and deletions by several comedians, each equals a recount from the sets
 * that are left, and the paged invariant check finds nothing.
 */
import { afterEach, describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { goalWeekStartOf } from "./lib/weekStreaks";
import { checkAllInvariants } from "./testing/test.invariants";
import { createSceneItem, createUser, newTest, type TestUser } from "./testing/test.setup";
import "./lib/time";

const ZONE = "America/New_York";

afterEach(() => {
  vi.useRealTimers();
});

/** A small seeded generator (mulberry32), so a failing run can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

describe("season rollups against a recount from the sets", () => {
  test.each([1, 2, 3])("random logs, edits and deletions (seed %i)", { timeout: 60_000 }, async (seed) => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.parse("2026-11-20T22:00:00-05:00"));
    const next = random(seed);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
    const t = newTest();
    const comics: TestUser[] = [
      await createUser(t, { profile: { timeZone: ZONE } }),
      await createUser(t, { profile: { timeZone: ZONE } }),
    ];
    const mics = [await createSceneItem(t, { title: "A" }), await createSceneItem(t, { title: "B", city: "Boston" })];
    const sets: { comic: TestUser; id: Id<"performances"> }[] = [];
    // Evening times from September to mid-November, across the fall-back DST change.
    const when = () => Date.parse("2026-09-01T01:00:00Z") + Math.floor(next() * 75) * 86_400_000;
    const where = () => (next() < 0.3 ? { venueName: pick(["Room 1", "Room 2"]) } : { sceneItemId: pick(mics) });
    for (let step = 0; step < 40; step++) {
      const roll = next();
      if (roll < 0.55 || sets.length === 0) {
        const comic = pick(comics);
        const { performanceId } = await comic.asUser.mutation(api.performances.log, {
          minutes: 1 + Math.floor(next() * 12),
          performedAt: when(),
          tags: [],
          timeZone: ZONE,
          ...where(),
        });
        sets.push({ comic, id: performanceId });
      } else if (roll < 0.8) {
        const { comic, id } = pick(sets);
        await comic.asUser.mutation(api.performances.update, {
          id,
          minutes: 1 + Math.floor(next() * 12),
          performedAt: when(),
        });
      } else {
        const at = Math.floor(next() * sets.length);
        const [{ comic, id }] = sets.splice(at, 1);
        await comic.asUser.mutation(api.performances.remove, { id });
      }
    }

    const { stored, recount } = await t.run(async (ctx) => {
      const stored: Record<string, unknown> = {};
      const recount: Record<string, unknown> = {};
      for (const comic of comics) {
        const mine = await ctx.db
          .query("performances")
          .withIndex("by_user_and_performedAt", (q) => q.eq("userId", comic.userId))
          .collect();
        const months = new Map<string, { sets: number; minutes: number; days: number[]; mics: Map<string, number> }>();
        const weeks = new Map<string, { sets: number; minutes: number }>();
        for (const s of mine) {
          const month = s.performanceDate.slice(0, 7);
          const m = months.get(month) ?? { sets: 0, minutes: 0, days: new Array(31).fill(0), mics: new Map() };
          m.sets++;
          m.minutes += s.minutes;
          m.days[Number(s.performanceDate.slice(8)) - 1]++;
          const key = s.sceneItemId ?? `venue:${s.venueName}`;
          m.mics.set(key, (m.mics.get(key) ?? 0) + 1);
          months.set(month, m);
          const week = goalWeekStartOf(s.performanceDate);
          const w = weeks.get(week) ?? { sets: 0, minutes: 0 };
          weeks.set(week, { sets: w.sets + 1, minutes: w.minutes + s.minutes });
        }
        recount[comic.userId] = {
          months: [...months.entries()]
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([month, m]) => ({
              month,
              sets: m.sets,
              minutes: m.minutes,
              days: m.days,
              mics: [...m.mics.entries()].sort(([a], [b]) => a.localeCompare(b)),
              otherSets: 0,
            })),
          weeks: [...weeks.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([week, w]) => ({ week, ...w })),
        };
        const rows = await ctx.db
          .query("seasonMonths")
          .withIndex("by_user_and_month", (q) => q.eq("userId", comic.userId))
          .collect();
        const weekRows = await ctx.db
          .query("performanceWeeks")
          .withIndex("by_user_and_week", (q) => q.eq("userId", comic.userId))
          .collect();
        stored[comic.userId] = {
          months: rows.map((r) => ({
            month: r.month,
            sets: r.sets,
            minutes: r.minutes,
            days: r.days,
            mics: r.mics
              .map((m) => [m.sceneItemId ?? `venue:${m.venueName}`, m.sets] as [string, number])
              .sort(([a], [b]) => a.localeCompare(b)),
            otherSets: r.otherSets,
          })),
          weeks: weekRows.map((w) => ({ week: w.weekStart, sets: w.sets, minutes: w.minutes })),
        };
      }
      return { stored, recount };
    });
    expect(stored).toEqual(recount);
    expect(await checkAllInvariants(t)).toEqual({ ok: true, problems: [] });
  });
});
