import { publicQuery } from "./functions";
import * as Tonight from "./model/tonight";

/**
 * What is on tonight: active mics and shows whose night falls on the viewer's
 * today in each mic's own time zone and has not ended (a night still running
 * past midnight stays), in start order with cancelled nights last, each with
 * its night status ("cancelled" / "confirmed") and, around a point, its
 * distance. Around a point (`area`, 5 to 50 miles) it reads that area's mics
 * on the candidate weekdays; without one, the viewer's time zone. At most
 * `limit` (1 to 100) nights; when none, `tomorrow` holds tomorrow's first ones.
 * `nowMs` is the client's clock (queries never read it).
 */
export const list = publicQuery({
  args: Tonight.tonightArgsValidator,
  returns: Tonight.tonightValidator,
  handler: async (ctx, args) => await Tonight.tonight(ctx, args),
});
