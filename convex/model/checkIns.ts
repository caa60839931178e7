import { v, type Infer } from "convex/values";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { appError, ErrorCode } from "../errors";
import { checkInWindow } from "../lib/checkInWindow";
import { CHECK_IN_RADIUS_M, assertLatLng, haversineMeters, withinCheckInRadius } from "../lib/geo";
import { DAY_MS, MINUTE_MS } from "../lib/time";
import { awardEarnedBadges } from "./badges";
import { requireActiveItem } from "./scene";
import { enforceRateLimit } from "../rateLimits";

/** An item is Verified when this many different comedians checked in within the period. */
export const VERIFY_MIN_COMEDIANS = 2;
/**
 * A check-in verifies only when the comedian's account is at least this old:
 * a day, unless VERIFIER_MIN_ACCOUNT_AGE_HOURS says otherwise (the browser
 * tests set 0, their demo accounts being minutes old).
 */
export function verifierMinAccountAgeMs(): number {
  const hours = Number(process.env.VERIFIER_MIN_ACCOUNT_AGE_HOURS);
  return process.env.VERIFIER_MIN_ACCOUNT_AGE_HOURS !== undefined && Number.isFinite(hours) && hours >= 0
    ? hours * 60 * MINUTE_MS
    : DAY_MS;
}
/** Both the look-back for verifying check-ins and how long verification lasts. */
export const VERIFICATION_PERIOD_MS = 30 * DAY_MS;
/** Most recent check-ins read when counting verifying comedians. */
const VERIFICATION_READ_LIMIT = 500;

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

  if (await hasCheckedIn(ctx, userId, sceneItemId, localDate))
    throw appError(ErrorCode.ALREADY_CHECKED_IN, "Already checked in");

  const distance = Math.round(
    haversineMeters({ lat: args.latitude, lng: args.longitude }, { lat: item.latitude, lng: item.longitude }),
  );
  if (!withinCheckInRadius(distance)) {
    throw appError(
      ErrorCode.CHECK_IN_TOO_FAR,
      `You are ${distance}m from the venue. Check-ins must be within ${CHECK_IN_RADIUS_M}m.`,
      { distance },
    );
  }

  const { checkInCount, verified, newBadges } = await recordCheckIn(ctx, { userId, item, localDate, nowMs });
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
 * day): the row, the mic's counters, verification and check-in badges. Used by
 * the check-in mutation and by a host marking a set on the live list done.
 */
export async function recordCheckIn(
  ctx: MutationCtx,
  args: { userId: Id<"users">; item: Doc<"sceneItems">; localDate: string; nowMs: number },
): Promise<{ checkInCount: number; verified: boolean; newBadges: string[] }> {
  const { userId, item, localDate, nowMs } = args;
  const sceneItemId = item._id;
  await ctx.db.insert("checkIns", { userId, sceneItemId, checkedInAt: nowMs, localDate });

  const recent = await ctx.db
    .query("checkIns")
    .withIndex("by_item_and_time", (q) =>
      q.eq("sceneItemId", sceneItemId).gt("checkedInAt", nowMs - VERIFICATION_PERIOD_MS),
    )
    .order("desc")
    .take(VERIFICATION_READ_LIMIT);
  const comedians = await countVerifyingComedians(ctx, item.createdBy, recent, nowMs);

  const checkInCount = item.checkInCount + 1;
  const verifiedNow = comedians >= VERIFY_MIN_COMEDIANS;
  await ctx.db.patch("sceneItems", sceneItemId, {
    checkInCount,
    lastCheckInAt: nowMs,
    ...(verifiedNow
      ? {
          verifiedCheckIns30d: comedians,
          lastVerifiedAt: nowMs,
          verificationExpiresAt: nowMs + VERIFICATION_PERIOD_MS,
        }
      : {}),
  });
  const verified = verifiedNow || (item.verifiedCheckIns30d > 0 && (item.verificationExpiresAt ?? 0) > nowMs);

  const newBadges = await awardEarnedBadges(ctx, userId, nowMs);
  return { checkInCount, verified, newBadges };
}

/** Whether the comedian already has a check-in at the mic on that item-local day. */
export async function hasCheckedIn(
  ctx: MutationCtx,
  userId: Id<"users">,
  sceneItemId: Id<"sceneItems">,
  localDate: string,
): Promise<boolean> {
  const row = await ctx.db
    .query("checkIns")
    .withIndex("by_user_item_and_date", (q) =>
      q.eq("userId", userId).eq("sceneItemId", sceneItemId).eq("localDate", localDate),
    )
    .first();
  return row !== null;
}

/**
 * The comedians whose check-ins verify a mic: not its creator, and with an
 * account at least a day old ({@link verifierMinAccountAgeMs}), so one person with
 * two fresh accounts and a faked location cannot verify the mic they just
 * added. Users see the spec's "2 or more check-ins" wording.
 */
export async function countVerifyingComedians(
  ctx: QueryCtx,
  creator: Id<"users"> | undefined,
  recent: ReadonlyArray<Pick<Doc<"checkIns">, "userId">>,
  nowMs: number,
): Promise<number> {
  const candidates = [...new Set(recent.map((c) => c.userId))].filter((id) => id !== creator);
  const users = await Promise.all(candidates.map((id) => ctx.db.get("users", id)));
  const minAge = verifierMinAccountAgeMs();
  return users.filter((u) => u !== null && (minAge === 0 || u._creationTime <= nowMs - minAge)).length;
}

/** Items whose verification is cleared per run of {@link expireVerification}. */
export const EXPIRE_BATCH = 200;

/**
 * Clears Verified on items whose verification expired by `nowMs`
 * (`verifiedCheckIns30d` back to 0, `lastVerifiedAt` kept). The expiry is
 * removed too, so the index range holds only live verifications and each run
 * reads only what it clears. Returns whether more expired items remain.
 */
export async function expireVerification(ctx: MutationCtx, nowMs: number): Promise<{ expired: number; more: boolean }> {
  const due = await ctx.db
    .query("sceneItems")
    .withIndex("by_verificationExpiresAt", (q) => q.gte("verificationExpiresAt", 0).lte("verificationExpiresAt", nowMs))
    .take(EXPIRE_BATCH);
  for (const item of due) {
    await ctx.db.patch("sceneItems", item._id, {
      verifiedCheckIns30d: 0,
      verificationExpiresAt: undefined,
    });
  }
  return { expired: due.length, more: due.length === EXPIRE_BATCH };
}
