import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
// Load @date-fns/tz before fake timers replace Date: a TZDate class that
// extends the fake Date loses its time zone.
import "./lib/time";
import { createSceneItem, createUser, newComicAndMic, newTest } from "./testing/test.setup";
import { expectAppError } from "./testing/test.expect";
import { DAY, NOW, nyEvening, log, stats, rows, badgeCodes, ZERO_STATS } from "./testing/test.performances";
import { useFrozenClock } from "./testing/test.clock";

useFrozenClock(NOW);

describe("performances.log", () => {
  test("logs a set and moves totals, day and venue rows, community minutes and first_set", async () => {
    const { t, comic, mic } = await newComicAndMic();
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
    const { t, comic, mic } = await newComicAndMic();
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
    const { comic, mic } = await newComicAndMic();
    const future = "Set date cannot be in the future";
    await expectAppError(log(comic, mic, 5, NOW + 10 * 60_000), "INVALID_INPUT", future);
    await expectAppError(log(comic, mic, 5, NOW + DAY), "INVALID_INPUT", future);
    // Within the clock-skew allowance is fine.
    await log(comic, mic, 5, NOW + 4 * 60_000);
    for (const minutes of [0, -1, 601, 2.5, Number.NaN]) {
      await expectAppError(
        log(comic, mic, minutes, NOW),
        "INVALID_INPUT",
        "Minutes must be a whole number from 1 to 600",
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

  test("a set of 1 or 600 minutes is logged; 0 minutes is no set and is refused", async () => {
    const { comic, mic } = await newComicAndMic();
    await log(comic, mic, 1, nyEvening(0));
    await log(comic, mic, 600, nyEvening(0));
    await expectAppError(
      log(comic, mic, 0, nyEvening(0)),
      "INVALID_INPUT",
      "Minutes must be a whole number from 1 to 600",
    );
    expect(await stats(comic)).toMatchObject({ totalMinutes: 601, totalSets: 2 });
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

describe("performances.update and remove", () => {
  test("an edit moves minutes, notes and tags; null clears them and absent keeps them", async () => {
    const { t, comic, mic } = await newComicAndMic();
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
    // The history dialog's edit cannot leave a 0-minute set either.
    await expectAppError(
      comic.asUser.mutation(api.performances.update, { id: performanceId, minutes: 0, performedAt: nyEvening(0) }),
      "INVALID_INPUT",
      "Minutes must be a whole number from 1 to 600",
    );
    expect(await stats(comic)).toMatchObject({ totalMinutes: 12, totalSets: 1 });
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
    expect(await stats(comic)).toEqual(ZERO_STATS);
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
