import { paginationOptsValidator } from "convex/server";
import { v } from "convex/values";
import { adminMutation, adminQuery, userMutation } from "./functions";
import * as Reports from "./model/reports";
import { assertPageOpts } from "./lib/requestRules";
import { enforceRateLimit } from "./rateLimits";
import { reportKind } from "./schema";

/** Anyone signed in reports a problem with a mic ("other" needs a note). */
export const submit = userMutation({
  args: { micId: v.id("sceneItems"), kind: reportKind, note: v.optional(v.string()) },
  returns: v.id("problemReports"),
  handler: async (ctx, args) => {
    await enforceRateLimit(ctx, "problemReport", ctx.userId);
    return await Reports.submitReport(ctx, ctx.userId, args);
  },
});

/** Admin queue: open reports, newest first, a page at a time. */
export const list = adminQuery({
  args: { paginationOpts: paginationOptsValidator },
  returns: Reports.adminReportPageValidator,
  handler: async (ctx, { paginationOpts }) => {
    assertPageOpts(paginationOpts);
    return await Reports.listOpenReports(ctx, paginationOpts);
  },
});

/** Dismisses a report, deactivates its mic, or records that the mic was edited. */
export const resolve = adminMutation({
  args: {
    id: v.id("problemReports"),
    action: v.union(v.literal("dismiss"), v.literal("deactivate"), v.literal("edited")),
  },
  returns: v.null(),
  handler: async (ctx, { id, action }) => {
    await Reports.resolveReport(ctx, { adminId: ctx.userId, id, action, nowMs: Date.now() });
    return null;
  },
});
