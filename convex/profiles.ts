import { v } from "convex/values";
import { publicQuery, userMutation } from "./functions";
import { appError, ErrorCode } from "./errors";
import * as Profiles from "./model/profiles";

/** The signed-in comedian, or null when signed out. */
export const me = publicQuery({
  args: {},
  returns: v.union(v.null(), Profiles.meValidator),
  handler: async (ctx) => {
    if (ctx.userId === null) return null;
    return await Profiles.getMe(ctx, ctx.userId);
  },
});

/** Whether the caller is an admin (the spec's current_user_is_admin); false when signed out. */
export const isAdmin = publicQuery({
  args: {},
  returns: v.boolean(),
  handler: async (ctx) => {
    if (ctx.userId === null) return false;
    return await Profiles.isAdmin(ctx, ctx.userId);
  },
});

/**
 * The spec's ensure_profile, called at startup: creates the caller's profile
 * when it is missing (accounts from before profiles existed) and returns the
 * `me` view. Idempotent.
 */
export const ensure = userMutation({
  args: {},
  returns: Profiles.meValidator,
  handler: async (ctx) => {
    await Profiles.createProfileIfMissing(ctx, ctx.userId);
    const me = await Profiles.getMe(ctx, ctx.userId);
    if (me === null) throw appError(ErrorCode.NOT_FOUND, "Account not found.");
    return me;
  },
});

/** "Skip for now" in onboarding: done, with the default weekly goal. */
export const skipOnboarding = userMutation({
  args: {},
  returns: v.null(),
  handler: async (ctx) => {
    await Profiles.finishOnboarding(ctx, ctx.userId, Profiles.DEFAULT_WEEKLY_GOAL_MINUTES);
    return null;
  },
});

/** Finishes onboarding with the comedian's weekly goal (whole minutes, 1 to 100). */
export const completeOnboarding = userMutation({
  args: { weeklyGoalMinutes: v.number() },
  returns: v.null(),
  handler: async (ctx, { weeklyGoalMinutes }) => {
    await Profiles.finishOnboarding(ctx, ctx.userId, weeklyGoalMinutes);
    return null;
  },
});
