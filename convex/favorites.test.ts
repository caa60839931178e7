import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import { createSceneItem, createUser, newTest, setsAndFavoritesOf } from "./testing/test.setup";
import { expectAppError } from "./testing/test.expect";

describe("favorites", () => {
  test("signed-out callers are asked to sign in", async () => {
    const t = newTest();
    const mic = await createSceneItem(t);
    await expectAppError(
      t.mutation(api.favorites.add, { sceneItemId: mic }),
      "NOT_SIGNED_IN",
      "Please sign in to add favorites",
    );
    await expectAppError(t.mutation(api.favorites.remove, { sceneItemId: mic }), "NOT_SIGNED_IN");
    await expectAppError(t.query(api.favorites.list, {}), "NOT_SIGNED_IN");
  });

  test("adding twice keeps one row, and never logs a set", async () => {
    const t = newTest();
    const mic = await createSceneItem(t);
    const comic = await createUser(t);
    expect(await comic.asUser.mutation(api.favorites.add, { sceneItemId: mic })).toBeNull();
    await comic.asUser.mutation(api.favorites.add, { sceneItemId: mic });
    expect((await setsAndFavoritesOf(t, comic.userId)).favorites).toHaveLength(1);
    expect((await setsAndFavoritesOf(t, comic.userId)).sets).toEqual([]);
    const state = await comic.asUser.query(api.scene.viewerState, { sinceMs: 0 });
    expect(state?.favoriteIds).toEqual([mic]);
  });

  test("removing is idempotent and only touches the caller's favourite", async () => {
    const t = newTest();
    const mic = await createSceneItem(t);
    const [a, b] = [await createUser(t), await createUser(t)];
    await a.asUser.mutation(api.favorites.add, { sceneItemId: mic });
    await b.asUser.mutation(api.favorites.add, { sceneItemId: mic });
    expect(await a.asUser.mutation(api.favorites.remove, { sceneItemId: mic })).toBeNull();
    await a.asUser.mutation(api.favorites.remove, { sceneItemId: mic });
    expect((await setsAndFavoritesOf(t, a.userId)).favorites).toEqual([]);
    expect((await setsAndFavoritesOf(t, b.userId)).favorites).toHaveLength(1);
  });

  test("list returns the caller's active favourites by day and time", async () => {
    const t = newTest();
    const friday = await createSceneItem(t, { title: "Friday", dayOfWeek: 5 });
    const monday = await createSceneItem(t, { title: "Monday", dayOfWeek: 1 });
    const notMine = await createSceneItem(t, { title: "Not mine" });
    const comic = await createUser(t);
    const other = await createUser(t);
    await comic.asUser.mutation(api.favorites.add, { sceneItemId: friday });
    await comic.asUser.mutation(api.favorites.add, { sceneItemId: monday });
    await other.asUser.mutation(api.favorites.add, { sceneItemId: notMine });
    const list = await comic.asUser.query(api.favorites.list, {});
    expect(list.map((i) => i.title)).toEqual(["Monday", "Friday"]);
    expect(list[0]).not.toHaveProperty("searchText");

    await t.run(async (ctx) => ctx.db.patch("sceneItems", friday, { status: "inactive" }));
    expect((await comic.asUser.query(api.favorites.list, {})).map((i) => i.title)).toEqual(["Monday"]);
  });

  test("an inactive or deleted item cannot be added", async () => {
    const t = newTest();
    const inactive = await createSceneItem(t, { status: "inactive" });
    const comic = await createUser(t);
    await expectAppError(
      comic.asUser.mutation(api.favorites.add, { sceneItemId: inactive }),
      "NOT_FOUND",
      "Event not found",
    );
    expect((await setsAndFavoritesOf(t, comic.userId)).favorites).toEqual([]);
  });
});
