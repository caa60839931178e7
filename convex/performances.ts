import { v } from "convex/values";
import { userMutation, userQuery } from "./functions";
import * as Performances from "./model/performances";
import * as SetClientKeys from "./model/setClientKeys";
import { enforceRateLimit } from "./rateLimits";

/** Logs a set at a scene item (or, for a one-time show, at a venue by name);
 * returns the comedian's new total minutes and any badges just earned. A set sent
 * with a `clientKey` (a device's offline outbox) is logged once however often it is sent. */
export const log = userMutation({
  args: { ...Performances.logArgsValidator.fields, clientKey: v.optional(v.string()) },
  returns: Performances.logResultValidator,
  handler: async (ctx, { clientKey, ...set }) => {
    if (clientKey !== undefined) {
      const earlier = await SetClientKeys.loggedEarlier(ctx, ctx.userId, clientKey);
      if (earlier !== null) return earlier;
    }
    await enforceRateLimit(ctx, "logSet", ctx.userId);
    const logged = await Performances.logSet(ctx, { userId: ctx.userId, set, nowMs: Date.now() });
    if (clientKey !== undefined) await SetClientKeys.remember(ctx, ctx.userId, clientKey, logged.performanceId);
    return logged;
  },
});

/** Whether the caller's set sent under `clientKey` (a device's outbox) is logged: the set and the
 * caller's total minutes, or null. Live, so a page waiting on the outbox sees the set arrive. */
export const loggedWith = userQuery({
  args: { clientKey: v.string() },
  returns: v.union(v.null(), v.object({ performanceId: v.id("performances"), totalMinutes: v.number() })),
  handler: async (ctx, { clientKey }) => {
    const earlier = await SetClientKeys.loggedEarlier(ctx, ctx.userId, clientKey);
    return earlier && { performanceId: earlier.performanceId, totalMinutes: earlier.totalMinutes };
  },
});

/** The log wizard's new-mic path: creates the mic when asked (not for one-time
 * shows) and logs the set at it, in one transaction. With a `clientKey` (the
 * device's outbox) a resend creates neither the mic nor the set again. */
export const logWithNewMic = userMutation({
  args: { ...Performances.logWithNewMicArgs, clientKey: v.optional(v.string()) },
  returns: Performances.logWithNewMicResultValidator,
  handler: async (ctx, { clientKey, ...args }) => {
    if (clientKey !== undefined) {
      const earlier = await SetClientKeys.loggedEarlier(ctx, ctx.userId, clientKey);
      if (earlier !== null) {
        const set = await ctx.db.get("performances", earlier.performanceId);
        return { ...earlier, sceneItemId: set?.sceneItemId ?? null };
      }
    }
    await enforceRateLimit(ctx, "logSet", ctx.userId);
    const logged = await Performances.logWithNewMic(ctx, ctx.userId, args, Date.now());
    if (clientKey !== undefined) await SetClientKeys.remember(ctx, ctx.userId, clientKey, logged.performanceId);
    return logged;
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
