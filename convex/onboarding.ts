import { v } from "convex/values";
import { appError, ErrorCode } from "./errors";
import { userMutation } from "./functions";
import * as Favorites from "./model/favorites";
import * as Performances from "./model/performances";
import { lastOccurrence } from "./lib/recurrence";
import { enforceRateLimit } from "./rateLimits";

/** The onboarding set-length slider's range. */
export const FIRST_SET_MINUTES = { min: 1, max: 30 } as const;

/**
 * Onboarding step 4: logs the comedian's first set at a mic already in the
 * scene, dated at the mic's last night, and adds the mic to their favourites, in one transaction, so a
 * failure leaves neither behind and Next can simply be pressed again.
 */
export const logFirstSet = userMutation({
  args: {
    sceneItemId: v.id("sceneItems"),
    minutes: v.number(),
    timeZone: v.optional(v.string()),
  },
  returns: Performances.logResultValidator,
  handler: async (ctx, { sceneItemId, minutes, timeZone }) => {
    if (!Number.isInteger(minutes) || minutes < FIRST_SET_MINUTES.min || minutes > FIRST_SET_MINUTES.max) {
      throw appError(
        ErrorCode.INVALID_INPUT,
        `Set length must be ${FIRST_SET_MINUTES.min} to ${FIRST_SET_MINUTES.max} minutes`,
      );
    }
    await enforceRateLimit(ctx, "logSet", ctx.userId);
    const nowMs = Date.now();
    const mic = await ctx.db.get("sceneItems", sceneItemId);
    // The set was at the mic's last night (its latest start so far), not at the moment of onboarding.
    const performedAt = (mic && lastOccurrence(mic, nowMs)) ?? nowMs;
    const result = await Performances.logSet(ctx, {
      userId: ctx.userId,
      set: { sceneItemId, minutes, performedAt, tags: [], timeZone },
      nowMs,
    });
    await Favorites.addFavorite(ctx, ctx.userId, sceneItemId);
    return result;
  },
});
