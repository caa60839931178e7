import type { Doc, Id } from "@convex/_generated/dataModel";

/** A scene item as the scene queries return it (no search or area fields). */
export type SceneItem = Omit<Doc<"sceneItems">, "searchText" | "geohash">;

export type SceneItemId = Id<"sceneItems">;

/** What `api.scene.viewerState` returns for a signed-in caller. */
export type ViewerState = {
  favoriteIds: Id<"sceneItems">[];
  schedule: { entryId: Id<"scheduleEntries">; sceneItemId: Id<"sceneItems">; addedAt: number }[];
  recentCheckIns: { sceneItemId: Id<"sceneItems">; localDate: string; checkedInAt: number }[];
  isAdmin: boolean;
  userId: Id<"users">;
};
