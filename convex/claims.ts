import { paginationOptsValidator } from "convex/server";
import { v } from "convex/values";
import { internal } from "./_generated/api";
import { adminMutation, adminQuery, internalMutation, userMutation, userQuery } from "./functions";
import { canEditMic, canHostMic } from "./model/access";
import * as Claims from "./model/claims";
import { assertPageOpts } from "./lib/requestRules";
import { enforceRateLimit } from "./rateLimits";
import { sceneItemValidator } from "./model/scene";

/** A comedian claims a mic they run, with an optional message for the admins. */
export const submit = userMutation({
  args: { micId: v.id("sceneItems"), message: v.optional(v.string()) },
  returns: v.id("micClaims"),
  handler: async (ctx, { micId, message }) => {
    await enforceRateLimit(ctx, "micClaim", ctx.userId);
    return await Claims.submitClaim(ctx, { userId: ctx.userId, micId, message });
  },
});

/** The caller's claims on one mic, newest first. */
export const mine = userQuery({
  args: { micId: v.id("sceneItems") },
  returns: v.array(Claims.claimValidator),
  handler: async (ctx, { micId }) => await Claims.myClaims(ctx, ctx.userId, micId),
});

/** What the event page's owner tools need: the caller's claims on the mic
 * (newest first), whether they may edit its details (`canManage`) and whether
 * they may cancel or confirm its nights (`canHost`). */
export const ownerState = userQuery({
  args: { micId: v.id("sceneItems") },
  returns: v.object({ claims: v.array(Claims.claimValidator), canManage: v.boolean(), canHost: v.boolean() }),
  handler: async (ctx, { micId }) => {
    const [claims, item] = await Promise.all([
      Claims.myClaims(ctx, ctx.userId, micId),
      ctx.db.get("sceneItems", micId),
    ]);
    if (item === null) return { claims, canManage: false, canHost: false };
    const [canManage, canHost] = await Promise.all([
      canEditMic(ctx, ctx.userId, item),
      canHostMic(ctx, ctx.userId, item),
    ]);
    return { claims, canManage, canHost };
  },
});

/** Admin queue, a page at a time, newest first, with mic title and claimant name:
 * the pending claims, or the reviewed ones. */
export const list = adminQuery({
  args: { queue: Claims.claimQueue, paginationOpts: paginationOptsValidator },
  returns: Claims.adminClaimPageValidator,
  handler: async (ctx, { queue, paginationOpts }) => {
    assertPageOpts(paginationOpts);
    return await Claims.listClaims(ctx, queue, paginationOpts);
  },
});

/** Approves or denies a pending claim, with an optional reason the claimant sees. */
export const review = adminMutation({
  args: {
    id: v.id("micClaims"),
    status: v.union(v.literal("approved"), v.literal("denied")),
    reason: v.optional(v.string()),
  },
  returns: v.null(),
  handler: async (ctx, { id, status, reason }) => {
    await Claims.reviewClaim(ctx, { adminId: ctx.userId, id, status, reason, nowMs: Date.now() });
    return null;
  },
});

/** Denies, with one reason, the claims still pending on a mic whose host is approved; returns how many. */
export const denyMoot = adminMutation({
  args: { micId: v.id("sceneItems"), reason: v.optional(v.string()) },
  returns: v.number(),
  handler: async (ctx, { micId, reason }) =>
    await Claims.denyMootClaims(ctx, { adminId: ctx.userId, micId, reason, nowMs: Date.now() }),
});

/** Revokes an approved claim: the claimant loses the mic's host rights. */
export const revoke = adminMutation({
  args: { id: v.id("micClaims") },
  returns: v.null(),
  handler: async (ctx, { id }) => {
    await Claims.revokeClaim(ctx, { adminId: ctx.userId, id, nowMs: Date.now() });
    return null;
  },
});

/** The approved claimant, an admin, or the creator while no claim is approved, edits the mic's description. */
export const updateOwnMic = userMutation({
  args: Claims.ownMicEditValidator,
  returns: sceneItemValidator,
  handler: async (ctx, edit) => await Claims.updateOwnMic(ctx, ctx.userId, edit),
});

/** The approved claimant or an admin cancels one night, or restores it. */
export const setCancelledDate = userMutation({
  args: { micId: v.id("sceneItems"), date: v.string(), cancelled: v.boolean() },
  returns: v.array(v.string()),
  handler: async (ctx, { micId, date, cancelled }) =>
    await Claims.setCancelledDate(ctx, { userId: ctx.userId, micId, date, cancelled }),
});

/**
 * Migration: gives claims filed before claim numbers existed their number,
 * in batches (reschedules itself). Run once after deploying, e.g.
 * `npx convex run claims:backfillNumbers` or `npm run backend -- run claims:backfillNumbers`;
 * until then their cards read 'Claim (unnumbered)'.
 */
export const backfillNumbers = internalMutation({
  args: {},
  returns: v.object({ updated: v.number(), more: v.boolean() }),
  handler: async (ctx) => {
    const result = await Claims.backfillClaimNumbers(ctx);
    if (result.more) await ctx.scheduler.runAfter(0, internal.claims.backfillNumbers, {});
    return result;
  },
});

/**
 * One tap on the event page: the mic's approved claimant (or an admin) confirms a night runs ("Host confirmed tonight"), or takes the
 * confirmation back. Confirming a cancelled night restores it. Returns the
 * confirmed dates.
 */
export const setConfirmedDate = userMutation({
  args: { micId: v.id("sceneItems"), date: v.string(), confirmed: v.boolean() },
  returns: v.array(v.string()),
  handler: async (ctx, { micId, date, confirmed }) =>
    await Claims.setConfirmedDate(ctx, { userId: ctx.userId, micId, date, confirmed, nowMs: Date.now() }),
});
