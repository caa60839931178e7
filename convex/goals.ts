import { v } from "convex/values";
import { appError, ErrorCode } from "./errors";
import { userMutation } from "./functions";
import { awardEarnedBadges } from "./model/badges";
import * as Profiles from "./model/profiles";

export const INVALID_GOAL_MESSAGE = "Please enter a goal between 1 and 100 minutes.";

/** Saves the caller's weekly goal from the dashboard dialog (whole minutes, 1 to 100); returns it. */
export const update = userMutation({
  args: { weeklyGoalMinutes: v.number() },
  returns: v.number(),
  handler: async (ctx, { weeklyGoalMinutes }) => {
    if (
      !Number.isInteger(weeklyGoalMinutes) ||
      weeklyGoalMinutes < Profiles.MIN_WEEKLY_GOAL_MINUTES ||
      weeklyGoalMinutes > Profiles.MAX_WEEKLY_GOAL_MINUTES
    ) {
      // The client's toast: 'Invalid goal - {message}'.
      throw appError(ErrorCode.INVALID_INPUT, INVALID_GOAL_MESSAGE, { title: "Invalid goal" });
    }
    const profile = await Profiles.createProfileIfMissing(ctx, ctx.userId);
    await ctx.db.patch("profiles", profile._id, { weeklyGoalMinutes });
    // A lower goal can complete this week, and with it a week streak badge.
    await awardEarnedBadges(ctx, ctx.userId, Date.now());
    return weeklyGoalMinutes;
  },
});
