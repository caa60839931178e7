import type { Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { compareWeeklySlots } from "../lib/time";
import { requireActiveItem, toSceneItem, type SceneItem } from "./scene";

/** Most favourites read for one comedian. */
const FAVORITES_LIMIT = 500;

async function rowsFor(ctx: QueryCtx, userId: Id<"users">, sceneItemId: Id<"sceneItems">) {
  return await ctx.db
    .query("favorites")
    .withIndex("by_user_and_item", (q) => q.eq("userId", userId).eq("sceneItemId", sceneItemId))
    .take(10);
}

/** Marks an active item as a favourite; adding it twice keeps one row.
 * Unlike the spec's old client, it never logs a set. */
export async function addFavorite(ctx: MutationCtx, userId: Id<"users">, sceneItemId: Id<"sceneItems">): Promise<void> {
  await requireActiveItem(ctx, sceneItemId);
  const existing = await rowsFor(ctx, userId, sceneItemId);
  if (existing.length === 0) await ctx.db.insert("favorites", { userId, sceneItemId });
}

/** Removes the favourite if there is one (removing twice is fine). */
export async function removeFavorite(
  ctx: MutationCtx,
  userId: Id<"users">,
  sceneItemId: Id<"sceneItems">,
): Promise<void> {
  const existing = await rowsFor(ctx, userId, sceneItemId);
  await Promise.all(existing.map((row) => ctx.db.delete("favorites", row._id)));
}

/** The comedian's favourite items that are still active, by day then start time. */
export async function listFavorites(ctx: QueryCtx, userId: Id<"users">): Promise<SceneItem[]> {
  const rows = await ctx.db
    .query("favorites")
    .withIndex("by_user_and_item", (q) => q.eq("userId", userId))
    .take(FAVORITES_LIMIT);
  const docs = await Promise.all(rows.map((row) => ctx.db.get("sceneItems", row.sceneItemId)));
  const items: SceneItem[] = [];
  for (const doc of docs) {
    if (doc !== null && doc.status === "active") items.push(toSceneItem(doc));
  }
  return items.sort(compareWeeklySlots);
}
