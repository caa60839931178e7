/** The bit library (src/features/bits): a comedian's own bits, never anyone else's. */
import { paginationOptsValidator } from "convex/server";
import { v } from "convex/values";
import { userMutation, userQuery } from "./functions";
import { assertPageOpts } from "./lib/requestRules";
import * as Bits from "./model/bits";
import { enforceRateLimit } from "./rateLimits";
import { bitStatus } from "./schema";

/** One page of the caller's bits: by search, tag and status, archived or not. */
export const list = userQuery({
  args: {
    paginationOpts: paginationOptsValidator,
    archived: v.boolean(),
    status: v.optional(bitStatus),
    tag: v.optional(v.string()),
    search: v.optional(v.string()),
  },
  handler: async (ctx, { paginationOpts, ...filter }) => {
    assertPageOpts(paginationOpts);
    return await Bits.listBits(ctx, ctx.userId, filter, paginationOpts);
  },
});

/** The distinct tags of the caller's bits, for the library's filter. */
export const tags = userQuery({
  args: {},
  returns: v.array(v.string()),
  handler: async (ctx) => await Bits.listTags(ctx, ctx.userId),
});

/** One of the caller's bits with its numbers; null for a bit that is not theirs or is gone. */
export const get = userQuery({
  args: { id: v.id("bits") },
  returns: v.union(Bits.bitViewValidator, v.null()),
  handler: async (ctx, { id }) => {
    const bit = await Bits.ownBit(ctx, ctx.userId, id);
    return bit === null ? null : Bits.toBitView(bit);
  },
});

/** Adds a bit to the caller's library. */
export const create = userMutation({
  args: Bits.bitInputValidator,
  returns: v.id("bits"),
  handler: async (ctx, input) => {
    await enforceRateLimit(ctx, "createBit", ctx.userId);
    return await Bits.createBit(ctx, ctx.userId, input);
  },
});

/** Edits one of the caller's bits. */
export const update = userMutation({
  args: { id: v.id("bits"), ...Bits.bitInputValidator },
  returns: v.null(),
  handler: async (ctx, { id, ...input }) => {
    await Bits.updateBit(ctx, ctx.userId, id, input);
    return null;
  },
});

/** Archives one of the caller's bits, or brings it back. */
export const setArchived = userMutation({
  args: { id: v.id("bits"), archived: v.boolean() },
  returns: v.null(),
  handler: async (ctx, args) => {
    await Bits.setArchived(ctx, ctx.userId, args);
    return null;
  },
});
