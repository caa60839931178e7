import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import { expectAppError } from "./test.expect";
import { createSceneItem, createUser, newTest, setsAndFavoritesOf } from "./test.setup";

describe("onboarding.logFirstSet", () => {
  test("logs the set at the mic and favourites it, in one call", async () => {
    const t = newTest();
    const mic = await createSceneItem(t);
    const comic = await createUser(t, { needsOnboarding: true });
    const now = Date.now();
    const result = await comic.asUser.mutation(api.onboarding.logFirstSet, {
      sceneItemId: mic,
      minutes: 8,
      performedAt: now - 60_000,
    });
    expect(result.totalMinutes).toBe(8);
    const { sets, favorites } = await setsAndFavoritesOf(t, comic.userId);
    expect(sets).toHaveLength(1);
    expect(sets[0]).toMatchObject({ minutes: 8, sceneItemId: mic, performedAt: now - 60_000 });
    expect(favorites.map((f) => f.sceneItemId)).toEqual([mic]);
  });

  test("refuses minutes outside the slider's 1 to 30 and leaves nothing behind", async () => {
    const t = newTest();
    const mic = await createSceneItem(t);
    const comic = await createUser(t, { needsOnboarding: true });
    for (const minutes of [0, 31, 2.5]) {
      await expectAppError(
        comic.asUser.mutation(api.onboarding.logFirstSet, { sceneItemId: mic, minutes, performedAt: Date.now() }),
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
    await expect(
      comic.asUser.mutation(api.onboarding.logFirstSet, { sceneItemId: mic, minutes: 5, performedAt: Date.now() }),
    ).rejects.toThrow();
    expect(await setsAndFavoritesOf(t, comic.userId)).toEqual({ sets: [], favorites: [] });
  });

  test("signed-out callers are asked to sign in", async () => {
    const t = newTest();
    const mic = await createSceneItem(t);
    await expectAppError(
      t.mutation(api.onboarding.logFirstSet, { sceneItemId: mic, minutes: 5, performedAt: Date.now() }),
      "NOT_SIGNED_IN",
    );
  });
});
