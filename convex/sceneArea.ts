import { paginationOptsValidator } from "convex/server";
import { v } from "convex/values";
import { publicQuery } from "./functions";
import * as SceneArea from "./model/sceneArea";
import { assertPageOpts } from "./lib/requestRules";

/**
 * Active mics and shows within `radiusMiles` (5 to 50) of a point, a page at a
 * time in geohash order. Reads only the geohash cells around the point, so it
 * costs the same whatever the national total. The cursor is this function's
 * own (covering cell and last index key); one made for another circle, or not
 * made here at all, is an INVALID_INPUT error. Honours `endCursor`.
 */
export const listArea = publicQuery({
  args: {
    lat: v.number(),
    lng: v.number(),
    radiusMiles: v.number(),
    paginationOpts: paginationOptsValidator,
  },
  returns: SceneArea.areaPageValidator,
  handler: async (ctx, args) => {
    assertPageOpts(args.paginationOpts);
    return await SceneArea.listArea(ctx, args);
  },
});
