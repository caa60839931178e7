import { v } from "convex/values";
import { appError, ErrorCode } from "./errors";
import { publicMutation, userMutation, userQuery } from "./functions";
import * as Favorites from "./model/favorites";
import { sceneItemValidator } from "./model/scene";

/** Adds a mic to the caller's favourites (idempotent). */
export const add = publicMutation({
  args: { sceneItemId: v.id("sceneItems") },
  returns: v.null(),
  handler: async (ctx, { sceneItemId }) => {
    // Public so that signed-out callers get the favourites wording of the spec.
    if (ctx.userId === null) {
      throw appError(ErrorCode.NOT_SIGNED_IN, "Please sign in to add favorites");
    }
    await Favorites.addFavorite(ctx, ctx.userId, sceneItemId);
    return null;
  },
});

/** Removes a mic from the caller's favourites (idempotent). */
export const remove = userMutation({
  args: { sceneItemId: v.id("sceneItems") },
  returns: v.null(),
  handler: async (ctx, { sceneItemId }) => {
    await Favorites.removeFavorite(ctx, ctx.userId, sceneItemId);
    return null;
  },
});

/** The caller's active favourite items, for the schedule page. */
export const list = userQuery({
  args: {},
  returns: v.array(sceneItemValidator),
  handler: async (ctx) => await Favorites.listFavorites(ctx, ctx.userId),
});
