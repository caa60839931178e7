import { v } from "convex/values";
import { internal } from "./_generated/api";
import { appError, ErrorCode } from "./errors";
import { internalMutation, publicMutation } from "./functions";
import * as CheckIns from "./model/checkIns";
import {
  expireVerification as expireMicVerification,
  FOLD_INTERVAL_MS,
  foldCheckIns as foldMicCheckIns,
} from "./model/micTriggers";

/** Checks the caller in at a mic (window, 200 m, once a day, counters,
 * verification and badges in one transaction). */
export const checkIn = publicMutation({
  args: {
    sceneItemId: v.id("sceneItems"),
    latitude: v.number(),
    longitude: v.number(),
  },
  returns: CheckIns.checkInResultValidator,
  handler: async (ctx, args) => {
    // Public so that signed-out callers get the check-in wording of the spec.
    if (ctx.userId === null) throw appError(ErrorCode.NOT_SIGNED_IN, "Please sign in to check in");
    return await CheckIns.checkIn(ctx, { ...args, userId: ctx.userId, nowMs: Date.now() });
  },
});

/** The daily cron's job: clears Verified on items past their expiry, in
 * batches, rescheduling itself while expired items remain. */
export const expireVerification = internalMutation({
  args: {},
  returns: v.object({ expired: v.number(), more: v.boolean() }),
  handler: async (ctx) => {
    const result = await expireMicVerification(ctx, Date.now());
    if (result.more) await ctx.scheduler.runAfter(0, internal.checkIns.expireVerification, {});
    return result;
  },
});

/** Takes a mic's queued check-ins into its row (each check-in schedules one, with its
 * queue row, model/micTriggers); a full batch leaves the rest to a follow-up. */
export const foldCheckIns = internalMutation({
  args: { micId: v.id("sceneItems"), queueId: v.optional(v.id("micCheckInQueue")) },
  returns: v.object({ folded: v.number(), more: v.boolean() }),
  handler: async (ctx, { micId, queueId }) => {
    const result = await foldMicCheckIns(ctx, { micId, queueId, nowMs: Date.now() });
    if (result.more) await ctx.scheduler.runAfter(FOLD_INTERVAL_MS, internal.checkIns.foldCheckIns, { micId });
    return result;
  },
});
