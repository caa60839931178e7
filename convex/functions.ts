import { getAuthSessionId, getAuthUserId } from "@convex-dev/auth/server";
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
import { isAdmin } from "./model/access";
import { triggers } from "./triggers";

type AuthCtx = Pick<QueryCtx, "auth" | "db">;

/** The message for a token whose account was deleted. */
const ACCOUNT_GONE = "Account not found. Please sign in again.";
/** The message for a token whose session ended (signed out, or signed in again elsewhere). */
export const SESSION_ENDED = "Your session has ended. Please sign in again.";

/**
 * The caller's user id, or why their token no longer counts. A JWT stays
 * valid until it expires, so both the account and the token's session must
 * still exist: signing out deletes the session, and with it in every
 * query's read set a live subscription re-runs and stops answering.
 */
async function tokenUser(
  ctx: AuthCtx,
): Promise<{ userId: Id<"users"> } | { userId: null; reason: "anonymous" | "gone" | "ended" }> {
  const userId = await getAuthUserId(ctx);
  if (userId === null) return { userId: null, reason: "anonymous" };
  const sessionId = ctx.db.normalizeId("authSessions", (await getAuthSessionId(ctx)) ?? "");
  const [user, session] = await Promise.all([
    ctx.db.get("users", userId),
    sessionId === null ? null : ctx.db.get("authSessions", sessionId),
  ]);
  if (user === null) return { userId: null, reason: "gone" };
  if (session === null || session.userId !== userId) return { userId: null, reason: "ended" };
  return { userId };
}

/**
 * The signed-in user's id, or null for an anonymous caller. A token whose
 * account was deleted or whose session ended (sign-out) counts as anonymous:
 * it can no longer act.
 */
export async function currentUserId(ctx: AuthCtx): Promise<Id<"users"> | null> {
  return (await tokenUser(ctx)).userId;
}

function refusal(reason: "anonymous" | "gone" | "ended"): never {
  if (reason === "gone") throw appError(ErrorCode.NOT_SIGNED_IN, ACCOUNT_GONE);
  if (reason === "ended") throw appError(ErrorCode.NOT_SIGNED_IN, SESSION_ENDED);
  throw appError(ErrorCode.NOT_SIGNED_IN, "Please sign in to continue.");
}

async function requireUserId(ctx: AuthCtx): Promise<Id<"users">> {
  const found = await tokenUser(ctx);
  if (found.userId === null) refusal(found.reason);
  return found.userId;
}

/** Whether an action's caller still has their account and session (actions have no `db`; they ask this query). */
export const tokenStatus = internalQuery({
  args: {},
  returns: v.union(v.literal("ok"), v.literal("anonymous"), v.literal("gone"), v.literal("ended")),
  handler: async (ctx) => {
    const found = await tokenUser(ctx);
    return found.userId === null ? found.reason : "ok";
  },
});

async function requireActionUserId(ctx: ActionCtx): Promise<Id<"users">> {
  const userId = await getAuthUserId(ctx);
  if (userId === null) refusal("anonymous");
  // ctx.runQuery runs with the action's identity.
  const status = await ctx.runQuery(internal.functions.tokenStatus, {});
  if (status !== "ok") refusal(status);
  return userId;
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
    if (!(await isAdmin(ctx, userId))) throw appError(ErrorCode.FORBIDDEN, "Admins only.");
    return { userId };
  }),
);

/** A mutation only admins may call. */
export const adminMutation = customMutation(
  rawMutation,
  customCtx(async (ctx) => {
    const withTriggers = triggers.wrapDB(ctx);
    const userId = await requireUserId(withTriggers);
    if (!(await isAdmin(withTriggers, userId))) throw appError(ErrorCode.FORBIDDEN, "Admins only.");
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
