import { v } from "convex/values";
import { userQuery } from "./functions";
import * as Badges from "./model/badges";
import { assertTimeMs } from "./lib/requestRules";

/** The caller's badges, oldest first (the badge toaster diffs this list). */
export const mine = userQuery({
  args: {},
  returns: v.array(v.object({ code: v.string(), awardedAt: v.number() })),
  handler: async (ctx) => await Badges.myBadges(ctx, ctx.userId),
});

/** Progress towards every badge, in definition order. `monthStartMs` is the
 * start of the current calendar month on the client (queries never read the clock). */
export const progress = userQuery({
  args: { monthStartMs: v.number() },
  returns: v.array(Badges.badgeProgressValidator),
  handler: async (ctx, { monthStartMs }) => {
    assertTimeMs(monthStartMs);
    return await Badges.myBadgeProgress(ctx, ctx.userId, monthStartMs);
  },
});
