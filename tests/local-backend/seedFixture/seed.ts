/**
 * A dev-functions folder for the fixture (`--dev-functions`): a seed that makes a demo
 * account with a published password, as convex-dev/seed.ts does, and a way to change it.
 */
import { createAccount, modifyAccountCredentials } from "@convex-dev/auth/server";
import { internalActionGeneric } from "convex/server";
import { v } from "convex/values";

export const DEMO_ACCOUNT = "demo@fixture.test";

export const run = internalActionGeneric({
  args: {},
  handler: async (ctx) => {
    await createAccount(ctx as any, {
      provider: "password",
      account: { id: DEMO_ACCOUNT, secret: "published-demo-password" },
      profile: { email: DEMO_ACCOUNT },
    });
    return "one demo account";
  },
});

export const changeDemoPassword = internalActionGeneric({
  args: { password: v.string() },
  handler: async (ctx, { password }) => {
    await modifyAccountCredentials(ctx as any, {
      provider: "password",
      account: { id: DEMO_ACCOUNT, secret: password },
    });
    return null;
  },
});

/** An account made outside seeding (no marker records it), e.g. one an import brought. */
export const makeAccount = internalActionGeneric({
  args: { email: v.string(), password: v.string() },
  handler: async (ctx, { email, password }) => {
    await createAccount(ctx as any, {
      provider: "password",
      account: { id: email, secret: password },
      profile: { email },
    });
    return null;
  },
});
