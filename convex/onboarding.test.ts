import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import { expectAppError } from "./testing/test.expect";
import { useFrozenClock } from "./testing/test.clock";
import { createSceneItem, createUser, newTest, setsAndFavoritesOf } from "./testing/test.setup";

// Wednesday 2026-11-25, 15:00 in New York.
useFrozenClock(Date.parse("2026-11-25T15:00:00-05:00"));

describe("onboarding.logFirstSet", () => {
  test("logs the set at the mic's last night and favourites it, in one call", async () => {
    const t = newTest();
    // Mondays at 19:30 in New York; onboarding runs on Wednesday afternoon.
    const mic = await createSceneItem(t, { dayOfWeek: 1, startTimeLocal: "19:30", timeZone: "America/New_York" });
    const comic = await createUser(t, { needsOnboarding: true });
    const result = await comic.asUser.mutation(api.onboarding.logFirstSet, { sceneItemId: mic, minutes: 8 });
    expect(result.totalMinutes).toBe(8);
    const { sets, favorites } = await setsAndFavoritesOf(t, comic.userId);
    expect(sets).toHaveLength(1);
    expect(sets[0]).toMatchObject({
      minutes: 8,
      sceneItemId: mic,
      performedAt: Date.parse("2026-11-23T19:30:00-05:00"),
      performanceDate: "2026-11-23",
    });
    expect(favorites.map((f) => f.sceneItemId)).toEqual([mic]);
  });

  test("a mic that starts later tonight was last on a week ago", async () => {
    const t = newTest();
    const mic = await createSceneItem(t, { dayOfWeek: 3, startTimeLocal: "20:00", timeZone: "America/New_York" });
    const comic = await createUser(t, { needsOnboarding: true });
    await comic.asUser.mutation(api.onboarding.logFirstSet, { sceneItemId: mic, minutes: 5 });
    const { sets } = await setsAndFavoritesOf(t, comic.userId);
    expect(sets[0]).toMatchObject({ performedAt: Date.parse("2026-11-18T20:00:00-05:00") });
  });

  test("refuses minutes outside the slider's 1 to 30 and leaves nothing behind", async () => {
    const t = newTest();
    const mic = await createSceneItem(t);
    const comic = await createUser(t, { needsOnboarding: true });
    for (const minutes of [0, 31, 2.5]) {
      await expectAppError(
        comic.asUser.mutation(api.onboarding.logFirstSet, { sceneItemId: mic, minutes }),
        "INVALID_INPUT",
        "Set length must be 1 to 30 minutes",
      );
    }
    expect(await setsAndFavoritesOf(t, comic.userId)).toEqual({ sets: [], favorites: [] });
  });

  test("an inactive mic leaves neither a set nor a favourite behind", async () => {
    const t = newTest();
    const mic = await createSceneItem(t, { status: "inactive" });
    const comic = await createUser(t, { needsOnboarding: true });
    await expect(comic.asUser.mutation(api.onboarding.logFirstSet, { sceneItemId: mic, minutes: 5 })).rejects.toThrow();
    expect(await setsAndFavoritesOf(t, comic.userId)).toEqual({ sets: [], favorites: [] });
  });

  test("signed-out callers are asked to sign in", async () => {
    const t = newTest();
    const mic = await createSceneItem(t);
    await expectAppError(t.mutation(api.onboarding.logFirstSet, { sceneItemId: mic, minutes: 5 }), "NOT_SIGNED_IN");
  });
});
