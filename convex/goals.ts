import { v } from "convex/values";
import { appError, ErrorCode } from "./errors";
import { userMutation } from "./functions";
import { awardEarnedBadges } from "./model/badges";
import * as Profiles from "./model/profiles";
import { INVALID_GOAL_MESSAGE, INVALID_GOAL_TITLE, isWeeklyGoal } from "./lib/goalRules";

export { INVALID_GOAL_MESSAGE } from "./lib/goalRules";

/** Saves the caller's weekly goal from the dashboard dialog (whole minutes, 1 to 100); returns it. */
export const update = userMutation({
  args: { weeklyGoalMinutes: v.number() },
  returns: v.number(),
  handler: async (ctx, { weeklyGoalMinutes }) => {
    if (!isWeeklyGoal(weeklyGoalMinutes)) {
      // The client's toast: 'Invalid goal - {message}'.
      throw appError(ErrorCode.INVALID_INPUT, INVALID_GOAL_MESSAGE, { title: INVALID_GOAL_TITLE });
    }
    const profile = await Profiles.createProfileIfMissing(ctx, ctx.userId);
    await ctx.db.patch("profiles", profile._id, { weeklyGoalMinutes });
    // A lower goal can complete this week, and with it a week streak badge.
    await awardEarnedBadges(ctx, ctx.userId, Date.now());
    return weeklyGoalMinutes;
  },
});
