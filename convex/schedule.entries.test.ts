import { describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
// Load @date-fns/tz before fake timers replace Date: a TZDate class that
// extends the fake Date loses its time zone (every date comes out in UTC).
import "./lib/time";
import { createSceneItem, createUser } from "./testing/test.setup";
import { expectAppError } from "./testing/test.expect";
import { DAY, NOW, entries, t, useSaturdayNoon } from "./testing/test.schedule";

useSaturdayNoon();

describe("schedule.add", () => {
  test("signed-out callers are asked to sign in", async () => {
    const mic = await createSceneItem(t);
    await expectAppError(
      t.mutation(api.schedule.add, { sceneItemId: mic }),
      "NOT_SIGNED_IN",
      "Please sign in to add events to your schedule",
    );
  });

  test("adds the entry and returns the next occurrence", async () => {
    // Monday 19:30 weekly: next is Monday 2026-11-23 19:30 New York.
    const mic = await createSceneItem(t, { dayOfWeek: 1, startTimeLocal: "19:30" });
    const comic = await createUser(t);
    const result = await comic.asUser.mutation(api.schedule.add, { sceneItemId: mic });
    expect(result.nextOccurrence).toBe(Date.parse("2026-11-23T19:30:00-05:00"));
    expect(await entries(t, comic.userId)).toEqual([
      expect.objectContaining({ _id: result.entryId, sceneItemId: mic, addedAt: NOW }),
    ]);
    const state = await comic.asUser.query(api.scene.viewerState, { sinceMs: 0 });
    expect(state?.schedule).toEqual([{ entryId: result.entryId, sceneItemId: mic, addedAt: NOW }]);
  });

  test("a one-time show has a next occurrence until it has passed", async () => {
    // Created on Saturday: it runs on the first Monday after, 2026-11-23 19:30.
    const mic = await createSceneItem(t, {
      recurrence: "one-time",
      dayOfWeek: 1,
      startTimeLocal: "19:30",
    });
    const [early, late] = [await createUser(t), await createUser(t)];
    const before = await early.asUser.mutation(api.schedule.add, { sceneItemId: mic });
    expect(before.nextOccurrence).toBe(Date.parse("2026-11-23T19:30:00-05:00"));
    vi.setSystemTime(Date.parse("2026-11-24T12:00:00-05:00"));
    const after = await late.asUser.mutation(api.schedule.add, { sceneItemId: mic });
    expect(after.nextOccurrence).toBeNull();
  });

  test("an item without a day or start time has an incomplete schedule", async () => {
    const noDay = await createSceneItem(t, { dayOfWeek: null });
    const noTime = await createSceneItem(t, { startTimeLocal: undefined });
    const comic = await createUser(t);
    for (const sceneItemId of [noDay, noTime]) {
      await expectAppError(
        comic.asUser.mutation(api.schedule.add, { sceneItemId }),
        "INCOMPLETE_SCHEDULE",
        "This event doesn't have a complete schedule",
      );
    }
    expect(await entries(t, comic.userId)).toEqual([]);
  });

  test("the same item within 7 days is refused, after 7 days allowed", async () => {
    const mic = await createSceneItem(t);
    const comic = await createUser(t);
    await comic.asUser.mutation(api.schedule.add, { sceneItemId: mic });
    vi.setSystemTime(NOW + 7 * DAY - 1);
    await expectAppError(
      comic.asUser.mutation(api.schedule.add, { sceneItemId: mic }),
      "ALREADY_EXISTS",
      "Already in your schedule",
    );
    // Another comedian may add it.
    const other = await createUser(t);
    await other.asUser.mutation(api.schedule.add, { sceneItemId: mic });

    vi.setSystemTime(NOW + 7 * DAY);
    await comic.asUser.mutation(api.schedule.add, { sceneItemId: mic });
    expect(await entries(t, comic.userId)).toHaveLength(2);
  });

  test("a missing or inactive item is not found", async () => {
    const inactive = await createSceneItem(t, { status: "inactive" });
    const comic = await createUser(t);
    await expectAppError(
      comic.asUser.mutation(api.schedule.add, { sceneItemId: inactive }),
      "NOT_FOUND",
      "Event not found",
    );
  });
});

describe("schedule.remove and removeByItem", () => {
  test("the owner removes an entry; anyone else is refused", async () => {
    const mic = await createSceneItem(t);
    const [owner, other] = [await createUser(t), await createUser(t)];
    const { entryId } = await owner.asUser.mutation(api.schedule.add, { sceneItemId: mic });
    await expectAppError(
      other.asUser.mutation(api.schedule.remove, { entryId }),
      "NOT_FOUND",
      "Event not found in your schedule",
    );
    await expectAppError(t.mutation(api.schedule.remove, { entryId }), "NOT_SIGNED_IN");
    expect(await entries(t, owner.userId)).toHaveLength(1);

    expect(await owner.asUser.mutation(api.schedule.remove, { entryId })).toBeNull();
    expect(await entries(t, owner.userId)).toEqual([]);
    await expectAppError(
      owner.asUser.mutation(api.schedule.remove, { entryId }),
      "NOT_FOUND",
      "Event not found in your schedule",
    );
  });

  test("removeByItem removes only the caller's entries for that item", async () => {
    const mic = await createSceneItem(t);
    const otherMic = await createSceneItem(t);
    const [me, you] = [await createUser(t), await createUser(t)];
    await me.asUser.mutation(api.schedule.add, { sceneItemId: mic });
    await me.asUser.mutation(api.schedule.add, { sceneItemId: otherMic });
    await you.asUser.mutation(api.schedule.add, { sceneItemId: mic });

    expect(await me.asUser.mutation(api.schedule.removeByItem, { sceneItemId: mic })).toBeNull();
    expect((await entries(t, me.userId)).map((e) => e.sceneItemId)).toEqual([otherMic]);
    expect(await entries(t, you.userId)).toHaveLength(1);
    await expectAppError(
      me.asUser.mutation(api.schedule.removeByItem, { sceneItemId: mic }),
      "NOT_FOUND",
      "Event not found in your schedule",
    );
  });
});
