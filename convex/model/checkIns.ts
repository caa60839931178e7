import { v, type Infer } from "convex/values";
import type { Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { appError, ErrorCode } from "../errors";
import { checkInWindow } from "../lib/checkInWindow";
import { assertLatLng, haversineMeters, tooFarMessage, withinCheckInRadius } from "../lib/geo";
import { awardEarnedBadges } from "./badges";
import { requireActiveItem } from "./scene";
import { enforceRateLimit } from "../rateLimits";

export const checkInResultValidator = v.object({
  success: v.literal(true),
  message: v.string(),
  distance: v.number(),
  checkInCount: v.number(),
  verified: v.boolean(),
  newBadges: v.array(v.string()),
});

export type CheckInResult = Infer<typeof checkInResultValidator>;

/**
 * Checks a comedian in at a mic, all in one transaction: rate limit, item,
 * coordinates, the window in the item's time zone, once per item-local day,
 * the 200 m radius, then the counters, verification and check-in badges.
 * Failures are ConvexErrors the card shows as they are.
 */
export async function checkIn(
  ctx: MutationCtx,
  args: {
    userId: Id<"users">;
    sceneItemId: Id<"sceneItems">;
    latitude: number;
    longitude: number;
    nowMs: number;
  },
): Promise<CheckInResult> {
  const { userId, sceneItemId, nowMs } = args;
  // Before anything else: NaN or Infinity would make every distance test pass.
  assertLatLng(args.latitude, args.longitude);

  // The limit (rateLimits.ts) is taken in this transaction: a check-in that
  // fails below gives its token back, and a refused one writes nothing.
  await enforceRateLimit(ctx, "checkIn", userId);

  const item = await requireActiveItem(ctx, sceneItemId);
  if (item.latitude === undefined || item.longitude === undefined) {
    throw appError(ErrorCode.CHECK_IN_NO_LOCATION, "This mic has no location yet, so check-ins are not possible.");
  }

  const window = checkInWindow(item, nowMs);
  if (window.status !== "open" || window.localDate === null) {
    throw appError(ErrorCode.CHECK_IN_WINDOW, window.label);
  }
  const localDate = window.localDate;

  if (await hasCheckedIn(ctx, { userId, sceneItemId, localDate }))
    throw appError(ErrorCode.ALREADY_CHECKED_IN, "Already checked in");

  const distance = Math.round(
    haversineMeters({ lat: args.latitude, lng: args.longitude }, { lat: item.latitude, lng: item.longitude }),
  );
  if (!withinCheckInRadius(distance)) {
    throw appError(ErrorCode.CHECK_IN_TOO_FAR, tooFarMessage(distance), { distance });
  }

  const { checkInCount, verified, newBadges } = await recordCheckIn(ctx, { userId, sceneItemId, localDate, nowMs });
  return {
    success: true,
    message: `Checked in at ${item.venueName}!`,
    distance,
    checkInCount,
    verified,
    newBadges,
  };
}

/**
 * Records a check-in the caller has already vetted (window, distance, once a
 * day) and awards check-in badges. The mic's count, latest check-in and
 * verification follow the new row by themselves (model/micTriggers). Used by
 * the check-in mutation and by a host marking a set on the live list done.
 */
export async function recordCheckIn(
  ctx: MutationCtx,
  args: { userId: Id<"users">; sceneItemId: Id<"sceneItems">; localDate: string; nowMs: number },
): Promise<{ checkInCount: number; verified: boolean; newBadges: string[] }> {
  const { userId, sceneItemId, localDate, nowMs } = args;
  await ctx.db.insert("checkIns", { userId, sceneItemId, checkedInAt: nowMs, localDate });
  // The mic row takes the check-in in on the next second (model/micTriggers): the count as
  // it stands plus this one, and Verified as it stands (reading more would conflict with the crowd).
  const mic = await ctx.db.get("sceneItems", sceneItemId);
  const checkInCount = (mic?.checkInCount ?? 0) + 1;
  const verified = mic !== null && mic.verifiedCheckIns30d > 0 && (mic.verificationExpiresAt ?? 0) > nowMs;
  const newBadges = await awardEarnedBadges(ctx, userId, nowMs);
  return { checkInCount, verified, newBadges };
}

/** Whether the comedian already has a check-in at the mic on that item-local day. */
export async function hasCheckedIn(
  ctx: MutationCtx,
  { userId, sceneItemId, localDate }: { userId: Id<"users">; sceneItemId: Id<"sceneItems">; localDate: string },
): Promise<boolean> {
  const row = await ctx.db
    .query("checkIns")
    .withIndex("by_user_item_and_date", (q) =>
      q.eq("userId", userId).eq("sceneItemId", sceneItemId).eq("localDate", localDate),
    )
    .first();
  return row !== null;
}
