/**
 * The set limits of rateLimits.ts: logging (the wizard, its new-mic path and
 * onboarding's first set share one allowance per comedian) and editing sets.
 * A real night and a month's back-fill in one sitting get through; a loop is
 * refused with a message, and a refused call writes nothing.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
// Load @date-fns/tz before fake timers replace Date: a TZDate class that
// extends the fake Date loses its time zone.
import "./lib/time";
import { readCommunityTotals } from "./model/stats";
import { expectAppError } from "./testing/test.expect";
import { checkAllInvariants } from "./testing/test.invariants";
import { HOUR, log, NOW, nyEvening, stats } from "./testing/test.performances";
import { createSceneItem, createUser, newTest, type TestBackend, type TestUser } from "./testing/test.setup";

// Hundreds of sets through the triggers take a while on a busy machine.
vi.setConfig({ testTimeout: 120_000 });

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
});
afterEach(() => {
  vi.useRealTimers();
});

const MINUTE = 60_000;
const LIMITED_LOG = /^You have logged a lot of sets at once\. Please try again in (a minute|\d+ minutes)\.$/;

/** The sets, derived rows and community totals, to show a refusal wrote nothing. */
async function setRows(t: TestBackend): Promise<unknown[]> {
  return await t.run(async (ctx) => [
    await readCommunityTotals(ctx),
    ...(await ctx.db.query("performances").collect()),
    ...(await ctx.db.query("userStats").collect()),
    ...(await ctx.db.query("performanceDays").collect()),
    ...(await ctx.db.query("venueVisits").collect()),
    ...(await ctx.db.query("sceneItems").collect()),
    ...(await ctx.db.query("favorites").collect()),
  ]);
}

/** Back-fills a past month from a notebook: `perNight` sets on each of the last 30 evenings, oldest first. */
async function backFillMonth(comic: TestUser, mic: Id<"sceneItems">, perNight: number): Promise<void> {
  for (let daysAgo = 29; daysAgo >= 0; daysAgo--) {
    for (let k = 0; k < perNight; k++) {
      await log(comic, mic, 5, nyEvening(daysAgo) + k * 20 * MINUTE);
    }
  }
}

const NEW_MIC = {
  venue: { venueName: "The Back Room", address: "9 Side St, Brooklyn, NY" },
  details: {
    type: "open_mic" as const,
    title: "Back Room Mic",
    dayOfWeek: 2,
    startTimeLocal: "20:00",
    recurrence: "weekly" as const,
    signupMethod: "in_person" as const,
  },
};

describe("logging sets", () => {
  test("a month's back-fill of five sets a night (150) in one go passes; the 151st is refused and writes nothing", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const other = await createUser(t);
    const mic = await createSceneItem(t);
    await backFillMonth(comic, mic, 5);
    expect(await stats(comic)).toMatchObject({ totalSets: 150, currentStreak: 30 });

    const before = await setRows(t);
    const data = await expectAppError(log(comic, mic, 5, nyEvening(0)), "RATE_LIMITED", LIMITED_LOG);
    expect(data).toMatchObject({ limit: "logSet", retryAfterMs: expect.any(Number) });
    expect(await setRows(t)).toEqual(before);

    // Per comedian: another one logs at once; the comedian may again a minute later.
    await log(other, mic, 5, nyEvening(0));
    vi.setSystemTime(NOW + MINUTE);
    await log(comic, mic, 5, nyEvening(0));
    expect((await stats(comic)).totalSets).toBe(151);
    expect(await checkAllInvariants(t)).toEqual({ ok: true, problems: [] });
  });

  test("a real night (six sets over the evening) and a long back-fill at a set every 30 seconds are never refused", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const mic = await createSceneItem(t);
    // Tonight: six sets, one every 20 minutes, each logged after it.
    for (let k = 0; k < 6; k++) {
      vi.setSystemTime(NOW - 2 * HOUR + k * 20 * MINUTE);
      await log(comic, mic, 7, Date.now() - MINUTE);
    }
    vi.setSystemTime(NOW);
    // The same evening, two months of notebook (four a night, 240 sets, more than the 150 at once) typed in
    // at a wizard pass every 30 seconds: the allowance refills one a minute meanwhile.
    for (let daysAgo = 60; daysAgo > 0; daysAgo--) {
      for (let k = 0; k < 4; k++) {
        await log(comic, mic, 5, nyEvening(daysAgo) + k * 20 * MINUTE);
        vi.setSystemTime(Date.now() + 30_000);
      }
    }
    expect((await stats(comic)).totalSets).toBe(6 + 240);
  });

  test("the new-mic path and onboarding's first set share the allowance", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const mic = await createSceneItem(t);
    await backFillMonth(comic, mic, 5);
    const before = await setRows(t);
    const newMic = comic.asUser.mutation(api.performances.logWithNewMic, {
      set: { minutes: 6, performedAt: nyEvening(0), tags: [] },
      ...NEW_MIC,
      alsoAddToScene: true,
    });
    expect(await expectAppError(newMic, "RATE_LIMITED", LIMITED_LOG)).toMatchObject({ limit: "logSet" });
    const firstSet = comic.asUser.mutation(api.onboarding.logFirstSet, { sceneItemId: mic, minutes: 5 });
    expect(await expectAppError(firstSet, "RATE_LIMITED", LIMITED_LOG)).toMatchObject({ limit: "logSet" });
    expect(await setRows(t)).toEqual(before);
  });

  test("the new-mic path spends the add-event allowance when it adds a mic to the scene", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const logAt = (i: number, alsoAddToScene: boolean) =>
      comic.asUser.mutation(api.performances.logWithNewMic, {
        set: { minutes: 6, performedAt: nyEvening(0), tags: [] },
        venue: NEW_MIC.venue,
        // A different night each: the same slot twice links the comedian's existing mic instead.
        details: {
          ...NEW_MIC.details,
          title: `Back Room Mic ${i}`,
          dayOfWeek: i % 7,
          startTimeLocal: `${18 + (i % 3)}:00`,
        },
        alsoAddToScene,
      });
    const mics = new Set<string | null>();
    for (let i = 0; i < 10; i++) mics.add((await logAt(i, true)).sceneItemId);
    expect(mics.size).toBe(10);
    expect(mics.has(null)).toBe(false);
    const before = await setRows(t);
    const data = await expectAppError(
      logAt(10, true),
      "RATE_LIMITED",
      /^You have added a lot of events today\. Please try again in \d+ (minutes|hours)\.$/,
    );
    expect(data).toMatchObject({ limit: "createMic" });
    expect(await setRows(t)).toEqual(before);
    // A one-off set at a venue by name adds no mic and still logs.
    expect((await logAt(10, false)).sceneItemId).toBeNull();
  });
});

describe("editing sets", () => {
  test("60 edits at once pass, the 61st is refused and writes nothing; deletes are not limited", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const mic = await createSceneItem(t);
    const { performanceId: id } = await log(comic, mic, 5, nyEvening(1));
    const edit = (minutes: number) =>
      comic.asUser.mutation(api.performances.update, { id, minutes, performedAt: nyEvening(1) });
    for (let i = 0; i < 60; i++) await edit(5 + (i % 2));
    const before = await setRows(t);
    const data = await expectAppError(
      edit(30),
      "RATE_LIMITED",
      /^Too many edits\. Please try again in (a minute|\d+ minutes)\.$/,
    );
    expect(data).toMatchObject({ limit: "editSet" });
    expect(await setRows(t)).toEqual(before);
    vi.setSystemTime(NOW + MINUTE);
    expect((await edit(30)).totalMinutes).toBe(30);

    // Deleting is bounded by logging, not limited itself.
    const more: Id<"performances">[] = [];
    for (let i = 0; i < 3; i++) more.push((await log(comic, mic, 5, nyEvening(2) - i * HOUR)).performanceId);
    for (const set of [id, ...more]) await comic.asUser.mutation(api.performances.remove, { id: set });
    expect((await stats(comic)).totalSets).toBe(0);
  });
});
