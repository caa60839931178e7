import { v } from "convex/values";
import { userMutation } from "./functions";
import * as Performances from "./model/performances";
import { enforceRateLimit } from "./rateLimits";

/** Logs a set at a scene item (or, for a one-time show, at a venue by name);
 * returns the comedian's new total minutes and any badges just earned. */
export const log = userMutation({
  args: Performances.logArgsValidator.fields,
  returns: Performances.logResultValidator,
  handler: async (ctx, args) => {
    await enforceRateLimit(ctx, "logSet", ctx.userId);
    return await Performances.logSet(ctx, { userId: ctx.userId, set: args, nowMs: Date.now() });
  },
});

/** The log wizard's new-mic path: creates the mic when asked (not for one-time
 * shows) and logs the set at it, in one transaction. */
export const logWithNewMic = userMutation({
  args: Performances.logWithNewMicArgs,
  returns: Performances.logWithNewMicResultValidator,
  handler: async (ctx, args) => {
    await enforceRateLimit(ctx, "logSet", ctx.userId);
    return await Performances.logWithNewMic(ctx, ctx.userId, args, Date.now());
  },
});

/** Edits one of the caller's sets; null or empty notes/tags clear them, absent ones stay. */
export const update = userMutation({
  args: {
    id: v.id("performances"),
    minutes: v.number(),
    notes: v.optional(v.union(v.string(), v.null())),
    tags: v.optional(v.union(v.array(v.string()), v.null())),
    performedAt: v.number(),
  },
  returns: v.object({ totalMinutes: v.number(), newBadges: v.array(v.string()) }),
  handler: async (ctx, args) => {
    await enforceRateLimit(ctx, "editSet", ctx.userId);
    return await Performances.updateSet(ctx, ctx.userId, args, Date.now());
  },
});

/** Deletes one of the caller's sets. */
export const remove = userMutation({
  args: { id: v.id("performances") },
  returns: v.object({ totalMinutes: v.number() }),
  handler: async (ctx, { id }) => await Performances.removeSet(ctx, { userId: ctx.userId, id, nowMs: Date.now() }),
});
