/**
 * A query module the benchmark adds to convex-test's module map (it is not
 * part of convex/): runs a public query through `ctx.runQuery` and reports
 * what that run read, from the engine's transaction metrics, the same
 * counters that enforce Convex's per-transaction limits.
 */
import { makeFunctionReference, queryGeneric } from "convex/server";
import { v } from "convex/values";

export const measure = queryGeneric({
  args: { name: v.string(), args: v.any() },
  handler: async (ctx, { name, args }) => {
    const before = await ctx.meta.getTransactionMetrics();
    const result: unknown = await ctx.runQuery(makeFunctionReference<"query">(name), args);
    const after = await ctx.meta.getTransactionMetrics();
    return {
      documentsRead: after.documentsRead.used - before.documentsRead.used,
      bytesRead: after.bytesRead.used - before.bytesRead.used,
      databaseQueries: after.databaseQueries.used - before.databaseQueries.used,
      resultBytes: JSON.stringify(result ?? null).length,
      result,
    };
  },
});
