import { v } from "convex/values";
import { publicQuery, userMutation } from "./functions";
import { appError, ErrorCode } from "./errors";
import * as Access from "./model/access";
import * as Profiles from "./model/profiles";
import { enforceRateLimit } from "./rateLimits";

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
    return await Access.isAdmin(ctx, ctx.userId);
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
    // A deleted account's token lives on until it expires: never re-create its profile.
    if ((await ctx.db.get("users", ctx.userId)) === null) {
      throw appError(ErrorCode.NOT_FOUND, "Account not found.");
    }
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

/** Saves the profile form (display name, weekly goal 1 to 1000, default city). */
export const update = userMutation({
  args: Profiles.profileUpdateValidator.fields,
  returns: v.null(),
  handler: async (ctx, args) => {
    await Profiles.updateProfile(ctx, ctx.userId, args);
    return null;
  },
});

/**
 * Sets the caller's stage name, the name hosts call them up by (asked for
 * before a first list sign-up when they have none); returns it as saved.
 */
export const setStageName = userMutation({
  args: { stageName: v.string() },
  returns: v.string(),
  handler: async (ctx, { stageName }) => await Profiles.setStageName(ctx, ctx.userId, stageName),
});

/** A one-time URL the browser POSTs the new photo to; then it calls `setPhoto`. */
export const generatePhotoUploadUrl = userMutation({
  args: {},
  returns: v.string(),
  handler: async (ctx) => {
    // Each URL takes one file of up to 10 MiB: limited so one account cannot fill the disk.
    await enforceRateLimit(ctx, "photoUpload", ctx.userId);
    return await ctx.storage.generateUploadUrl();
  },
});

/**
 * Makes an uploaded file the caller's photo (images under 5 MB only; the old
 * one is deleted). A refused file is deleted and the answer carries the
 * message to show ('Please select an image file' / 'Image must be less than 5MB').
 */
export const setPhoto = userMutation({
  args: { storageId: v.id("_storage") },
  returns: Profiles.setPhotoResultValidator,
  handler: async (ctx, { storageId }) => await Profiles.setPhoto(ctx, ctx.userId, storageId),
});
