import { userQuery } from "./functions";
import * as UserStats from "./model/userStats";

/** The caller's totals and streaks (zeros before their first set). */
export const mine = userQuery({
  args: {},
  returns: UserStats.myStatsValidator,
  handler: async (ctx) => await UserStats.getMyStats(ctx, ctx.userId),
});
