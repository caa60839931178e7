import { useConvexAuth, useMutation } from "convex/react";
import type { OptimisticLocalStore } from "convex/browser";
import { toast } from "@/lib/toast";
import { api } from "@convex/_generated/api";
import type { SceneItemId } from "../item/types";

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
export function useFavoriteToggle() {
  const { isAuthenticated } = useConvexAuth();
  const add = useMutation(api.favorites.add).withOptimisticUpdate((store, { sceneItemId }) =>
    updateFavoriteIds(store, (ids) => (ids.includes(sceneItemId) ? ids : [...ids, sceneItemId])),
  );
  const remove = useMutation(api.favorites.remove).withOptimisticUpdate((store, { sceneItemId }) =>
    updateFavoriteIds(store, (ids) => ids.filter((id) => id !== sceneItemId)),
  );

  return async (sceneItemId: SceneItemId, isFavorite: boolean) => {
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
  };
}
