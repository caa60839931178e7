import { paginationOptsValidator } from "convex/server";
import { publicQuery } from "./functions";
import { assertPageOpts } from "./lib/requestRules";
import * as Tonight from "./model/tonight";

/**
 * What is on tonight, a page at a time: active mics and shows whose night
 * falls on the viewer's today in each mic's own time zone and has not ended (a
 * night still running past midnight stays), in start order with cancelled
 * nights after all the others, each with its night status ("cancelled" /
 * "confirmed") and, around a point, its distance. Around a point (`area`, 5
 * to 50 miles) it reads that area's cells on the candidate weekdays; without
 * one, the viewer's time zone. A page reads its own nights (one row ahead per
 * source), whatever the area's or the country's total. The cursor is this
 * function's own; honours `endCursor`. `nowMs` is the client's clock (queries
 * never read it).
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
