import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
// Load @date-fns/tz before fake timers replace Date: a TZDate class that
// extends the fake Date loses its time zone.
import "./lib/time";
import { computeStreaks } from "./lib/streaks";
import { localDateString } from "./lib/time";
import { readCommunityTotals } from "./model/stats";
import { createSceneItem, createUser, newTest, type TestBackend, type TestUser } from "./test.setup";
import { expectAppError } from "./test.expect";

const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;
/** Friday 2026-11-20, 22:00 in New York (UTC-5). */
const NOW = Date.parse("2026-11-20T22:00:00-05:00");
/** 20:00 New York time `daysAgo` days before NOW's date. */
const nyEvening = (daysAgo: number) => Date.parse("2026-11-20T20:00:00-05:00") - daysAgo * DAY;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
});
afterEach(() => {
  vi.useRealTimers();
});

async function log(
  comic: TestUser,
  sceneItemId: Id<"sceneItems"> | undefined,
  minutes: number,
  performedAt: number,
  extra: { tags?: string[]; notes?: string; timeZone?: string; venueName?: string } = {},
) {
  return await comic.asUser.mutation(api.performances.log, {
    minutes,
    performedAt,
    sceneItemId,
    tags: extra.tags ?? [],
    notes: extra.notes,
    timeZone: extra.timeZone,
    venueName: extra.venueName,
  });
}

async function stats(comic: TestUser) {
  return await comic.asUser.query(api.stats.mine, {});
}

async function rows(t: TestBackend, userId: Id<"users">) {
  return await t.run(async (ctx) => ({
    days: (
      await ctx.db
        .query("performanceDays")
        .withIndex("by_user_and_date", (q) => q.eq("userId", userId))
        .collect()
    ).map((d) => [d.date, d.sets]),
    visits: (
      await ctx.db
        .query("venueVisits")
        .withIndex("by_user_and_item", (q) => q.eq("userId", userId))
        .collect()
    ).map((d) => [d.sceneItemId, d.sets]),
    siteMinutes: (await readCommunityTotals(ctx)).minutesLogged,
    profile: await ctx.db
      .query("profiles")
      .withIndex("by_userId", (q) => q.eq("userId", userId))
      .unique(),
  }));
}

async function badgeCodes(comic: TestUser) {
  return (await comic.asUser.query(api.badges.mine, {})).map((b) => b.code);
}

describe("performances.log", () => {
  test("logs a set and moves totals, day and venue rows, community minutes and first_set", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const mic = await createSceneItem(t);
    const result = await log(comic, mic, 7, nyEvening(0), {
      tags: [" crowd work ", "Crowd Work", "", "riff"],
      notes: " killed ",
    });
    expect(result.totalMinutes).toBe(7);
    expect(result.newBadges).toEqual(["first_set"]);

    const set = await t.run(async (ctx) => ctx.db.get("performances", result.performanceId));
    expect(set).toMatchObject({
      userId: comic.userId,
      minutes: 7,
      performanceDate: "2026-11-20",
      sceneItemId: mic,
      tags: ["crowd work", "riff"],
      notes: "killed",
    });
    expect(await stats(comic)).toEqual({
      totalMinutes: 7,
      totalSets: 1,
      uniqueVenues: 1,
      currentStreak: 1,
      longestStreak: 1,
      venuesAdded: 0,
    });
    const r = await rows(t, comic.userId);
    expect(r.days).toEqual([["2026-11-20", 1]]);
    expect(r.visits).toEqual([[mic, 1]]);
    expect(r.siteMinutes).toBe(7);
    expect(await badgeCodes(comic)).toEqual(["first_set"]);
  });

  test("a set without a scene item keeps its venue name and counts no venue", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const result = await log(comic, undefined, 10, nyEvening(1), { venueName: "  Somebody's Loft " });
    const set = await t.run(async (ctx) => ctx.db.get("performances", result.performanceId));
    expect(set?.venueName).toBe("Somebody's Loft");
    expect(set?.sceneItemId).toBeUndefined();
    expect((await stats(comic)).uniqueVenues).toBe(0);
    await expectAppError(log(comic, undefined, 5, nyEvening(1)), "INVALID_INPUT", "Please select a venue first.");
  });

  test("the date is the comedian's local date; the first zone passed is kept on the profile", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const mic = await createSceneItem(t);
    // 23:30 in Los Angeles on the 19th is already the 20th in New York and UTC.
    const lateInLA = Date.parse("2026-11-19T23:30:00-08:00");
    const { performanceId } = await log(comic, mic, 5, lateInLA, { timeZone: "America/Los_Angeles" });
    const first = await t.run(async (ctx) => ctx.db.get("performances", performanceId));
    expect(first?.performanceDate).toBe("2026-11-19");
    expect((await rows(t, comic.userId)).profile?.timeZone).toBe("America/Los_Angeles");
    // Later calls from another zone still count days in the profile's zone.
    const second = await log(comic, mic, 5, lateInLA, { timeZone: "Europe/Berlin" });
    const set = await t.run(async (ctx) => ctx.db.get("performances", second.performanceId));
    expect(set?.performanceDate).toBe("2026-11-19");
    expect((await rows(t, comic.userId)).profile?.timeZone).toBe("America/Los_Angeles");
  });

  test("refuses sets in the future, bad minutes, long notes and too many or long tags", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const mic = await createSceneItem(t);
    const future = "Set date cannot be in the future";
    await expectAppError(log(comic, mic, 5, NOW + 10 * 60_000), "INVALID_INPUT", future);
    await expectAppError(log(comic, mic, 5, NOW + DAY), "INVALID_INPUT", future);
    // Within the clock-skew allowance is fine.
    await log(comic, mic, 5, NOW + 4 * 60_000);
    for (const minutes of [-1, 601, 2.5, Number.NaN]) {
      await expectAppError(
        log(comic, mic, minutes, NOW),
        "INVALID_INPUT",
        "Minutes must be a whole number from 0 to 600",
      );
    }
    await expectAppError(
      log(comic, mic, 5, NOW, { notes: "x".repeat(2001) }),
      "INVALID_INPUT",
      "Notes must be 2000 characters or fewer",
    );
    await expectAppError(
      log(comic, mic, 5, NOW, { tags: ["y".repeat(41)] }),
      "INVALID_INPUT",
      "Tags must be 40 characters or fewer",
    );
    await expectAppError(
      log(comic, mic, 5, NOW, { tags: Array.from({ length: 21 }, (_, i) => `tag ${i}`) }),
      "INVALID_INPUT",
      "A set can have at most 20 tags",
    );
    await expectAppError(log(comic, mic, 5, NOW, { timeZone: "Mars/Olympus" }), "INVALID_INPUT");
    // Only the one valid set was written.
    expect((await stats(comic)).totalSets).toBe(1);
  });

  test("a zero-minute set counts as a set but adds no minutes", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const mic = await createSceneItem(t);
    await log(comic, mic, 0, nyEvening(0));
    expect(await stats(comic)).toMatchObject({ totalMinutes: 0, totalSets: 1 });
  });

  test("refuses anonymous callers", async () => {
    const t = newTest();
    const mic = await createSceneItem(t);
    await expectAppError(
      t.mutation(api.performances.log, { minutes: 5, performedAt: NOW, sceneItemId: mic, tags: [] }),
      "NOT_SIGNED_IN",
    );
  });
});

describe("badges at their thresholds", () => {
  test("century_club at 100 minutes, not 99", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const mic = await createSceneItem(t);
    await log(comic, mic, 90, nyEvening(0));
    const at99 = await log(comic, mic, 9, nyEvening(0));
    expect(at99.totalMinutes).toBe(99);
    expect(at99.newBadges).toEqual([]);
    const at100 = await log(comic, mic, 1, nyEvening(0));
    expect(at100.newBadges).toEqual(["century_club"]);
    expect((await log(comic, mic, 50, nyEvening(0))).newBadges).toEqual([]);
  });

  test("scene_regular at 10 unique venues, not 9, and repeat venues do not count", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const mics: Id<"sceneItems">[] = [];
    for (let i = 0; i < 10; i++) mics.push(await createSceneItem(t, { venueName: `Room ${i}` }));
    for (let i = 0; i < 9; i++) {
      const r = await log(comic, mics[i], 1, nyEvening(0));
      expect(r.newBadges).not.toContain("scene_regular");
    }
    await log(comic, mics[0], 1, nyEvening(0));
    expect((await stats(comic)).uniqueVenues).toBe(9);
    expect(await badgeCodes(comic)).not.toContain("scene_regular");
    const tenth = await log(comic, mics[9], 1, nyEvening(0));
    expect(tenth.newBadges).toEqual(["scene_regular"]);
    expect((await stats(comic)).uniqueVenues).toBe(10);
  });

  test("streak badges at 3, 7 and 30 consecutive days, each once", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const mic = await createSceneItem(t);
    const earnedOn = new Map<string, number>();
    for (let daysAgo = 29; daysAgo >= 0; daysAgo--) {
      const r = await log(comic, mic, 1, nyEvening(daysAgo));
      for (const code of r.newBadges) earnedOn.set(code, 30 - daysAgo);
    }
    expect(earnedOn.get("first_set")).toBe(1);
    expect(earnedOn.get("streak_3")).toBe(3);
    expect(earnedOn.get("streak_master")).toBe(7);
    expect(earnedOn.get("streak_legend")).toBe(30);
    expect(earnedOn.get("century_club")).toBeUndefined();
    expect(await stats(comic)).toMatchObject({ currentStreak: 30, longestStreak: 30 });
    const codes = await badgeCodes(comic);
    expect(codes.length).toBe(new Set(codes).size);
  });

  test("two days in a row are not a 3-day streak; a set logged for an earlier day can complete one", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const mic = await createSceneItem(t);
    await log(comic, mic, 5, nyEvening(0));
    const two = await log(comic, mic, 5, nyEvening(2));
    expect(two.newBadges).toEqual([]);
    expect(await stats(comic)).toMatchObject({ currentStreak: 1, longestStreak: 1 });
    const filled = await log(comic, mic, 5, nyEvening(1));
    expect(filled.newBadges).toEqual(["streak_3"]);
    expect(await stats(comic)).toMatchObject({ currentStreak: 3, longestStreak: 3 });
  });

  test("badges are never awarded twice, even after the set that earned them is deleted", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const mic = await createSceneItem(t);
    const first = await log(comic, mic, 5, nyEvening(0));
    expect(first.newBadges).toEqual(["first_set"]);
    await comic.asUser.mutation(api.performances.remove, { id: first.performanceId });
    expect(await stats(comic)).toMatchObject({ totalSets: 0, totalMinutes: 0 });
    expect(await badgeCodes(comic)).toEqual(["first_set"]);
    const again = await log(comic, mic, 5, nyEvening(0));
    expect(again.newBadges).toEqual([]);
    expect(await badgeCodes(comic)).toEqual(["first_set"]);
  });
});

describe("streaks across gaps, edits and deletions", () => {
  test("a gap ends the current streak but not the longest", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const mic = await createSceneItem(t);
    for (const daysAgo of [10, 9, 8, 7, 3, 2]) await log(comic, mic, 5, nyEvening(daysAgo));
    // The latest set was two days ago: no current streak.
    expect(await stats(comic)).toMatchObject({ currentStreak: 0, longestStreak: 4 });
    await log(comic, mic, 5, nyEvening(1));
    // Yesterday's set keeps the streak alive until today's set.
    expect(await stats(comic)).toMatchObject({ currentStreak: 3, longestStreak: 4 });
    await log(comic, mic, 5, nyEvening(0));
    expect(await stats(comic)).toMatchObject({ currentStreak: 4, longestStreak: 4 });
  });

  test("two sets on one day count one day; deleting one keeps the day", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const mic = await createSceneItem(t);
    await log(comic, mic, 5, nyEvening(1));
    const a = await log(comic, mic, 5, nyEvening(0));
    await log(comic, mic, 5, nyEvening(0) + HOUR);
    expect((await rows(t, comic.userId)).days).toEqual([
      ["2026-11-19", 1],
      ["2026-11-20", 2],
    ]);
    await comic.asUser.mutation(api.performances.remove, { id: a.performanceId });
    expect((await rows(t, comic.userId)).days).toEqual([
      ["2026-11-19", 1],
      ["2026-11-20", 1],
    ]);
    expect(await stats(comic)).toMatchObject({ currentStreak: 2, totalSets: 2, totalMinutes: 10 });
  });

  test("deleting the middle day breaks the current streak and recomputes the longest", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const mic = await createSceneItem(t);
    const ids: Id<"performances">[] = [];
    for (const daysAgo of [4, 3, 2, 1, 0]) ids.push((await log(comic, mic, 5, nyEvening(daysAgo))).performanceId);
    expect(await stats(comic)).toMatchObject({ currentStreak: 5, longestStreak: 5 });
    // Delete the set of two days ago: 4,3 | 1,0.
    await comic.asUser.mutation(api.performances.remove, { id: ids[2] });
    expect(await stats(comic)).toMatchObject({ currentStreak: 2, longestStreak: 2, totalSets: 4 });
    // Delete today's and yesterday's: the latest set is three days old.
    await comic.asUser.mutation(api.performances.remove, { id: ids[4] });
    await comic.asUser.mutation(api.performances.remove, { id: ids[3] });
    expect(await stats(comic)).toMatchObject({ currentStreak: 0, longestStreak: 2, totalSets: 2 });
    // Earned badges stay.
    expect(await badgeCodes(comic)).toContain("streak_3");
  });

  test("moving a set's date by an edit moves its day", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const mic = await createSceneItem(t);
    await log(comic, mic, 5, nyEvening(2));
    await log(comic, mic, 5, nyEvening(1));
    const moved = await log(comic, mic, 5, nyEvening(6));
    expect(await stats(comic)).toMatchObject({ currentStreak: 2, longestStreak: 2 });
    const r = await comic.asUser.mutation(api.performances.update, {
      id: moved.performanceId,
      minutes: 5,
      performedAt: nyEvening(0),
    });
    expect(r.newBadges).toEqual(["streak_3"]);
    expect(await stats(comic)).toMatchObject({ currentStreak: 3, longestStreak: 3 });
    expect((await rows(t, comic.userId)).days.map(([d]) => d)).toEqual(["2026-11-18", "2026-11-19", "2026-11-20"]);
    // And back again: the streak shrinks, the badge stays.
    await comic.asUser.mutation(api.performances.update, {
      id: moved.performanceId,
      minutes: 5,
      performedAt: nyEvening(6),
    });
    expect(await stats(comic)).toMatchObject({ currentStreak: 2, longestStreak: 2 });
    expect(await badgeCodes(comic)).toContain("streak_3");
  });
});

describe("performances.update and remove", () => {
  test("an edit moves minutes, notes and tags; null clears them and absent keeps them", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const mic = await createSceneItem(t);
    const { performanceId } = await log(comic, mic, 5, nyEvening(0), { notes: "ok", tags: ["riff"] });
    const r = await comic.asUser.mutation(api.performances.update, {
      id: performanceId,
      minutes: 12,
      performedAt: nyEvening(0),
    });
    expect(r.totalMinutes).toBe(12);
    let set = await t.run(async (ctx) => ctx.db.get("performances", performanceId));
    expect(set).toMatchObject({ minutes: 12, notes: "ok", tags: ["riff"] });
    await comic.asUser.mutation(api.performances.update, {
      id: performanceId,
      minutes: 12,
      performedAt: nyEvening(0),
      notes: null,
      tags: null,
    });
    set = await t.run(async (ctx) => ctx.db.get("performances", performanceId));
    expect(set?.notes).toBeUndefined();
    expect(set?.tags).toEqual([]);
    expect(await stats(comic)).toMatchObject({ totalMinutes: 12, totalSets: 1 });
    expect((await rows(t, comic.userId)).siteMinutes).toBe(12);
    await expectAppError(
      comic.asUser.mutation(api.performances.update, { id: performanceId, minutes: 5, performedAt: NOW + DAY }),
      "INVALID_INPUT",
      "Set date cannot be in the future",
    );
  });

  test("unique venues go down only when the last set at a venue is deleted", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const a = await createSceneItem(t, { venueName: "A" });
    const b = await createSceneItem(t, { venueName: "B" });
    const a1 = await log(comic, a, 5, nyEvening(0));
    const a2 = await log(comic, a, 6, nyEvening(0));
    const b1 = await log(comic, b, 7, nyEvening(0));
    expect(await stats(comic)).toMatchObject({ uniqueVenues: 2, totalSets: 3, totalMinutes: 18 });
    await comic.asUser.mutation(api.performances.remove, { id: a1.performanceId });
    expect(await stats(comic)).toMatchObject({ uniqueVenues: 2, totalSets: 2, totalMinutes: 13 });
    await comic.asUser.mutation(api.performances.remove, { id: a2.performanceId });
    expect(await stats(comic)).toMatchObject({ uniqueVenues: 1, totalSets: 1, totalMinutes: 7 });
    expect((await rows(t, comic.userId)).visits).toEqual([[b, 1]]);
    const r = await comic.asUser.mutation(api.performances.remove, { id: b1.performanceId });
    expect(r.totalMinutes).toBe(0);
    expect(await stats(comic)).toEqual({
      totalMinutes: 0,
      totalSets: 0,
      uniqueVenues: 0,
      currentStreak: 0,
      longestStreak: 0,
      venuesAdded: 0,
    });
    const after = await rows(t, comic.userId);
    expect(after.days).toEqual([]);
    expect(after.visits).toEqual([]);
    expect(after.siteMinutes).toBe(0);
  });

  test("only the owner may edit or delete a set", async () => {
    const t = newTest();
    const owner = await createUser(t);
    const other = await createUser(t);
    const mic = await createSceneItem(t);
    const { performanceId } = await log(owner, mic, 5, nyEvening(0));
    await expectAppError(
      other.asUser.mutation(api.performances.update, { id: performanceId, minutes: 50, performedAt: nyEvening(0) }),
      "NOT_FOUND",
      "Performance log not found",
    );
    await expectAppError(
      other.asUser.mutation(api.performances.remove, { id: performanceId }),
      "NOT_FOUND",
      "Performance log not found",
    );
    await expectAppError(t.mutation(api.performances.remove, { id: performanceId }), "NOT_SIGNED_IN");
    await expectAppError(
      t.mutation(api.performances.update, { id: performanceId, minutes: 1, performedAt: nyEvening(0) }),
      "NOT_SIGNED_IN",
    );
    expect(await stats(owner)).toMatchObject({ totalMinutes: 5, totalSets: 1 });
    const set = await t.run(async (ctx) => ctx.db.get("performances", performanceId));
    expect(set?.minutes).toBe(5);
  });
});

const MIC_DETAILS = {
  type: "open_mic" as const,
  title: "Tuesday Night Mic",
  dayOfWeek: 2,
  startTimeLocal: "20:00",
  recurrence: "weekly" as const,
  signupMethod: "in_person" as const,
};
const NEW_VENUE = { venueName: "The Back Room", address: "9 Side St, Brooklyn, NY" };

describe("performances.logWithNewMic", () => {
  test("creates the mic, counts the venue added and logs the set at it", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const r = await comic.asUser.mutation(api.performances.logWithNewMic, {
      set: { minutes: 6, performedAt: nyEvening(0), tags: ["new bits"] },
      venue: NEW_VENUE,
      details: MIC_DETAILS,
      alsoAddToScene: true,
    });
    expect(r.sceneItemId).not.toBeNull();
    expect(r.totalMinutes).toBe(6);
    expect([...r.newBadges].sort()).toEqual(["first_set", "venue_pioneer"]);
    const [item, set] = await t.run(
      async (ctx) =>
        [await ctx.db.get("sceneItems", r.sceneItemId!), await ctx.db.get("performances", r.performanceId)] as const,
    );
    expect(item).toMatchObject({
      title: "Tuesday Night Mic",
      venueName: "The Back Room",
      city: "9 Side St, Brooklyn, NY",
      status: "active",
      createdBy: comic.userId,
      listTimeLocal: "19:30",
      performanceMinutes: 5,
    });
    expect(set).toMatchObject({ sceneItemId: r.sceneItemId, minutes: 6 });
    expect(set?.venueName).toBeUndefined();
    expect(await stats(comic)).toMatchObject({ venuesAdded: 1, uniqueVenues: 1, totalSets: 1 });
  });

  test("a one-time show goes only to the log, keeping its venue name", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const r = await comic.asUser.mutation(api.performances.logWithNewMic, {
      set: { minutes: 15, performedAt: nyEvening(0), tags: [] },
      venue: { venueName: "Barn Party" },
      details: { type: "show", title: "Barn Show", dayOfWeek: 5, startTimeLocal: "21:00", recurrence: "one-time" },
      alsoAddToScene: true,
    });
    expect(r.sceneItemId).toBeNull();
    const set = await t.run(async (ctx) => ctx.db.get("performances", r.performanceId));
    expect(set).toMatchObject({ venueName: "Barn Party", minutes: 15 });
    expect(set?.sceneItemId).toBeUndefined();
    expect(await stats(comic)).toMatchObject({ venuesAdded: 0, totalSets: 1 });
    const items = await t.run(async (ctx) =>
      ctx.db
        .query("sceneItems")
        .withIndex("by_createdBy", (q) => q.eq("createdBy", comic.userId))
        .collect(),
    );
    expect(items).toEqual([]);
  });

  test("without alsoAddToScene no item is created", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const r = await comic.asUser.mutation(api.performances.logWithNewMic, {
      set: { minutes: 5, performedAt: nyEvening(0), tags: [] },
      venue: NEW_VENUE,
      details: MIC_DETAILS,
      alsoAddToScene: false,
    });
    expect(r.sceneItemId).toBeNull();
    expect(r.newBadges).toEqual(["first_set"]);
    expect(await stats(comic)).toMatchObject({ venuesAdded: 0 });
  });

  test("logging again at the comedian's own slot reuses the item instead of duplicating it", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const args = {
      set: { minutes: 5, performedAt: nyEvening(0), tags: [] },
      venue: NEW_VENUE,
      details: MIC_DETAILS,
      alsoAddToScene: true,
    };
    const first = await comic.asUser.mutation(api.performances.logWithNewMic, args);
    const second = await comic.asUser.mutation(api.performances.logWithNewMic, {
      ...args,
      venue: { ...NEW_VENUE, venueName: "the back room" },
    });
    expect(second.sceneItemId).toBe(first.sceneItemId);
    expect(await stats(comic)).toMatchObject({ venuesAdded: 1, uniqueVenues: 1, totalSets: 2 });
  });

  test("an invalid form writes nothing", async () => {
    const t = newTest();
    const comic = await createUser(t);
    await expectAppError(
      comic.asUser.mutation(api.performances.logWithNewMic, {
        set: { minutes: 5, performedAt: nyEvening(0), tags: [] },
        venue: NEW_VENUE,
        details: { ...MIC_DETAILS, recurrence: "custom", customRecurrenceDescription: "whenever" },
        alsoAddToScene: true,
      }),
      "INVALID_INPUT",
      "Please use patterns like 'every 2 weeks', 'quarterly', or 'first Monday of each month'",
    );
    await expectAppError(
      comic.asUser.mutation(api.performances.logWithNewMic, {
        set: { minutes: 5, performedAt: NOW + DAY, tags: [] },
        venue: NEW_VENUE,
        details: MIC_DETAILS,
        alsoAddToScene: true,
      }),
      "INVALID_INPUT",
      "Set date cannot be in the future",
    );
    const counts = await t.run(async (ctx) => ({
      items: (await ctx.db.query("sceneItems").collect()).length,
      sets: (await ctx.db.query("performances").collect()).length,
    }));
    expect(counts).toEqual({ items: 0, sets: 0 });
    expect(await stats(comic)).toMatchObject({ venuesAdded: 0, totalSets: 0 });
  });

  test("refuses anonymous callers", async () => {
    const t = newTest();
    await expectAppError(
      t.mutation(api.performances.logWithNewMic, {
        set: { minutes: 5, performedAt: nyEvening(0), tags: [] },
        venue: NEW_VENUE,
        details: MIC_DETAILS,
        alsoAddToScene: true,
      }),
      "NOT_SIGNED_IN",
    );
  });
});

type Op =
  | { kind: "log"; venue: number; minutes: number; daysAgo: number }
  | { kind: "update"; pick: number; minutes: number; daysAgo: number }
  | { kind: "remove"; pick: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant("log" as const),
    venue: fc.integer({ min: 0, max: 3 }),
    minutes: fc.integer({ min: 0, max: 60 }),
    daysAgo: fc.integer({ min: 0, max: 6 }),
  }),
  fc.record({
    kind: fc.constant("update" as const),
    pick: fc.nat(),
    minutes: fc.integer({ min: 0, max: 60 }),
    daysAgo: fc.integer({ min: 0, max: 6 }),
  }),
  fc.record({ kind: fc.constant("remove" as const), pick: fc.nat() }),
);

describe("stats stay equal to a recount of the sets", () => {
  test("after any sequence of logs, edits and deletes", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 14 }), async (ops) => {
        const t = newTest();
        const comic = await createUser(t);
        const mics: Id<"sceneItems">[] = [];
        for (let i = 0; i < 4; i++) mics.push(await createSceneItem(t, { venueName: `Room ${i}` }));
        const live: Id<"performances">[] = [];
        for (const op of ops) {
          if (op.kind === "log") {
            const r = await log(comic, mics[op.venue], op.minutes, nyEvening(op.daysAgo));
            live.push(r.performanceId);
          } else if (live.length > 0 && op.kind === "update") {
            const id = live[op.pick % live.length];
            await comic.asUser.mutation(api.performances.update, {
              id,
              minutes: op.minutes,
              performedAt: nyEvening(op.daysAgo),
            });
          } else if (live.length > 0 && op.kind === "remove") {
            const [id] = live.splice(op.pick % live.length, 1);
            await comic.asUser.mutation(api.performances.remove, { id });
          }
        }
        const sets = await t.run(async (ctx) =>
          ctx.db
            .query("performances")
            .withIndex("by_user_and_performedAt", (q) => q.eq("userId", comic.userId))
            .collect(),
        );
        const dates = sets.map((p) => p.performanceDate);
        const streaks = computeStreaks(dates, localDateString(NOW, "America/New_York"));
        expect(await stats(comic)).toEqual({
          totalMinutes: sets.reduce((sum, p) => sum + p.minutes, 0),
          totalSets: sets.length,
          uniqueVenues: new Set(sets.map((p) => p.sceneItemId)).size,
          currentStreak: streaks.current,
          longestStreak: streaks.longest,
          venuesAdded: 0,
        });
        const r = await rows(t, comic.userId);
        const perDay = new Map<string, number>();
        for (const d of dates) perDay.set(d, (perDay.get(d) ?? 0) + 1);
        expect(Object.fromEntries(r.days)).toEqual(Object.fromEntries(perDay));
        const perMic = new Map<string, number>();
        for (const p of sets) perMic.set(p.sceneItemId!, (perMic.get(p.sceneItemId!) ?? 0) + 1);
        expect(Object.fromEntries(r.visits)).toEqual(Object.fromEntries(perMic));
        expect(r.siteMinutes).toBe(sets.reduce((sum, p) => sum + p.minutes, 0));
      }),
      { numRuns: 60 },
    );
  }, 60_000);
});
