/** Set lists (src/features/bits): a comedian's own running orders of bits, for a night or to reuse. */
import { v } from "convex/values";
import { userMutation, userQuery } from "./functions";
import * as SetLists from "./model/setLists";
import { enforceRateLimit } from "./rateLimits";

/** The caller's set lists, newest first. */
export const list = userQuery({
  args: {},
  returns: v.array(SetLists.setListSummaryValidator),
  handler: async (ctx) => await SetLists.listSetLists(ctx, ctx.userId),
});

/** One of the caller's set lists with its bits, estimated total and night; null when not theirs. */
export const get = userQuery({
  args: { id: v.id("setLists") },
  returns: v.union(SetLists.setListViewValidator, v.null()),
  handler: async (ctx, { id }) => {
    const list = await SetLists.ownSetList(ctx, ctx.userId, id);
    return list === null ? null : await SetLists.setListView(ctx, list);
  },
});

/** A new set list from the caller's bits, optionally for a mic night. */
export const create = userMutation({
  args: { title: v.string(), bitIds: v.array(v.id("bits")), night: v.optional(SetLists.nightValidator) },
  returns: v.id("setLists"),
  handler: async (ctx, args) => {
    await enforceRateLimit(ctx, "createSetList", ctx.userId);
    return await SetLists.createSetList(ctx, ctx.userId, args);
  },
});

/** Renames a set list and saves its running order. */
export const update = userMutation({
  args: { id: v.id("setLists"), title: v.string(), bitIds: v.array(v.id("bits")) },
  returns: v.null(),
  handler: async (ctx, args) => {
    await SetLists.updateSetList(ctx, ctx.userId, args);
    return null;
  },
});

/** Attaches a set list to a mic night (a scheduled night or tonight's live list); null detaches it. */
export const attach = userMutation({
  args: { id: v.id("setLists"), night: v.union(SetLists.nightValidator, v.null()) },
  returns: v.null(),
  handler: async (ctx, args) => {
    await SetLists.attachSetList(ctx, ctx.userId, args);
    return null;
  },
});

/** Copies a set list (same bits, no night). */
export const duplicate = userMutation({
  args: { id: v.id("setLists") },
  returns: v.id("setLists"),
  handler: async (ctx, { id }) => {
    await enforceRateLimit(ctx, "createSetList", ctx.userId);
    return await SetLists.duplicateSetList(ctx, ctx.userId, id);
  },
});

/** Deletes one of the caller's set lists (its bits stay in the library). */
export const remove = userMutation({
  args: { id: v.id("setLists") },
  returns: v.null(),
  handler: async (ctx, { id }) => {
    await SetLists.removeSetList(ctx, ctx.userId, id);
    return null;
  },
});
