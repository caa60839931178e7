import { v } from "convex/values";
import { userQuery } from "./functions";
import * as Dashboard from "./model/dashboard";
import { assertToday } from "./model/userStats";

/**
 * The caller's dashboard: goal, this week's minutes (the Sunday-to-Saturday
 * week from lib/weeks `goalWeek`, passed by the client), totals, streaks and
 * the first three badges. Pass `today` (local "YYYY-MM-DD") so a lapsed
 * streak reads 0.
 */
export const summary = userQuery({
  args: { goalWeekStartMs: v.number(), goalWeekEndMs: v.number(), today: v.optional(v.string()) },
  returns: Dashboard.summaryValidator,
  handler: async (ctx, args) => {
    assertToday(args.today);
    return await Dashboard.summary(ctx, ctx.userId, args);
  },
});
