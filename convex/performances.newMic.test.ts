import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
// Load @date-fns/tz before fake timers replace Date: a TZDate class that
// extends the fake Date loses its time zone.
import "./lib/time";
import { createUser, newTest } from "./testing/test.setup";
import { expectAppError } from "./testing/test.expect";
import { DAY, NOW, nyEvening, stats } from "./testing/test.performances";
import { useFrozenClock } from "./testing/test.clock";

useFrozenClock(NOW);

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
