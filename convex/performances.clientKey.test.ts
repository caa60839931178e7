import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import "./lib/time";
import { createUser, newComicAndMic } from "./testing/test.setup";
import { expectAppError } from "./testing/test.expect";
import { NOW, nyEvening } from "./testing/test.performances";
import { useFrozenClock } from "./testing/test.clock";

useFrozenClock(NOW);

const KEY = "3f0c2a9e-1b7d-4c55-9a0e-7d2b5c8e1f42";

describe("performances.log with a clientKey (the offline outbox)", () => {
  test("a resent set is logged once and answers as the first send did", async () => {
    const { t, comic, mic } = await newComicAndMic();
    const set = { minutes: 6, performedAt: nyEvening(0), tags: [], sceneItemId: mic, clientKey: KEY };
    const first = await comic.asUser.mutation(api.performances.log, set);
    const again = await comic.asUser.mutation(api.performances.log, set);
    expect(again).toEqual({ performanceId: first.performanceId, totalMinutes: 6, newBadges: [] });
    const sets = await t.run(async (ctx) =>
      ctx.db
        .query("performances")
        .withIndex("by_user_and_performedAt", (q) => q.eq("userId", comic.userId))
        .collect(),
    );
    expect(sets).toHaveLength(1);
  });

  test("keys are per comedian, and sets without a key are never merged", async () => {
    const { t, comic, mic } = await newComicAndMic();
    const other = await createUser(t, { email: "other@example.com" });
    const set = { minutes: 5, performedAt: nyEvening(0), tags: [], sceneItemId: mic };
    await comic.asUser.mutation(api.performances.log, { ...set, clientKey: KEY });
    const theirs = await other.asUser.mutation(api.performances.log, { ...set, clientKey: KEY });
    expect(theirs.totalMinutes).toBe(5);
    await comic.asUser.mutation(api.performances.log, set);
    const again = await comic.asUser.mutation(api.performances.log, set);
    expect(again.totalMinutes).toBe(15);
  });

  test.each(["short", "x".repeat(65), "has spaces in it ok", "drop;table--0123456"])(
    "rejects the key %j",
    async (key) => {
      const { comic, mic } = await newComicAndMic();
      await expectAppError(
        comic.asUser.mutation(api.performances.log, {
          minutes: 5,
          performedAt: nyEvening(0),
          tags: [],
          sceneItemId: mic,
          clientKey: key,
        }),
        "INVALID_INPUT",
      );
    },
  );
});

describe("performances.logWithNewMic with a clientKey", () => {
  const newMic = {
    set: { minutes: 8, performedAt: nyEvening(0), tags: [] },
    venue: { venueName: "The Cellar Door", address: "4 Low St, Brooklyn, NY" },
    details: {
      type: "open_mic" as const,
      title: "Cellar Mic",
      dayOfWeek: 2,
      startTimeLocal: "20:00",
      recurrence: "weekly" as const,
      signupMethod: "in_person" as const,
    },
    alsoAddToScene: true,
    clientKey: KEY,
  };

  test("a resend neither adds the mic again nor logs the set twice", async () => {
    const { t, comic } = await newComicAndMic();
    const first = await comic.asUser.mutation(api.performances.logWithNewMic, newMic);
    const again = await comic.asUser.mutation(api.performances.logWithNewMic, newMic);
    expect(again).toEqual({ ...first, newBadges: [] });
    const [sets, mics] = await t.run(async (ctx) => [
      await ctx.db
        .query("performances")
        .withIndex("by_user_and_performedAt", (q) => q.eq("userId", comic.userId))
        .collect(),
      await ctx.db
        .query("sceneItems")
        .withIndex("by_createdBy", (q) => q.eq("createdBy", comic.userId))
        .collect(),
    ]);
    expect(sets).toHaveLength(1);
    expect(mics.map((m) => m.title)).toEqual(["Cellar Mic"]);
  });

  test("a key already used by a plain log answers with that set", async () => {
    const { comic, mic } = await newComicAndMic();
    const logged = await comic.asUser.mutation(api.performances.log, {
      minutes: 5,
      performedAt: nyEvening(0),
      tags: [],
      sceneItemId: mic,
      clientKey: KEY,
    });
    const again = await comic.asUser.mutation(api.performances.logWithNewMic, newMic);
    expect(again).toEqual({ ...logged, newBadges: [], sceneItemId: mic });
  });
});

describe("performances.loggedWith (a page waiting on the outbox)", () => {
  test("answers null until the set sent under the key is logged, then the set and the new total", async () => {
    const { t, comic, mic } = await newComicAndMic();
    expect(await comic.asUser.query(api.performances.loggedWith, { clientKey: KEY })).toBeNull();
    const set = { minutes: 6, performedAt: nyEvening(0), tags: [], sceneItemId: mic };
    await comic.asUser.mutation(api.performances.log, { ...set, minutes: 4 });
    const { performanceId } = await comic.asUser.mutation(api.performances.log, { ...set, clientKey: KEY });
    expect(await comic.asUser.query(api.performances.loggedWith, { clientKey: KEY })).toEqual({
      performanceId,
      totalMinutes: 10,
    });
    // Another comedian with the same key learns nothing of this set.
    const other = await createUser(t, { email: "other@example.com" });
    expect(await other.asUser.query(api.performances.loggedWith, { clientKey: KEY })).toBeNull();
  });

  test("refuses a malformed key and a caller who is not signed in", async () => {
    const { t, comic } = await newComicAndMic();
    await expectAppError(
      comic.asUser.query(api.performances.loggedWith, { clientKey: "x".repeat(65) }),
      "INVALID_INPUT",
    );
    await expectAppError(t.query(api.performances.loggedWith, { clientKey: KEY }), "NOT_SIGNED_IN");
  });
});
