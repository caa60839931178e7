import { getAuthUserId } from "@convex-dev/auth/server";
import {
  customAction,
  customCtx,
  customMutation,
  customQuery,
} from "convex-helpers/server/customFunctions";
import type { Id } from "./_generated/dataModel";
import { action, mutation, query, type QueryCtx } from "./_generated/server";
import { appError, ErrorCode } from "./errors";

/** The signed-in user's id, or null for an anonymous caller. */
export async function currentUserId(ctx: { auth: QueryCtx["auth"] }): Promise<Id<"users"> | null> {
  return await getAuthUserId(ctx);
}

async function requireUserId(ctx: { auth: QueryCtx["auth"] }): Promise<Id<"users">> {
  const userId = await getAuthUserId(ctx);
  if (userId === null) throw appError(ErrorCode.NOT_SIGNED_IN, "Please sign in to continue.");
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

/** A query for signed-in callers; `ctx.userId` is set. */
export const userQuery = customQuery(
  query,
  customCtx(async (ctx) => ({ userId: await requireUserId(ctx) })),
);

/** A mutation open to everyone; `ctx.userId` is the caller or null. */
export const publicMutation = customMutation(
  mutation,
  customCtx(async (ctx) => ({ userId: await currentUserId(ctx) })),
);

/** A mutation for signed-in callers; `ctx.userId` is set. */
export const userMutation = customMutation(
  mutation,
  customCtx(async (ctx) => ({ userId: await requireUserId(ctx) })),
);

/** An action for signed-in callers; `ctx.userId` is set. */
export const userAction = customAction(
  action,
  customCtx(async (ctx) => ({ userId: await requireUserId(ctx) })),
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
  mutation,
  customCtx(async (ctx) => {
    const userId = await requireUserId(ctx);
    if (!(await isAdminUser(ctx, userId))) throw appError(ErrorCode.FORBIDDEN, "Admins only.");
    return { userId };
  }),
);
