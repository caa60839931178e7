import { v } from "convex/values";
import { internalMutation } from "./_generated/server";
import { appError, ErrorCode } from "./errors";
import { setAdminByEmail } from "./model/profiles";

/**
 * Grants or revokes admin rights by email. Internal on purpose: no public
 * function can make anyone an admin. Run it with the backend CLI:
 * `npm run backend -- run admin:setAdmin '{"email":"x@y.z","isAdmin":true}'`
 * (or `npx convex run admin:setAdmin ...` against Convex).
 */
export const setAdmin = internalMutation({
  args: { email: v.string(), isAdmin: v.boolean() },
  returns: v.object({ email: v.string(), isAdmin: v.boolean(), accounts: v.number() }),
  handler: async (ctx, { email, isAdmin }) => {
    const accounts = await setAdminByEmail(ctx, email, isAdmin);
    if (accounts === 0) {
      throw appError(ErrorCode.NOT_FOUND, `No account with the email ${email}.`);
    }
    return { email, isAdmin, accounts };
  },
});
