import type { OptimisticLocalStore } from "convex/browser";
import { toast } from "@/lib/toast";
import { api } from "@convex/_generated/api";
import type { SceneItemId } from "../item/types";
import type { ActionContext } from "./useCheckIn";

/** Rewrites the favourite ids in every loaded viewerState, so all cards agree at once. */
function updateFavoriteIds(store: OptimisticLocalStore, change: (ids: SceneItemId[]) => SceneItemId[]) {
  for (const { args, value } of store.getAllQueries(api.scene.viewerState)) {
    if (value) store.setQuery(api.scene.viewerState, args, { ...value, favoriteIds: change(value.favoriteIds) });
  }
}

/**
 * Adds or removes a favourite. The heart flips at once (an optimistic update
 * of `api.scene.viewerState`); Convex drops that update when the mutation
 * fails, which puts the heart back, and the comedian is told.
 */
export async function toggleFavoriteFlow(
  { client, isAuthenticated }: ActionContext,
  sceneItemId: SceneItemId,
  isFavorite: boolean,
): Promise<void> {
  const add = (args: { sceneItemId: SceneItemId }) =>
    client.mutation(api.favorites.add, args, {
      optimisticUpdate: (store, { sceneItemId }) =>
        updateFavoriteIds(store, (ids) => (ids.includes(sceneItemId) ? ids : [...ids, sceneItemId])),
    });
  const remove = (args: { sceneItemId: SceneItemId }) =>
    client.mutation(api.favorites.remove, args, {
      optimisticUpdate: (store, { sceneItemId }) =>
        updateFavoriteIds(store, (ids) => ids.filter((id) => id !== sceneItemId)),
    });

  if (!isAuthenticated) {
    toast.error("Please sign in to add favorites");
    return;
  }
  try {
    if (isFavorite) {
      await remove({ sceneItemId });
      toast.success("Removed from favorites");
    } else {
      await add({ sceneItemId });
      toast.success("Added to favorites");
    }
  } catch (err) {
    console.error(err);
    toast.error("Failed to update favorite");
  }
}
