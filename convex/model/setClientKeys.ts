import type { Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { appError, ErrorCode } from "../errors";
import { getMyStats } from "./userStats";

/** A device-made key: a UUID or similar, letters, digits, '-' and '_'. */
const CLIENT_KEY = /^[A-Za-z0-9_-]{16,64}$/;

export function assertClientKey(clientKey: string): void {
  if (!CLIENT_KEY.test(clientKey)) throw appError(ErrorCode.INVALID_INPUT, "Invalid set key");
}

/**
 * The result of the set this comedian already logged under `clientKey` (a resend from the
 * outbox after a lost answer), or null when the key is new. Badges were announced the first time.
 */
export async function loggedEarlier(
  ctx: QueryCtx,
  userId: Id<"users">,
  clientKey: string,
): Promise<{ performanceId: Id<"performances">; totalMinutes: number; newBadges: string[] } | null> {
  assertClientKey(clientKey);
  const row = await ctx.db
    .query("setClientKeys")
    .withIndex("by_user_and_clientKey", (q) => q.eq("userId", userId).eq("clientKey", clientKey))
    .unique();
  if (row === null) return null;
  const { totalMinutes } = await getMyStats(ctx, userId);
  return { performanceId: row.performanceId, totalMinutes, newBadges: [] };
}

/** Records that `clientKey` logged `performanceId`, in the same transaction as the set. */
export async function remember(
  ctx: MutationCtx,
  userId: Id<"users">,
  clientKey: string,
  performanceId: Id<"performances">,
): Promise<void> {
  await ctx.db.insert("setClientKeys", { userId, clientKey, performanceId });
}
