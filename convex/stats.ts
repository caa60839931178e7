import { v } from "convex/values";
import { userQuery } from "./functions";
import * as UserStats from "./model/userStats";

/** The caller's totals and streaks (zeros before their first set). Pass
 * `today` (the comedian's local "YYYY-MM-DD") so a streak that lapsed since
 * the last set reads 0. */
export const mine = userQuery({
  args: { today: v.optional(v.string()) },
  returns: UserStats.myStatsValidator,
  handler: async (ctx, { today }) => {
    UserStats.assertToday(today);
    return await UserStats.getMyStats(ctx, ctx.userId, today);
  },
});
