import { paginationResultValidator, type PaginationOptions, type PaginationResult } from "convex/server";
import { mergedStream, stream } from "convex-helpers/server/stream";
import type { Infer } from "convex/values";
import { v } from "convex/values";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { appError, ErrorCode } from "../errors";
import schema, { costInfo as costInfoValidator, signupMethod } from "../schema";
import {
  micHostName,
  micNotes,
  micShowLink,
  micSignupLink,
  micTitle,
  normalizeCostInfo,
  normalizeDayOfWeek,
  normalizePerformanceMinutes,
  normalizeTimeOfDay,
} from "../lib/micRules";
import { MAX_REVIEW_REASON_LENGTH } from "../lib/claimRules";
import { isDefaultStageName } from "../lib/profileRules";
import { invalid, optionalText } from "../lib/textRules";
import { onNightCancelled } from "./nightListHost";
import { displayNamesOf } from "./profiles";
import { MAX_CONFIRMED_DATES } from "../lib/tonight";
import { micsById, requireActiveItem, toSceneItem, type SceneItem } from "./scene";
import { approvedClaimsOf, canEditMic, canHostMic, claimsOf, CLAIMS_PER_MIC_LIMIT } from "./access";

export const MAX_CLAIM_MESSAGE_LENGTH = 1000;
export { MAX_REVIEW_REASON_LENGTH };
export const MAX_CANCELLED_DATES = 100;
/** Most claims one comedian has on one mic that are read to check for a pending one. */

export const ALREADY_PENDING_MESSAGE = "You already have a pending claim for this mic";
export const ALREADY_APPROVED_MESSAGE = "Your claim for this mic is already approved";
export const ONLY_APPROVED_REVOCABLE_MESSAGE = "Only an approved claim can be revoked";
export const ALREADY_HOSTED_MESSAGE = "This mic already has an approved host. Revoke that claim first.";
export const NOT_OWNER_MESSAGE = "Only the mic's approved claimant can change it";
export const NO_HOST_YET_MESSAGE = "This mic has no approved host yet, so its other claims still count.";

/** A claim as stored: the table's own validator with its system fields (one definition, in schema.ts). */
export const claimValidator = schema.doc("micClaims");

/**
 * A claim in the admin queue, with the mic's title and the claimant's name,
 * the name of the mic's approved host (null while it has none) and how many
 * claims on the mic wait for a decision (so claims on one mic are grouped).
 */
export const adminClaimValidator = claimValidator.extend({
  micTitle: v.union(v.string(), v.null()),
  claimantName: v.string(),
  micHostName: v.union(v.string(), v.null()),
  pendingForMic: v.number(),
});
export type AdminClaim = Infer<typeof adminClaimValidator>;
/** A page of the admin queue. */
export const adminClaimPageValidator = paginationResultValidator(adminClaimValidator);
/** The admin queue's two parts: claims waiting for a decision, and the ones already decided. */
export const claimQueue = v.union(v.literal("pending"), v.literal("reviewed"));

/** The next claim number: one more than the highest given (1 for the first). */
async function nextClaimNumber(ctx: QueryCtx): Promise<number> {
  const last = await ctx.db
    .query("micClaims")
    .withIndex("by_number", (q) => q.gt("number", 0))
    .order("desc")
    .first();
  return (last?.number ?? 0) + 1;
}

/** Files a claim on an active mic; one pending (or approved) claim per comedian per mic. */
export async function submitClaim(
  ctx: MutationCtx,
  { userId, micId, message }: { userId: Id<"users">; micId: Id<"sceneItems">; message: string | undefined },
): Promise<Id<"micClaims">> {
  const text = optionalText(message, { label: "Message", max: MAX_CLAIM_MESSAGE_LENGTH, multiline: true });
  await requireActiveItem(ctx, micId);
  const existing = await claimsOf(ctx, micId, userId);
  if (existing.some((c) => c.status === "pending")) {
    throw appError(ErrorCode.ALREADY_EXISTS, ALREADY_PENDING_MESSAGE);
  }
  if (existing.some((c) => c.status === "approved")) {
    throw appError(ErrorCode.ALREADY_EXISTS, ALREADY_APPROVED_MESSAGE);
  }
  return await ctx.db.insert("micClaims", {
    micId,
    claimantId: userId,
    message: text ? text : undefined,
    status: "pending",
    number: await nextClaimNumber(ctx),
  });
}

const BACKFILL_BATCH = 100;

/**
 * One batch of the claim-number migration: numbers claims filed before
 * numbers existed, oldest first, after the highest number given so far.
 */
export async function backfillClaimNumbers(ctx: MutationCtx): Promise<{ updated: number; more: boolean }> {
  const missing = await ctx.db
    .query("micClaims")
    .withIndex("by_number", (q) => q.eq("number", undefined))
    .take(BACKFILL_BATCH + 1);
  const batch = missing.slice(0, BACKFILL_BATCH);
  let next = await nextClaimNumber(ctx);
  for (const claim of batch) {
    await ctx.db.patch("micClaims", claim._id, { number: next });
    next += 1;
  }
  return { updated: batch.length, more: missing.length > BACKFILL_BATCH };
}

/** The caller's claims on a mic, newest first. */
export async function myClaims(
  ctx: QueryCtx,
  userId: Id<"users">,
  micId: Id<"sceneItems">,
): Promise<Doc<"micClaims">[]> {
  return await claimsOf(ctx, micId, userId);
}

/**
 * The admin queue a page at a time, newest first, with the mic title (null
 * once deleted) and the claimant's name: "pending" claims (the admin shows
 * these first, every one reachable however many others there are), then the
 * "reviewed" ones (approved, denied, revoked).
 */
export async function listClaims(
  ctx: QueryCtx,
  queue: Infer<typeof claimQueue>,
  paginationOpts: PaginationOptions,
): Promise<PaginationResult<AdminClaim>> {
  // Reviewed: the approved, denied and revoked claims, each newest first
  // through the status index, merged by creation time (no pending one read).
  const statuses = queue === "pending" ? (["pending"] as const) : (["approved", "denied", "revoked"] as const);
  const result = await mergedStream(
    statuses.map((status) =>
      stream(ctx.db, schema)
        .query("micClaims")
        .withIndex("by_status", (q) => q.eq("status", status))
        .order("desc"),
    ),
    ["_creationTime"],
  ).paginate(paginationOpts);
  const claims = result.page;
  const [micOf, nameOf] = await Promise.all([
    micsById(
      ctx,
      claims.map((c) => c.micId),
    ),
    displayNamesOf(
      ctx,
      claims.map((c) => c.claimantId),
    ),
  ]);
  const micIds = [...new Set(claims.map((c) => c.micId))];
  const perMic = new Map(
    await Promise.all(
      micIds.map(async (micId) => {
        const [approved, pending] = await Promise.all([
          approvedClaimsOf(ctx, micId),
          ctx.db
            .query("micClaims")
            .withIndex("by_mic_and_status", (q) => q.eq("micId", micId).eq("status", "pending"))
            .take(CLAIMS_PER_MIC_LIMIT),
        ]);
        const host = approved[0];
        return [micId, { host, pending: pending.length }] as const;
      }),
    ),
  );
  const hostNames = await displayNamesOf(
    ctx,
    [...perMic.values()].flatMap(({ host }) => (host ? [host.claimantId] : [])),
  );
  const page = claims.map((c) => {
    const mic = perMic.get(c.micId)!;
    return {
      ...c,
      micTitle: micOf.get(c.micId)?.title ?? null,
      claimantName: nameOf.get(c.claimantId) ?? "Comedian",
      micHostName: mic.host ? (hostNames.get(mic.host.claimantId) ?? "Comedian") : null,
      pendingForMic: mic.pending,
    };
  });
  return { ...result, page };
}

/** The name the scene lists as a mic's host: the comedian's display name, or undefined without one. */
async function listedHostName(ctx: QueryCtx, userId: Id<"users">): Promise<string | undefined> {
  const profile = await ctx.db
    .query("profiles")
    .withIndex("by_userId", (q) => q.eq("userId", userId))
    .unique();
  const name = profile?.displayName.trim();
  // A comedian who never chose a stage name is not listed as "Comedian".
  return name && !isDefaultStageName(name) ? micHostName(name) : undefined;
}

/** The admin's reason, trimmed and capped; undefined when left empty. */
function reviewReason(reason: string | undefined): string | undefined {
  return optionalText(reason, { label: "Reason", max: MAX_REVIEW_REASON_LENGTH });
}

/**
 * Approves or denies a pending claim, stamping the reviewer, the time and the
 * admin's optional reason (the claimant sees it). An approved claimant becomes
 * the mic's listed host.
 */
export async function reviewClaim(
  ctx: MutationCtx,
  {
    adminId,
    id,
    status,
    reason,
    nowMs,
  }: { adminId: Id<"users">; id: Id<"micClaims">; status: "approved" | "denied"; reason?: string; nowMs: number },
): Promise<void> {
  const text = reviewReason(reason);
  const claim = await ctx.db.get("micClaims", id);
  if (claim === null) throw appError(ErrorCode.NOT_FOUND, "Claim not found");
  if (claim.status !== "pending") invalid("This claim has already been reviewed");
  // One host at a time: another approved claim must be revoked first.
  if (status === "approved" && (await approvedClaimsOf(ctx, claim.micId)).some((c) => c._id !== id)) {
    invalid(ALREADY_HOSTED_MESSAGE);
  }
  await ctx.db.patch("micClaims", id, { status, reviewedAt: nowMs, reviewedBy: adminId, reviewReason: text });
  if (status === "approved") {
    const [item, hostName] = await Promise.all([
      ctx.db.get("sceneItems", claim.micId),
      listedHostName(ctx, claim.claimantId),
    ]);
    if (item !== null && hostName !== undefined) await ctx.db.patch("sceneItems", item._id, { hostName });
  }
}

/**
 * Denies every claim still pending on a mic that has an approved host (they
 * are moot), with one reason for all; returns how many were denied.
 */
export async function denyMootClaims(
  ctx: MutationCtx,
  { adminId, micId, reason, nowMs }: { adminId: Id<"users">; micId: Id<"sceneItems">; reason?: string; nowMs: number },
): Promise<number> {
  const text = reviewReason(reason);
  if ((await approvedClaimsOf(ctx, micId)).length === 0) invalid(NO_HOST_YET_MESSAGE);
  const pending = await ctx.db
    .query("micClaims")
    .withIndex("by_mic_and_status", (q) => q.eq("micId", micId).eq("status", "pending"))
    .take(CLAIMS_PER_MIC_LIMIT);
  for (const claim of pending) {
    await ctx.db.patch("micClaims", claim._id, {
      status: "denied",
      reviewedAt: nowMs,
      reviewedBy: adminId,
      reviewReason: text,
    });
  }
  return pending.length;
}

/**
 * Takes back an approved claim: the claimant stops managing the mic (editing
 * it, cancelling or confirming nights, hosting its lists) at once, since every
 * one of those checks looks for an "approved" claim. The approval stamp stays;
 * the revocation is stamped beside it. Pending and denied claims are refused.
 */
export async function revokeClaim(
  ctx: MutationCtx,
  { adminId, id, nowMs }: { adminId: Id<"users">; id: Id<"micClaims">; nowMs: number },
): Promise<void> {
  const claim = await ctx.db.get("micClaims", id);
  if (claim === null) throw appError(ErrorCode.NOT_FOUND, "Claim not found");
  if (claim.status !== "approved") invalid(ONLY_APPROVED_REVOCABLE_MESSAGE);
  await ctx.db.patch("micClaims", id, { status: "revoked", revokedAt: nowMs, revokedBy: adminId });
  // The revoked comedian stops being the listed host (a name set by hand stays).
  const [item, hostName] = await Promise.all([
    ctx.db.get("sceneItems", claim.micId),
    listedHostName(ctx, claim.claimantId),
  ]);
  if (item !== null && hostName !== undefined && item.hostName === hostName) {
    await ctx.db.patch("sceneItems", item._id, { hostName: undefined });
  }
}

/** The mic, if `allowed` lets the caller act on it; else the spec's not-found or not-owner error. */
async function requireMic(
  ctx: QueryCtx,
  userId: Id<"users">,
  micId: Id<"sceneItems">,
  allowed: (ctx: QueryCtx, userId: Id<"users">, item: Doc<"sceneItems">) => Promise<boolean>,
): Promise<Doc<"sceneItems">> {
  const item = await ctx.db.get("sceneItems", micId);
  if (item === null) throw appError(ErrorCode.NOT_FOUND, "Event not found");
  if (!(await allowed(ctx, userId, item))) throw appError(ErrorCode.FORBIDDEN, NOT_OWNER_MESSAGE);
  return item;
}

const requireHostedMic = (ctx: QueryCtx, userId: Id<"users">, micId: Id<"sceneItems">) =>
  requireMic(ctx, userId, micId, canHostMic);

const requireEditableMic = (ctx: QueryCtx, userId: Id<"users">, micId: Id<"sceneItems">) =>
  requireMic(ctx, userId, micId, canEditMic);

/** The descriptive fields a claimant may change; counters, verification,
 * status and the venue stay with the scene and the admins. */
export const ownMicEditValidator = {
  micId: v.id("sceneItems"),
  title: v.string(),
  dayOfWeek: v.union(v.number(), v.null()),
  startTimeLocal: v.string(),
  listTimeLocal: v.optional(v.string()),
  signupMethod: v.optional(signupMethod),
  signupLink: v.optional(v.string()),
  showLink: v.optional(v.string()),
  hostName: v.optional(v.string()),
  notes: v.optional(v.string()),
  costInfo: v.optional(v.union(costInfoValidator, v.null())),
  performanceMinutes: v.optional(v.number()),
};

export type OwnMicEdit = {
  micId: Id<"sceneItems">;
  title: string;
  dayOfWeek: number | null;
  startTimeLocal: string;
  listTimeLocal?: string;
  signupMethod?: "in_person" | "online";
  signupLink?: string;
  showLink?: string;
  hostName?: string;
  notes?: string;
  costInfo?: Infer<typeof costInfoValidator> | null;
  performanceMinutes?: number;
};

/**
 * An edit of the mic's description by whoever may edit it (canEditMic). Optional text fields
 * left empty are cleared. Cost info and sign-up method apply to open mics only.
 */
export async function updateOwnMic(ctx: MutationCtx, userId: Id<"users">, edit: OwnMicEdit): Promise<SceneItem> {
  const item = await requireEditableMic(ctx, userId, edit.micId);
  const title = micTitle(edit.title);
  const openMic = item.type === "open_mic";
  const performanceMinutes =
    edit.performanceMinutes === undefined
      ? item.performanceMinutes
      : normalizePerformanceMinutes(edit.performanceMinutes, "Set length must be 1 to 60 minutes");
  const patch = {
    title,
    dayOfWeek: normalizeDayOfWeek(edit.dayOfWeek),
    startTimeLocal: normalizeTimeOfDay(edit.startTimeLocal, "Start time must be a time like 19:30"),
    listTimeLocal: edit.listTimeLocal?.trim()
      ? normalizeTimeOfDay(edit.listTimeLocal, "List time must be a time like 19:30")
      : undefined,
    signupMethod: openMic ? edit.signupMethod : undefined,
    signupLink: micSignupLink(edit.signupLink, "Sign-up link"),
    showLink: micShowLink(edit.showLink),
    hostName: micHostName(edit.hostName),
    notes: micNotes(edit.notes),
    costInfo: openMic ? normalizeCostInfo(edit.costInfo ?? item.costInfo ?? { type: "free" }) : null,
    performanceMinutes,
  };
  await ctx.db.patch("sceneItems", item._id, patch);
  return toSceneItem((await ctx.db.get("sceneItems", item._id))!);
}

const LOCAL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `date` is a real calendar date written YYYY-MM-DD. */
export function isLocalDate(date: string): boolean {
  const m = LOCAL_DATE.exec(date);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const utc = new Date(Date.UTC(y, mo - 1, d));
  return utc.getUTCFullYear() === y && utc.getUTCMonth() === mo - 1 && utc.getUTCDate() === d;
}

/** Marks one night of the mic cancelled (or runs it again); returns the sorted dates. */
export async function setCancelledDate(
  ctx: MutationCtx,
  {
    userId,
    micId,
    date,
    cancelled,
  }: { userId: Id<"users">; micId: Id<"sceneItems">; date: string; cancelled: boolean },
): Promise<string[]> {
  if (date.length > 10 || !isLocalDate(date)) invalid("Date must be written YYYY-MM-DD");
  const item = await requireHostedMic(ctx, userId, micId);
  const dates = new Set(item.cancelledDates ?? []);
  if (cancelled) dates.add(date);
  else dates.delete(date);
  // Keep the latest dates when the list would grow past its cap.
  const sorted = [...dates].sort().slice(-MAX_CANCELLED_DATES);
  // A cancelled night is no longer a confirmed one.
  const confirmed = cancelled ? (item.confirmedDates ?? []).filter((d) => d !== date) : item.confirmedDates;
  await ctx.db.patch("sceneItems", micId, { cancelledDates: sorted, confirmedDates: confirmed });
  await onNightCancelled(ctx, { micId, date, cancelled });
  return sorted;
}

/**
 * Marks one night of the mic host-confirmed (or takes it back) for its
 * approved claimant or an admin; confirming also restores a
 * cancelled night and counts as a confirmation for freshness. Returns the
 * sorted confirmed dates.
 */
export async function setConfirmedDate(
  ctx: MutationCtx,
  {
    userId,
    micId,
    date,
    confirmed,
    nowMs,
  }: { userId: Id<"users">; micId: Id<"sceneItems">; date: string; confirmed: boolean; nowMs: number },
): Promise<string[]> {
  if (!isLocalDate(date)) invalid("Date must be written YYYY-MM-DD");
  const item = await ctx.db.get("sceneItems", micId);
  if (item === null || item.status !== "active") throw appError(ErrorCode.NOT_FOUND, "Event not found");
  if (!(await canHostMic(ctx, userId, item))) throw appError(ErrorCode.FORBIDDEN, NOT_OWNER_MESSAGE);
  const dates = new Set(item.confirmedDates ?? []);
  if (confirmed) dates.add(date);
  else dates.delete(date);
  const sorted = [...dates].sort().slice(-MAX_CONFIRMED_DATES);
  await ctx.db.patch("sceneItems", micId, {
    confirmedDates: sorted,
    ...(confirmed
      ? { cancelledDates: (item.cancelledDates ?? []).filter((d) => d !== date), lastConfirmedAt: nowMs }
      : {}),
  });
  // Confirming restores a cancelled night, and with it the night's list.
  if (confirmed && (item.cancelledDates ?? []).includes(date))
    await onNightCancelled(ctx, { micId, date, cancelled: false });
  return sorted;
}
