import { v } from "convex/values";
import { internal } from "./_generated/api";
import { internalMutation } from "./functions";

/**
 * How long an `authVerifiers` row can still finish a sign-in. Convex Auth
 * inserts one for every `auth:signIn` that starts an OAuth flow (Google),
 * anonymous, and deletes it only when that flow completes. The flow's state
 * cookie lives 15 minutes (Auth.js checks, COOKIE_TTL) and the verification
 * code it then issues 2 minutes (OAUTH_SIGN_IN_EXPIRATION_MS): past 20
 * minutes the row is dead weight.
 */
export const VERIFIER_LIFETIME_MS = 20 * 60 * 1000;
const BATCH = 200;

/**
 * Deletes verifiers older than {@link VERIFIER_LIFETIME_MS}, {@link BATCH} per
 * transaction, scheduling itself again while more are left (the cron in
 * crons.ts runs it every 10 minutes), so unfinished Google sign-in starts
 * cannot pile up rows.
 */
export const deleteStaleVerifiers = internalMutation({
  args: {},
  returns: v.object({ deleted: v.number(), more: v.boolean() }),
  handler: async (ctx) => {
    const cutoff = Date.now() - VERIFIER_LIFETIME_MS;
    const stale = await ctx.db
      .query("authVerifiers")
      .withIndex("by_creation_time", (q) => q.lt("_creationTime", cutoff))
      .take(BATCH);
    for (const verifier of stale) await ctx.db.delete("authVerifiers", verifier._id);
    const more = stale.length === BATCH;
    if (more) await ctx.scheduler.runAfter(0, internal.authVerifiers.deleteStaleVerifiers, {});
    return { deleted: stale.length, more };
  },
});
