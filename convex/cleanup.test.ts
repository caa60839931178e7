import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
// Load @date-fns/tz before fake timers replace Date (see schedule.test.ts).
import "./lib/time";
import { scheduleWeek } from "./lib/weeks";
import crons from "./crons";
import { createSceneItem, createUser, newTest, type TestBackend, type SceneItemOverrides } from "./testing/test.setup";

const MIN = 60_000;
const DAY = 24 * 60 * MIN;

let t: TestBackend;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  t = newTest();
});

afterEach(() => {
  vi.useRealTimers();
});

/** Creates the mic and a comedian's entry for it, both at `createdAtMs`. */
async function scheduledMic(createdAtMs: number, overrides: SceneItemOverrides) {
  vi.setSystemTime(createdAtMs);
  const sceneItemId = await createSceneItem(t, overrides);
  const comic = await createUser(t);
  const entryId = await t.run(async (ctx) =>
    ctx.db.insert("scheduleEntries", { userId: comic.userId, sceneItemId, addedAt: createdAtMs }),
  );
  return { sceneItemId, comic, entryId };
}

async function cleanupAt(nowMs: number) {
  vi.setSystemTime(nowMs);
  return await t.mutation(internal.schedule.cleanupCompleted, {});
}

async function entry(entryId: Id<"scheduleEntries">) {
  return await t.run(async (ctx) => ctx.db.get("scheduleEntries", entryId));
}

describe("schedule.cleanupCompleted", () => {
  test("runs every 5 minutes from crons.ts", () => {
    const job = (crons as unknown as { crons: Record<string, { name: string; schedule: unknown }> }).crons[
      "clean up completed schedule entries"
    ];
    expect(job).toMatchObject({ name: "schedule:cleanupCompleted", schedule: { type: "interval", minutes: 5 } });
  });

  // Each row: the item's zone, weekday and time, set length, and the occurrence's start written with its
  // UTC offset, so a zone or DST mistake moves the boundary by an hour and fails.
  test.each([
    ["America/Los_Angeles, spring forward", "America/Los_Angeles", 0, "19:30", 10, "2026-03-08T19:30:00-07:00"],
    ["Europe/London, clocks go forward", "Europe/London", 0, "20:00", 5, "2026-03-29T20:00:00+01:00"],
    ["America/New_York, fall back", "America/New_York", 0, "19:30", 7, "2026-11-01T19:30:00-05:00"],
    ["Asia/Tokyo, no DST", "Asia/Tokyo", 3, "19:00", undefined, "2026-11-25T19:00:00+09:00"],
  ] as const)(
    "%s: not completed 1 ms before start + 60 min + set length, completed at it",
    async (_name, timeZone, dayOfWeek, startTimeLocal, performanceMinutes, startIso) => {
      const start = Date.parse(startIso);
      const boundary = start + (60 + (performanceMinutes ?? 0)) * MIN;
      const { entryId, comic } = await scheduledMic(start - 3 * DAY, {
        timeZone,
        dayOfWeek,
        startTimeLocal,
        performanceMinutes,
      });

      expect(await cleanupAt(boundary - 1)).toEqual({ marked: 0, removed: 0, more: false });
      expect((await entry(entryId))?.completedAt).toBeUndefined();
      const week = scheduleWeek(start, timeZone);
      const view = (nowMs: number) =>
        comic.asUser.query(api.schedule.week, { weekStartMs: week.startMs, weekEndMs: week.endMs, nowMs });
      expect((await view(boundary - 1)).items.map((i) => i.startsAt)).toEqual([start]);

      expect(await cleanupAt(boundary)).toEqual({ marked: 1, removed: 0, more: false });
      expect((await entry(entryId))?.completedAt).toBe(start);
      // Marked done, the occurrence stays hidden even for a client whose clock lags behind.
      expect((await view(boundary - 1)).items).toEqual([]);
      // Running again changes nothing.
      expect(await cleanupAt(boundary + 5 * MIN)).toEqual({ marked: 0, removed: 0, more: false });
    },
  );

  test("a weekly mic stays scheduled: each week's occurrence is marked in turn", async () => {
    const start = Date.parse("2026-11-23T19:30:00-05:00");
    const { entryId, comic } = await scheduledMic(start - DAY, { dayOfWeek: 1, startTimeLocal: "19:30" });
    await cleanupAt(start + 65 * MIN);
    expect((await entry(entryId))?.completedAt).toBe(start);

    const next = start + 7 * DAY;
    expect(await cleanupAt(next + 65 * MIN - 1)).toMatchObject({ marked: 0 });
    expect((await entry(entryId))?.completedAt).toBe(start);
    await cleanupAt(next + 65 * MIN);
    expect((await entry(entryId))?.completedAt).toBe(next);

    const following = scheduleWeek(next + 7 * DAY, "America/New_York");
    const week = await comic.asUser.query(api.schedule.week, {
      weekStartMs: following.startMs,
      weekEndMs: following.endMs,
      nowMs: next + 65 * MIN,
    });
    expect(week.items.map((i) => i.startsAt)).toEqual([next + 7 * DAY]);
  });

  test("after a missed run the latest finished occurrence is marked", async () => {
    const start = Date.parse("2026-11-23T19:30:00-05:00");
    const { entryId } = await scheduledMic(start - DAY, { dayOfWeek: 1, startTimeLocal: "19:30" });
    await cleanupAt(start + 14 * DAY + 2 * 60 * MIN);
    expect((await entry(entryId))?.completedAt).toBe(start + 14 * DAY);
  });

  test("occurrences over before the mic was added are not marked", async () => {
    const start = Date.parse("2026-11-23T19:30:00-05:00");
    // Added on Tuesday: Monday's spot was never on this schedule.
    const { entryId } = await scheduledMic(start + DAY, { dayOfWeek: 1, startTimeLocal: "19:30" });
    expect(await cleanupAt(start + 2 * DAY)).toEqual({ marked: 0, removed: 0, more: false });
    expect((await entry(entryId))?.completedAt).toBeUndefined();
  });

  test("a one-time show is removed once it is over; one still to come is kept", async () => {
    // Created on Saturday 2026-11-21: it runs on Monday 2026-11-23 at 19:30.
    const created = Date.parse("2026-11-21T12:00:00-05:00");
    const show = await scheduledMic(created, { recurrence: "one-time", dayOfWeek: 1, startTimeLocal: "19:30" });
    const later = await scheduledMic(created, { recurrence: "one-time", dayOfWeek: 4, startTimeLocal: "19:30" });
    const start = Date.parse("2026-11-23T19:30:00-05:00");
    expect(await cleanupAt(start + 65 * MIN - 1)).toEqual({ marked: 0, removed: 0, more: false });
    expect(await entry(show.entryId)).not.toBeNull();
    expect(await cleanupAt(start + 65 * MIN)).toEqual({ marked: 0, removed: 1, more: false });
    expect(await entry(show.entryId)).toBeNull();
    expect(await entry(later.entryId)).not.toBeNull();
  });

  test("an entry whose mic was deleted is removed", async () => {
    const { entryId, sceneItemId } = await scheduledMic(Date.parse("2026-11-21T12:00:00-05:00"), {});
    await t.run(async (ctx) => ctx.db.delete("sceneItems", sceneItemId));
    expect(await cleanupAt(Date.parse("2026-11-21T12:05:00-05:00"))).toEqual({ marked: 0, removed: 1, more: false });
    expect(await entry(entryId)).toBeNull();
  });

  test("works through more entries than one batch by rescheduling itself", async () => {
    vi.useRealTimers();
    vi.useFakeTimers();
    const start = Date.parse("2026-11-23T19:30:00-05:00");
    vi.setSystemTime(start - DAY);
    const sceneItemId = await createSceneItem(t, { dayOfWeek: 1, startTimeLocal: "19:30" });
    const comic = await createUser(t);
    const ids = await t.run(async (ctx) => {
      const out: Id<"scheduleEntries">[] = [];
      for (let i = 0; i < 130; i++) {
        out.push(await ctx.db.insert("scheduleEntries", { userId: comic.userId, sceneItemId, addedAt: start - DAY }));
      }
      return out;
    });
    vi.setSystemTime(start + 65 * MIN);
    expect(await t.mutation(internal.schedule.cleanupCompleted, {})).toEqual({ marked: 100, removed: 0, more: true });
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    const marks = await t.run(async (ctx) =>
      Promise.all(ids.map(async (id) => (await ctx.db.get("scheduleEntries", id))?.completedAt)),
    );
    expect(marks.every((m) => m === start)).toBe(true);
  });
});
