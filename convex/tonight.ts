import { paginationOptsValidator } from "convex/server";
import { v } from "convex/values";
import { publicQuery, sharedQuery } from "./functions";
import { assertPageOpts } from "./lib/requestRules";
import * as Tonight from "./model/tonight";

/**
 * What is on tonight, a page at a time (convex/model/README.md): nights on the viewer's today in each mic's time
 * zone, not ended, in start order, cancelled last, with status and, around a point (5 to 50 miles), distance.
 * The cursor is this function's own and honours `endCursor`; `nowMs` is the client's clock (queries never read it).
 */
export const list = publicQuery({
  args: { ...Tonight.tomorrowArgsValidator, paginationOpts: paginationOptsValidator },
  returns: Tonight.tonightPageValidator,
  handler: async (ctx, args) => {
    assertPageOpts(args.paginationOpts);
    return await Tonight.tonightPage(ctx, args);
  },
});

/** Tomorrow's first nights (at most five, same filters and area), shown when nothing is on tonight. */
export const tomorrow = publicQuery({
  args: Tonight.tomorrowArgsValidator,
  returns: Tonight.tomorrowValidator,
  handler: async (ctx, args) => await Tonight.tomorrowNights(ctx, args),
});

/**
 * The time zone of a city's mics (null when it has none): Tonight without a
 * location reads a signed-in comedian's default city in it. Never reads the
 * caller, so one cached answer per city for everyone.
 */
export const cityTimeZone = sharedQuery({
  args: { city: v.string() },
  returns: v.union(v.string(), v.null()),
  handler: async (ctx, { city }) => await Tonight.cityTimeZone(ctx, city),
});
