import { paginationOptsValidator } from "convex/server";
import { v } from "convex/values";
import { publicQuery, userMutation } from "./functions";
import { planFiltersValidator } from "./model/planFilters";
import * as Scene from "./model/scene";
import { assertPageOpts, assertTimeMs } from "./lib/requestRules";

/**
 * The scene a page at a time (at most 100 items): active mics and shows of a
 * type ("all", "open_mic", or "show" for shows of every kind) on a day (0 =
 * Sunday .. 6, or null for the whole week), in day and start-time order, or
 * by relevance when `search` (title, venue or city; at most 100 characters)
 * is given. Reads only the page, whatever the national total.
 */
export const listPage = publicQuery({
  args: {
    type: Scene.sceneTypeFilter,
    day: v.union(v.number(), v.null()),
    search: v.string(),
    paginationOpts: paginationOptsValidator,
    /** Free only, sign-up method, time of day, hide stale (applied to the rows each page reads). */
    filters: v.optional(planFiltersValidator),
    /** The client's clock, needed by the stale filter. */
    nowMs: v.optional(v.number()),
  },
  returns: Scene.scenePageValidator,
  handler: async (ctx, args) => {
    assertPageOpts(args.paginationOpts);
    if (args.nowMs !== undefined) assertTimeMs(args.nowMs);
    return await Scene.listPage(ctx, args);
  },
});

/** One active item by id; null when the id is malformed, missing or inactive. */
export const get = publicQuery({
  args: { id: v.string() },
  returns: v.union(v.null(), Scene.sceneItemValidator),
  handler: async (ctx, { id }) => await Scene.getActive(ctx, id),
});

/** The caller's favourites, schedule entries and recent check-ins; null when signed out.
 * `sinceMs` comes from the client (now - 48 h, rounded down to the hour). */
export const viewerState = publicQuery({
  args: { sinceMs: v.number() },
  returns: Scene.viewerStateValidator,
  handler: async (ctx, { sinceMs }) => {
    assertTimeMs(sinceMs);
    if (ctx.userId === null) return null;
    return await Scene.viewerState(ctx, ctx.userId, sinceMs);
  },
});

/** Deletes an item (its creator or an admin); returns how many sets lost their link. */
export const remove = userMutation({
  args: { id: v.id("sceneItems") },
  returns: v.object({ updatedSets: v.number() }),
  handler: async (ctx, { id }) => await Scene.removeSceneItem(ctx, ctx.userId, id),
});
