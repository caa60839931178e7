/** Who may do what: admins, a mic's approved hosts and its editors. The one owner of these rules. */
import type { Doc, Id } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";

/** Most claims one comedian files on one mic that a check reads. */
export const CLAIMS_PER_MIC_LIMIT = 100;

/** Whether the user's profile carries the admin role; false without a profile. */
export async function isAdmin(ctx: QueryCtx, userId: Id<"users">): Promise<boolean> {
  const profile = await ctx.db
    .query("profiles")
    .withIndex("by_userId", (q) => q.eq("userId", userId))
    .unique();
  return profile?.isAdmin === true;
}

/** The comedian's claims on a mic, newest first. */
export async function claimsOf(ctx: QueryCtx, micId: Id<"sceneItems">, userId: Id<"users">) {
  return await ctx.db
    .query("micClaims")
    .withIndex("by_mic_and_claimant", (q) => q.eq("micId", micId).eq("claimantId", userId))
    .order("desc")
    .take(CLAIMS_PER_MIC_LIMIT);
}

/** Whether the comedian holds an approved claim on the mic (is one of its hosts). */
export async function isApprovedClaimant(
  ctx: QueryCtx,
  userId: Id<"users">,
  micId: Id<"sceneItems">,
): Promise<boolean> {
  const claims = await claimsOf(ctx, micId, userId);
  return claims.some((c) => c.status === "approved");
}

/** The mic's approved claims (its hosts), at most a few. */
export async function approvedClaimsOf(ctx: QueryCtx, micId: Id<"sceneItems">): Promise<Doc<"micClaims">[]> {
  return await ctx.db
    .query("micClaims")
    .withIndex("by_mic_and_status", (q) => q.eq("micId", micId).eq("status", "approved"))
    .take(CLAIMS_PER_MIC_LIMIT);
}

/** Host rights (confirm or cancel a night, run its lists): an approved claimant or an admin.
 * Creating a mic grants none; a revoked claim none from the moment it is revoked. */
export async function canHostMic(ctx: QueryCtx, userId: Id<"users">, item: Doc<"sceneItems">): Promise<boolean> {
  const [claimant, admin] = await Promise.all([isApprovedClaimant(ctx, userId, item._id), isAdmin(ctx, userId)]);
  return claimant || admin;
}

/** Edit rights (description and links): whoever may host, and the creator only while no
 * claim on the mic is approved (the approved host then decides what the mic says). */
export async function canEditMic(ctx: QueryCtx, userId: Id<"users">, item: Doc<"sceneItems">): Promise<boolean> {
  if (await canHostMic(ctx, userId, item)) return true;
  return item.createdBy === userId && (await approvedClaimsOf(ctx, item._id)).length === 0;
}
