import { v } from "convex/values";
import { internalQuery } from "./_generated/server";
import { checkInvariants } from "./model/invariants";

/**
 * Recounts the data and lists every broken invariant (see model/invariants).
 * Internal: for tests, the fuzzer and `npm run backend -- run invariants:check '{}'`.
 */
export const check = internalQuery({
  args: {},
  returns: v.object({ ok: v.boolean(), problems: v.array(v.string()) }),
  handler: async (ctx) => await checkInvariants(ctx),
});
