import { getAuthUserId } from "@convex-dev/auth/server";
import { v } from "convex/values";
import { customAction, customCtx, customMutation, customQuery } from "convex-helpers/server/customFunctions";
import { internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import {
  action,
  internalMutation as rawInternalMutation,
  internalQuery,
  mutation as rawMutation,
  query,
  type ActionCtx,
  type MutationCtx,
  type QueryCtx,
} from "./_generated/server";
import { appError, ErrorCode } from "./errors";
import { triggers } from "./triggers";

type AuthCtx = Pick<QueryCtx, "auth" | "db">;

/**
 * The signed-in user's id, or null for an anonymous caller. A session token
 * outlives a deleted account (its JWT stays valid until it expires), so an
 * identity whose user row is gone counts as anonymous: it can no longer act.
 */
export async function currentUserId(ctx: AuthCtx): Promise<Id<"users"> | null> {
  const userId = await getAuthUserId(ctx);
  if (userId === null) return null;
  const user = await ctx.db.get("users", userId);
  return user === null ? null : userId;
}

/** The message for a token whose account was deleted. */
const ACCOUNT_GONE = "Account not found. Please sign in again.";

async function requireUserId(ctx: AuthCtx): Promise<Id<"users">> {
  const userId = await getAuthUserId(ctx);
  if (userId === null) throw appError(ErrorCode.NOT_SIGNED_IN, "Please sign in to continue.");
  if ((await ctx.db.get("users", userId)) === null) throw appError(ErrorCode.NOT_SIGNED_IN, ACCOUNT_GONE);
  return userId;
}

/** Whether the user row still exists (actions have no `db`; they ask this query). */
export const userExists = internalQuery({
  args: { userId: v.id("users") },
  returns: v.boolean(),
  handler: async (ctx, { userId }) => (await ctx.db.get("users", userId)) !== null,
});

async function requireActionUserId(ctx: ActionCtx): Promise<Id<"users">> {
  const userId = await getAuthUserId(ctx);
  if (userId === null) throw appError(ErrorCode.NOT_SIGNED_IN, "Please sign in to continue.");
  if (!(await ctx.runQuery(internal.functions.userExists, { userId }))) {
    throw appError(ErrorCode.NOT_SIGNED_IN, ACCOUNT_GONE);
  }
  return userId;
}

async function isAdminUser(ctx: QueryCtx, userId: Id<"users">): Promise<boolean> {
  const profile = await ctx.db
    .query("profiles")
    .withIndex("by_userId", (q) => q.eq("userId", userId))
    .unique();
  return profile?.isAdmin === true;
}

/** A query open to everyone; `ctx.userId` is the caller or null. */
export const publicQuery = customQuery(
  query,
  customCtx(async (ctx) => ({ userId: await currentUserId(ctx) })),
);

/**
 * A query whose answer is the same for every caller: it never reads
 * `ctx.auth`, so Convex shares one execution among all its subscribers.
 */
export const sharedQuery = customQuery(
  query,
  customCtx(async () => ({})),
);

/** A query for signed-in callers; `ctx.userId` is set. */
export const userQuery = customQuery(
  query,
  customCtx(async (ctx) => ({ userId: await requireUserId(ctx) })),
);

/** A mutation open to everyone; `ctx.userId` is the caller or null. */
export const publicMutation = customMutation(
  rawMutation,
  customCtx(async (ctx) => {
    const withTriggers = triggers.wrapDB(ctx);
    return { db: withTriggers.db, userId: await currentUserId(withTriggers) };
  }),
);

/** A mutation for signed-in callers; `ctx.userId` is set. */
export const userMutation = customMutation(
  rawMutation,
  customCtx(async (ctx) => {
    const withTriggers = triggers.wrapDB(ctx);
    return { db: withTriggers.db, userId: await requireUserId(withTriggers) };
  }),
);

/** An action for signed-in callers; `ctx.userId` is set. */
export const userAction = customAction(
  action,
  customCtx(async (ctx) => ({ userId: await requireActionUserId(ctx) })),
);

/** A query only admins may call. */
export const adminQuery = customQuery(
  query,
  customCtx(async (ctx) => {
    const userId = await requireUserId(ctx);
    if (!(await isAdminUser(ctx, userId))) throw appError(ErrorCode.FORBIDDEN, "Admins only.");
    return { userId };
  }),
);

/** A mutation only admins may call. */
export const adminMutation = customMutation(
  rawMutation,
  customCtx(async (ctx) => {
    const withTriggers = triggers.wrapDB(ctx);
    const userId = await requireUserId(withTriggers);
    if (!(await isAdminUser(withTriggers, userId))) throw appError(ErrorCode.FORBIDDEN, "Admins only.");
    return { db: withTriggers.db, userId };
  }),
);

/**
 * An internal mutation (crons, migrations, the CLI, scheduled work). Like every
 * mutation builder here, its `ctx.db` runs the triggers in `./triggers`.
 */
export const internalMutation = customMutation(
  rawInternalMutation,
  customCtx(async (ctx: MutationCtx) => ({ db: triggers.wrapDB(ctx).db })),
);
