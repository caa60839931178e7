import { v } from "convex/values";
import { publicQuery } from "./functions";
import { readCommunityStats } from "./model/stats";

/** The landing page's live community figures (venues, hours logged, cities, comedians). */
export const stats = publicQuery({
  args: {},
  returns: v.object({
    venues: v.number(),
    hoursLogged: v.number(),
    cities: v.number(),
    comedians: v.number(),
  }),
  handler: async (ctx) => await readCommunityStats(ctx),
});
