/** A season in review (src/features/season): the caller's numbers over whole months, and their public links. */
import { v } from "convex/values";
import { appError, ErrorCode } from "./errors";
import { publicMutation, userMutation, userQuery } from "./functions";
import { SHARE_FIELDS, SHARE_TOKEN_PATTERN } from "./lib/season";
import { DEFAULT_TIME_ZONE, localDateString } from "./lib/time";
import * as Season from "./model/season";
import { assertToday } from "./model/userStats";
import { enforceRateLimit } from "./rateLimits";

const shareField = v.union(...SHARE_FIELDS.map((f) => v.literal(f)));

/** The caller's season from month `from` to month `to` ("YYYY-MM", at most ten years), as of their local `today`. */
export const mine = userQuery({
  args: { from: v.string(), to: v.string(), today: v.string() },
  returns: Season.seasonValidator,
  handler: async (ctx, { from, to, today }) => {
    assertToday(today);
    return await Season.readSeason(ctx, ctx.userId, { period: { from, to }, today });
  },
});

/** The caller's public season links. */
export const shares = userQuery({
  args: {},
  returns: v.array(Season.shareValidator),
  handler: async (ctx) => await Season.myShares(ctx, ctx.userId),
});

/** Makes a public link to the caller's season showing only `fields`. */
export const createShare = userMutation({
  args: { from: v.string(), to: v.string(), fields: v.array(shareField) },
  returns: v.object({ id: v.id("seasonShares"), token: v.string() }),
  handler: async (ctx, { from, to, fields }) => {
    if (fields.length > SHARE_FIELDS.length) throw appError(ErrorCode.INVALID_INPUT, "Too many fields.");
    await enforceRateLimit(ctx, "seasonShare", ctx.userId);
    return await Season.createShare(ctx, ctx.userId, { from, to, fields });
  },
});

/** Revokes one of the caller's links: it stops working at once. */
export const revokeShare = userMutation({
  args: { id: v.id("seasonShares") },
  returns: v.null(),
  handler: async (ctx, { id }) => {
    await Season.revokeShare(ctx, ctx.userId, id);
    return null;
  },
});

/**
 * A public link's season, only the figures its owner chose; null for a link
 * that does not exist (never made, or revoked). A mutation so that strangers'
 * opens are rate limited, site-wide and per link.
 */
export const openShared = publicMutation({
  args: { token: v.string() },
  returns: v.union(Season.seasonValidator, v.null()),
  handler: async (ctx, { token }) => {
    if (!SHARE_TOKEN_PATTERN.test(token)) throw appError(ErrorCode.INVALID_INPUT, "That is not a season link.");
    await enforceRateLimit(ctx, "seasonShareOpen");
    const share = await Season.shareByToken(ctx, token);
    if (share === null || (await ctx.db.get("users", share.userId)) === null) return null;
    await enforceRateLimit(ctx, "seasonShareOpenLink", share._id);
    const profile = await ctx.db
      .query("profiles")
      .withIndex("by_userId", (q) => q.eq("userId", share.userId))
      .unique();
    const today = localDateString(Date.now(), profile?.timeZone ?? DEFAULT_TIME_ZONE);
    const season = await Season.readSeason(ctx, share.userId, { period: { from: share.from, to: share.to }, today });
    return Season.onlyChosen(season, share.fields);
  },
});
