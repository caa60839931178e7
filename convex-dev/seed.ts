import { createAccount } from "@convex-dev/auth/server";
import { v, type Infer } from "convex/values";
import { internal } from "./_generated/api";
import { internal as appInternal } from "../convex/_generated/api";
import { internalAction, type MutationCtx } from "../convex/_generated/server";
import { internalMutation } from "../convex/functions";
import * as Seed from "./model/seed";
import { ADMIN_EMAIL, ADMIN_NAME, ADMIN_PASSWORD, DEMO_EMAIL, DEMO_NAME, DEMO_PASSWORD } from "./model/seedData";
import { readCommunityStats } from "../convex/model/stats";
import * as Account from "../convex/model/account";

const summary = v.object({
  /** False when the database already had a scene and nothing was written. */
  seeded: v.boolean(),
  message: v.string(),
  /** Active scene items (mics and shows) after the run. */
  mics: v.number(),
  cities: v.number(),
  comedians: v.number(),
  demoEmail: v.string(),
  adminEmail: v.string(),
});

/**
 * Seeds the demo scene, a demo comedian with five weeks of history and a demo
 * admin. The local backend runs it on an empty database at start
 * (`npm run backend -- run seed:run`). Does nothing when scene items exist.
 */
export const run = internalAction({
  args: {},
  returns: summary,
  handler: async (ctx): Promise<Infer<typeof summary>> => {
    const skipped: Infer<typeof summary> | null = await ctx.runMutation(internal.seed.skipIfSeeded, {});
    if (skipped !== null) return skipped;
    // Real password accounts, so the demo sign-in works exactly like any other;
    // the sign-up callback creates their profiles, populate finishes them.
    const demo = await createAccount(ctx, {
      provider: "password",
      account: { id: DEMO_EMAIL, secret: DEMO_PASSWORD },
      profile: { email: DEMO_EMAIL, name: DEMO_NAME },
    });
    const admin = await createAccount(ctx, {
      provider: "password",
      account: { id: ADMIN_EMAIL, secret: ADMIN_PASSWORD },
      profile: { email: ADMIN_EMAIL, name: ADMIN_NAME },
    });
    return await ctx.runMutation(internal.seed.populate, {
      demoUserId: demo.user._id,
      adminUserId: admin.user._id,
      now: Date.now(),
    });
  },
});

/** What `run` reports when the database already had a scene. */
async function alreadySeeded(ctx: MutationCtx): Promise<Infer<typeof summary>> {
  const stats = await readCommunityStats(ctx);
  return {
    seeded: false,
    message: "The database already has a scene; nothing was seeded.",
    mics: stats.venues,
    cities: stats.cities,
    comedians: stats.comedians,
    demoEmail: DEMO_EMAIL,
    adminEmail: ADMIN_EMAIL,
  };
}

/** The summary to return when a scene already exists, or null to go ahead. */
export const skipIfSeeded = internalMutation({
  args: {},
  returns: v.union(v.null(), summary),
  handler: async (ctx) => ((await Seed.hasScene(ctx)) ? await alreadySeeded(ctx) : null),
});

/** Writes the demo data in one transaction (re-checks that the scene is still empty). */
export const populate = internalMutation({
  args: { demoUserId: v.id("users"), adminUserId: v.id("users"), now: v.number() },
  returns: summary,
  handler: async (ctx, args) => {
    if (await Seed.hasScene(ctx)) return await alreadySeeded(ctx);
    const result = await Seed.populate(ctx, args);
    return {
      seeded: true,
      message: `Seeded ${result.mics} mics and shows in ${result.cities} cities. Demo comedian ${DEMO_EMAIL} / ${DEMO_PASSWORD}, demo admin ${ADMIN_EMAIL} / ${ADMIN_PASSWORD}.`,
      mics: result.mics,
      cities: result.cities,
      comedians: result.comedians,
      demoEmail: DEMO_EMAIL,
      adminEmail: ADMIN_EMAIL,
    };
  },
});

/**
 * Deletes the demo comedian and the demo admin (their passwords are in the README), as
 * deleting one's account does, keeping the scene. The local backend refuses to start
 * with --prod or on an address other machines reach while they still have those
 * passwords; this is the fix it names: `npm run backend -- run seed:removeDemoAccounts`.
 */
export const removeDemoAccounts = internalMutation({
  args: {},
  returns: v.object({ removed: v.array(v.string()) }),
  handler: async (ctx) => {
    const removed: string[] = [];
    for (const email of [DEMO_EMAIL, ADMIN_EMAIL]) {
      const account = await ctx.db
        .query("authAccounts")
        .withIndex("providerAndAccountId", (q) => q.eq("provider", "password").eq("providerAccountId", email))
        .unique();
      if (account === null) continue;
      await Account.removeAccount(ctx, account.userId);
      if (!(await Account.purgeOwnedRows(ctx, account.userId))) {
        await ctx.scheduler.runAfter(0, appInternal.account.purgeBatch, { userId: account.userId });
      }
      removed.push(email);
    }
    return { removed };
  },
});
