import { v } from "convex/values";
import { internalQuery } from "./_generated/server";
import { MAX_EMAIL_LENGTH } from "./lib/profileRules";

/**
 * The stored password hash of a password account (Convex Auth's `authAccounts`
 * row of provider "password"), or null: the sign-in action checks a password
 * against it (auth.ts, hashing in the action), so Convex Auth's `auth:store`
 * mutation only compares.
 */
export const storedPasswordHash = internalQuery({
  args: { email: v.string() },
  returns: v.union(v.null(), v.string()),
  handler: async (ctx, { email }) => {
    if (email.length > MAX_EMAIL_LENGTH) return null;
    const account = await ctx.db
      .query("authAccounts")
      .withIndex("providerAndAccountId", (q) => q.eq("provider", "password").eq("providerAccountId", email))
      .unique();
    return account?.secret ?? null;
  },
});
