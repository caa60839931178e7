import { v } from "convex/values";
import { internal } from "./_generated/api";
import { internalMutation, userMutation, userQuery } from "./functions";
import * as Account from "./model/account";
import { exportData as exportAccountData } from "./model/accountExport";

/** Everything the caller owns, for the profile page's Export Data (saved as stagetime-export.json). */
export const exportData = userQuery({
  args: {},
  handler: async (ctx) => await exportAccountData(ctx, ctx.userId),
});

/**
 * Deletes the caller's account and everything they own, keeping the mics they
 * added (unlinked from them). The account goes at once (no sign-in, nothing
 * shown to others); the rest is removed in this transaction as far as
 * Convex's limits allow, then by a chain of scheduled batches (model/account).
 * The client signs out afterwards. `confirm` must be "DELETE", as typed in the dialog.
 */
export const deleteAccount = userMutation({
  args: { confirm: v.literal("DELETE") },
  returns: v.object({ done: v.boolean() }),
  handler: async (ctx) => {
    await Account.removeAccount(ctx, ctx.userId);
    const done = await Account.purgeOwnedRows(ctx, ctx.userId);
    if (!done) await ctx.scheduler.runAfter(0, internal.account.purgeBatch, { userId: ctx.userId });
    return { done };
  },
});

/** One more batch of a deleted account's rows, within one transaction's limits; schedules the next until none are left. */
export const purgeBatch = internalMutation({
  args: { userId: v.id("users") },
  returns: v.null(),
  handler: async (ctx, { userId }) => {
    const done = await Account.purgeOwnedRows(ctx, userId);
    if (!done) await ctx.scheduler.runAfter(0, internal.account.purgeBatch, { userId });
    return null;
  },
});
