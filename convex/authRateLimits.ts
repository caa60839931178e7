import { v } from "convex/values";
import { internal } from "./_generated/api";
import { internalMutation } from "./functions";

/**
 * A Convex Auth `authRateLimits` row (an account's failed sign-ins) refills fully an hour after its last
 * failure (`maxFailedAttempsPerHour`, auth.ts), reading as no row; the library deletes it only on that sign-in.
 */
export const AUTH_RATE_LIMIT_REFILL_MS = 60 * 60 * 1000;
const BATCH = 200;

/** Cron (every 30 minutes): deletes rows stale for {@link AUTH_RATE_LIMIT_REFILL_MS}, oldest first, in batches. */
export const deleteStaleAuthRateLimits = internalMutation({
  args: {
    cursor: v.optional(v.union(v.string(), v.null())),
    cutoff: v.optional(v.number()),
  },
  returns: v.object({ checked: v.number(), deleted: v.number(), more: v.boolean() }),
  handler: async (ctx, args) => {
    const { cursor } = args;
    const now = Date.now();
    // A continuation's cutoff can only be in the past (it came from an earlier run).
    // Kept across continuations: Convex refuses a cursor with other range values (InvalidCursor).
    const cutoff =
      args.cutoff !== undefined && Number.isFinite(args.cutoff) && args.cutoff <= now - AUTH_RATE_LIMIT_REFILL_MS
        ? args.cutoff
        : now - AUTH_RATE_LIMIT_REFILL_MS;
    // Rows created after the cutoff have a later attempt too.
    const page = await ctx.db
      .query("authRateLimits")
      .withIndex("by_creation_time", (q) => q.lt("_creationTime", cutoff))
      .paginate({ numItems: BATCH, cursor: cursor ?? null });
    let deleted = 0;
    for (const row of page.page) {
      if (row.lastAttemptTime >= cutoff) continue;
      await ctx.db.delete("authRateLimits", row._id);
      deleted++;
    }
    if (!page.isDone) {
      await ctx.scheduler.runAfter(0, internal.authRateLimits.deleteStaleAuthRateLimits, {
        cursor: page.continueCursor,
        cutoff,
      });
    }
    return { checked: page.page.length, deleted, more: !page.isDone };
  },
});
