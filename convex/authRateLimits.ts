import { v } from "convex/values";
import { internal } from "./_generated/api";
import { internalMutation } from "./functions";

/**
 * Time for a row of Convex Auth's `authRateLimits` (one per identifier that
 * failed a sign-in: an account's wrong passwords) to refill completely. Its
 * bucket holds `maxFailedAttempsPerHour` (auth.ts) and refills that many an
 * hour, so an hour after the last failed attempt the row reads as a full
 * bucket, exactly as no row does; the library deletes it only when that
 * identifier next signs in.
 */
export const AUTH_RATE_LIMIT_REFILL_MS = 60 * 60 * 1000;
const BATCH = 200;

/**
 * Cron (every 30 minutes): deletes `authRateLimits` rows whose last failed
 * attempt is older than {@link AUTH_RATE_LIMIT_REFILL_MS}. Walks the rows
 * created before then (a newer row's attempt is newer still) oldest first,
 * {@link BATCH} per transaction, rescheduling itself with the cursor while
 * there are more, so the table cannot grow without bound. The continuation
 * carries the first run's cutoff: a cursor belongs to its query, range values
 * included (Convex refuses it for any other with InvalidCursor), so a cutoff
 * worked out again from a later clock would end the walk after one batch.
 */
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
    const cutoff =
      args.cutoff !== undefined && Number.isFinite(args.cutoff) && args.cutoff <= now - AUTH_RATE_LIMIT_REFILL_MS
        ? args.cutoff
        : now - AUTH_RATE_LIMIT_REFILL_MS;
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
