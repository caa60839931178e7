import { v } from "convex/values";
import { internal } from "./_generated/api";
import { internalMutation, publicQuery, sharedQuery, userMutation, userQuery } from "./functions";
import * as NightListHost from "./model/nightListHost";
import * as NightListOpen from "./model/nightListOpen";
import * as NightListReopen from "./model/nightListReopen";
import * as NightLists from "./model/nightLists";
import * as NightListViews from "./model/nightListViews";

/** The mic's newest night list as everyone sees it: every screen that shows a
 * list subscribes to this, one shared execution per mic (it never reads the caller). */
export const current = sharedQuery({
  args: { micId: v.id("sceneItems") },
  returns: NightListViews.currentResultValidator,
  handler: async (ctx, { micId }) => await NightListViews.current(ctx, { micId }),
});

/** The caller's side of the mic's newest list: host rights, priority and their own row. */
export const viewer = publicQuery({
  args: { micId: v.id("sceneItems") },
  returns: NightListViews.viewerValidator,
  handler: async (ctx, { micId }) => await NightListViews.viewer(ctx, { viewer: ctx.userId, micId }),
});

/** The caller's newest spots on lists, for the in-app notices. */
export const myRecent = userQuery({
  args: {},
  returns: v.array(NightListViews.myRecentValidator),
  handler: async (ctx) => await NightListViews.myRecent(ctx, ctx.userId),
});

/** The host (approved claimant) or an admin opens a night's list. */
export const open = userMutation({
  args: NightListOpen.openArgsValidator,
  returns: v.id("nightLists"),
  handler: async (ctx, args) => {
    const nowMs = Date.now();
    const listId = await NightListOpen.openList(ctx, { userId: ctx.userId, settings: args, nowMs });
    if (args.mode === "lottery" && args.drawAt !== undefined && args.drawAt > nowMs) {
      await ctx.scheduler.runAt(args.drawAt, internal.nightLists.drawDue, { listId });
    }
    return listId;
  },
});

/** A comedian signs themselves up, once per night; their place shows on the list at once. */
export const signUp = userMutation({
  args: { listId: v.id("nightLists") },
  returns: v.object({ spotId: v.id("listSpots") }),
  handler: async (ctx, { listId }) => await NightLists.signUp(ctx, { userId: ctx.userId, listId, nowMs: Date.now() }),
});

/** A comedian takes their own name off the list. */
export const dropOut = userMutation({
  args: { listId: v.id("nightLists") },
  returns: v.null(),
  handler: async (ctx, { listId }) => await NightLists.dropOut(ctx, ctx.userId, listId),
});

/** The host adds a walk-in by name. */
export const addWalkIn = userMutation({
  args: { listId: v.id("nightLists"), name: v.string() },
  returns: v.id("listSpots"),
  handler: async (ctx, { listId, name }) =>
    await NightLists.addWalkIn(ctx, { userId: ctx.userId, listId, rawName: name }),
});

const hostSpotArgs = { listId: v.id("nightLists"), spotId: v.id("listSpots"), version: v.number() };

/** The host moves a spot to another place in its section (refused on a stale version). */
export const move = userMutation({
  args: { ...hostSpotArgs, toIndex: v.number() },
  returns: v.null(),
  handler: async (ctx, args) => await NightListHost.moveSpot(ctx, ctx.userId, args),
});

/** The host bumps a waiting comedian to the waitlist. */
export const bump = userMutation({
  args: hostSpotArgs,
  returns: v.null(),
  handler: async (ctx, args) => await NightListHost.bump(ctx, ctx.userId, args),
});

/** The host marks a waiting comedian a no-show. */
export const noShow = userMutation({
  args: hostSpotArgs,
  returns: v.null(),
  handler: async (ctx, args) => await NightListHost.noShow(ctx, ctx.userId, args),
});

/** The host takes a name off the list, whatever its section (pool, walk-in, spam). */
export const remove = userMutation({
  args: hostSpotArgs,
  returns: v.null(),
  handler: async (ctx, args) => await NightListHost.removeSpot(ctx, ctx.userId, args),
});

/** The host corrects a walk-in's name. */
export const renameWalkIn = userMutation({
  args: { listId: v.id("nightLists"), spotId: v.id("listSpots"), name: v.string() },
  returns: v.null(),
  handler: async (ctx, { listId, spotId, name }) =>
    await NightListHost.renameWalkIn(ctx, { userId: ctx.userId, listId, spotId, rawName: name }),
});

/** The host draws the lottery now. */
export const draw = userMutation({
  args: { listId: v.id("nightLists") },
  returns: v.number(),
  handler: async (ctx, { listId }) =>
    await NightListHost.drawByHost(ctx, { userId: ctx.userId, listId, nowMs: Date.now() }),
});

/** The host puts a comedian up. */
export const upNow = userMutation({
  args: { listId: v.id("nightLists"), spotId: v.id("listSpots") },
  returns: v.null(),
  handler: async (ctx, args) => await NightListHost.upNow(ctx, ctx.userId, args, Date.now()),
});

/** The host marks the set on stage done: the comedian's set is logged and counts as a check-in. */
export const done = userMutation({
  args: { listId: v.id("nightLists"), spotId: v.id("listSpots"), useTimer: v.boolean() },
  returns: v.object({ performanceId: v.union(v.id("performances"), v.null()), minutes: v.number() }),
  handler: async (ctx, args) => await NightListHost.done(ctx, ctx.userId, args, Date.now()),
});

/** The host ends the night and closes the list. */
export const close = userMutation({
  args: { listId: v.id("nightLists") },
  returns: v.null(),
  handler: async (ctx, { listId }) => await NightListHost.closeList(ctx, ctx.userId, listId),
});

/** The lottery's scheduled draw. */
export const drawDue = internalMutation({
  args: { listId: v.id("nightLists") },
  returns: v.null(),
  handler: async (ctx, { listId }) => await NightListHost.drawDue(ctx, listId, Date.now()),
});

/** The host reopens tonight's list after closing it (not a cancelled night's, not another night's). */
export const reopen = userMutation({
  args: { listId: v.id("nightLists") },
  returns: v.null(),
  handler: async (ctx, { listId }) =>
    await NightListReopen.reopenList(ctx, { userId: ctx.userId, listId, nowMs: Date.now() }),
});
