import { paginationOptsValidator } from "convex/server";
import { v } from "convex/values";
import { internal } from "./_generated/api";
import { internalQuery } from "./_generated/server";
import { internalMutation, sharedQuery, userMutation, userQuery } from "./functions";
import * as Followers from "./model/micFollowers";
import * as FanOut from "./model/notificationFanOut";
import { assertPageOpts } from "./lib/requestRules";
import * as Notifications from "./model/notifications";
import { enforceRateLimit } from "./rateLimits";

/** The caller's newest notices and how many are unread; live, so the bell and the inbox update at once. */
export const inbox = userQuery({
  args: {},
  returns: v.object({ entries: v.array(Notifications.inboxEntryValidator), unread: v.number() }),
  handler: async (ctx) => await Notifications.inbox(ctx, ctx.userId),
});

/** One page of the caller's notices, newest first (the inbox page). */
export const inboxPage = userQuery({
  args: { paginationOpts: paginationOptsValidator },
  handler: async (ctx, { paginationOpts }) => {
    assertPageOpts(paginationOpts);
    return await Notifications.inboxPage(ctx, ctx.userId, paginationOpts);
  },
});

/** How many of the caller's notices are unread, up to one past a page (the bell shows "50+"). */
export const unreadCount = userQuery({
  args: {},
  returns: v.number(),
  handler: async (ctx) => await Notifications.unreadCount(ctx, ctx.userId),
});

/** Marks one of the caller's notices read. */
export const markRead = userMutation({
  args: { id: v.id("notifications") },
  returns: v.null(),
  handler: async (ctx, { id }) => await Notifications.markRead(ctx, ctx.userId, id, Date.now()),
});

/** Marks the caller's unread notices read; true while more remain (call again). */
export const markAllRead = userMutation({
  args: {},
  returns: v.boolean(),
  handler: async (ctx) => await Notifications.markAllRead(ctx, ctx.userId, Date.now()),
});

/** The caller's notification choices (defaults when they never chose). */
export const preferences = userQuery({
  args: {},
  returns: Notifications.prefsValidator,
  handler: async (ctx) => await Notifications.readPrefs(ctx, ctx.userId),
});

/** Saves the caller's notification choices: topics, lead time, quiet hours and their time zone. */
export const savePreferences = userMutation({
  args: Notifications.prefsValidator.fields,
  returns: v.null(),
  handler: async (ctx, prefs) => await Notifications.savePrefs(ctx, ctx.userId, prefs),
});

/** Whether the caller muted one mic's notices. */
export const micMuted = userQuery({
  args: { micId: v.id("sceneItems") },
  returns: v.boolean(),
  handler: async (ctx, { micId }) => await Notifications.isMuted(ctx, ctx.userId, micId),
});

/** Mutes or unmutes one mic's notices for the caller. */
export const setMicMuted = userMutation({
  args: { micId: v.id("sceneItems"), muted: v.boolean() },
  returns: v.null(),
  handler: async (ctx, { micId, muted }) => await Notifications.setMuted(ctx, { userId: ctx.userId, micId, muted }),
});

/** The deployment's VAPID public key, or null when push is not set up (the app then offers the inbox only). */
export const pushConfig = sharedQuery({
  args: {},
  returns: v.object({ publicKey: v.union(v.string(), v.null()) }),
  handler: async () => ({ publicKey: Notifications.vapidSettings()?.publicKey ?? null }),
});

/** Keeps this device's push subscription for the caller. */
export const subscribe = userMutation({
  args: { subscription: Notifications.subscriptionValidator },
  returns: v.null(),
  handler: async (ctx, { subscription }) => {
    await enforceRateLimit(ctx, "pushSubscribe", ctx.userId);
    return await Notifications.subscribe(ctx, ctx.userId, subscription);
  },
});

/** Forgets this device for the caller. */
export const unsubscribe = userMutation({
  args: { endpoint: v.string() },
  returns: v.null(),
  handler: async (ctx, { endpoint }) => await Notifications.unsubscribe(ctx, ctx.userId, endpoint),
});

/** Whether this device (its push endpoint) gets the caller's notifications. */
export const deviceSubscribed = userQuery({
  args: { endpoint: v.string() },
  returns: v.boolean(),
  handler: async (ctx, { endpoint }) => await Notifications.hasDevice(ctx, ctx.userId, endpoint),
});

// ---------------------------------------------------------------------------
// Scheduled work

/** One batch of a fan-out to a mic's followers; schedules the next batch. */
export const fanOut = internalMutation({
  args: { job: FanOut.fanOutJobValidator },
  returns: v.number(),
  handler: async (ctx, { job }) => {
    const { told, next } = await FanOut.fanOutBatch(ctx, job, Date.now());
    if (next !== null) await ctx.scheduler.runAfter(0, internal.notifications.fanOut, { job: next });
    return told;
  },
});

/** The minute cron: fires the list-opening alarms that are due. */
export const fireAlarms = internalMutation({
  args: {},
  returns: v.number(),
  handler: async (ctx) => {
    const { fired, more } = await FanOut.fireDueAlarms(ctx, Date.now());
    if (more) await ctx.scheduler.runAfter(0, internal.notifications.fireAlarms, {});
    return fired;
  },
});

/**
 * Migration: gives every active mic its list-opening alarm, a page at a time (reschedules
 * itself). Run once after deploying: `npx convex run notifications:backfillAlarms`.
 */
export const backfillAlarms = internalMutation({
  args: { cursor: v.optional(v.union(v.string(), v.null())) },
  returns: v.null(),
  handler: async (ctx, { cursor }) => {
    const page = await FanOut.backfillAlarms(ctx, cursor ?? null, Date.now());
    if (!page.done) await ctx.scheduler.runAfter(0, internal.notifications.backfillAlarms, { cursor: page.cursor });
    return null;
  },
});

/** After a comedian changed their lead time: their follower rows past the first batch, a batch at a time. */
export const releadFollowers = internalMutation({
  args: { userId: v.id("users"), afterMic: v.id("sceneItems") },
  returns: v.null(),
  handler: async (ctx, { userId, afterMic }) => {
    const last = await Followers.releadFollowers(ctx, userId, afterMic);
    if (last !== null)
      await ctx.scheduler.runAfter(0, internal.notifications.releadFollowers, { userId, afterMic: last });
    return null;
  },
});

/**
 * Migration: gives existing favourites, then schedule entries, their follower rows, a page
 * at a time (reschedules itself). Run once after deploying: `npx convex run notifications:backfillFollowers`.
 */
export const backfillFollowers = internalMutation({
  args: {
    table: v.optional(v.union(v.literal("favorites"), v.literal("scheduleEntries"))),
    cursor: v.optional(v.union(v.string(), v.null())),
  },
  returns: v.null(),
  handler: async (ctx, args) => {
    const table = args.table ?? "favorites";
    const page = await Followers.backfillFollowersPage(ctx, { table, cursor: args.cursor ?? null });
    if (!page.done) {
      await ctx.scheduler.runAfter(0, internal.notifications.backfillFollowers, { table, cursor: page.cursor });
    } else if (table === "favorites") {
      await ctx.scheduler.runAfter(0, internal.notifications.backfillFollowers, { table: "scheduleEntries" });
    }
    return null;
  },
});

/** After a lottery draw: everyone in it hears where they landed. */
export const lotteryDrawn = internalMutation({
  args: { listId: v.id("nightLists") },
  returns: v.number(),
  handler: async (ctx, { listId }) => await FanOut.lotteryDrawn(ctx, listId, Date.now()),
});

/** After a host's change to a running list: on deck and up next but one hear it. */
export const listMoved = internalMutation({
  args: { listId: v.id("nightLists") },
  returns: v.number(),
  handler: async (ctx, { listId }) => await FanOut.listMoved(ctx, listId, Date.now()),
});

/** The push action's job: the notice and the devices (null once sent). */
export const deliveryJob = internalQuery({
  args: { notificationId: v.id("notifications") },
  returns: Notifications.deliveryJobValidator,
  handler: async (ctx, { notificationId }) => await Notifications.deliveryJob(ctx, notificationId),
});

/** The push action's result: sent, and devices the push service no longer knows removed. */
export const deliveryDone = internalMutation({
  args: { notificationId: v.id("notifications"), gone: v.array(v.string()) },
  returns: v.null(),
  handler: async (ctx, args) => await Notifications.deliveryDone(ctx, args),
});
