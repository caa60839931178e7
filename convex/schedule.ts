import { v } from "convex/values";
import { internal } from "./_generated/api";
import { appError, ErrorCode } from "./errors";
import { internalMutation, publicMutation, userMutation, userQuery } from "./functions";
import * as Schedule from "./model/schedule";
import * as ScheduleDue from "./model/scheduleDue";
import * as ScheduleWeek from "./model/scheduleWeek";
import { assertTimeMs } from "./lib/requestRules";

/** Adds a mic to the caller's schedule; returns the entry and its next occurrence. */
export const add = publicMutation({
  args: { sceneItemId: v.id("sceneItems") },
  returns: v.object({
    entryId: v.id("scheduleEntries"),
    nextOccurrence: v.union(v.number(), v.null()),
    /** The comedian's scheduled mics whose night overlaps this one (start to start + set + 30 min). */
    overlaps: v.array(v.object({ title: v.string(), startMs: v.number() })),
  }),
  handler: async (ctx, { sceneItemId }) => {
    // Public so that signed-out callers get the schedule wording of the spec.
    if (ctx.userId === null) {
      throw appError(ErrorCode.NOT_SIGNED_IN, "Please sign in to add events to your schedule");
    }
    return await Schedule.addToSchedule(ctx, { userId: ctx.userId, sceneItemId, nowMs: Date.now() });
  },
});

/** Removes one of the caller's schedule entries. */
export const remove = userMutation({
  args: { entryId: v.id("scheduleEntries") },
  returns: v.null(),
  handler: async (ctx, { entryId }) => {
    await Schedule.removeEntry(ctx, ctx.userId, entryId);
    return null;
  },
});

/** Removes the caller's schedule entries for a mic (the event dialog's action). */
export const removeByItem = userMutation({
  args: { sceneItemId: v.id("sceneItems") },
  returns: v.null(),
  handler: async (ctx, { sceneItemId }) => {
    await Schedule.removeByItem(ctx, ctx.userId, sceneItemId);
    return null;
  },
});

/**
 * The caller's Monday-to-Sunday week (bounds from lib/weeks `scheduleWeek`):
 * scheduled mics, logged sets and the mics they created, sorted by start,
 * with the page's four stat tiles. `nowMs` (rounded by the client) decides
 * which occurrences are already over.
 */
export const week = userQuery({
  args: { weekStartMs: v.number(), weekEndMs: v.number(), nowMs: v.number() },
  returns: ScheduleWeek.weekValidator,
  handler: async (ctx, args) => {
    assertTimeMs(args.nowMs);
    return await ScheduleWeek.week(ctx, ctx.userId, args);
  },
});

/** The caller's scheduled, active mics that still run from `fromMs`, for the .ics export. */
export const calendar = userQuery({
  args: { fromMs: v.number() },
  returns: v.array(ScheduleWeek.calendarItemValidator),
  handler: async (ctx, { fromMs }) => {
    assertTimeMs(fromMs);
    return await ScheduleWeek.calendar(ctx, ctx.userId, fromMs);
  },
});

/**
 * The five-minute cleanup (crons.ts): marks finished occurrences done and
 * removes entries that are over, reading only the entries that are due; it
 * reschedules itself while a full batch was due.
 */
export const cleanupCompleted = internalMutation({
  // Batches queued by the cursor-based cleanup before `dueAt` still carry these;
  // they are accepted and ignored (the due index needs no cursor).
  args: { cursor: v.optional(v.string()), markedBefore: v.optional(v.number()) },
  returns: v.object({ marked: v.number(), removed: v.number(), more: v.boolean() }),
  handler: async (ctx) => {
    const result = await ScheduleDue.cleanupCompleted(ctx, Date.now());
    if (result.more) await ctx.scheduler.runAfter(0, internal.schedule.cleanupCompleted, {});
    return result;
  },
});

/**
 * Migration: sets `dueAt` on entries written before it existed, in batches
 * (reschedules itself). Run once after deploying, e.g.
 * `npx convex run schedule:backfillDueAt` or `npm run backend -- run schedule:backfillDueAt`;
 * until then the cleanup treats those entries as due.
 */
export const backfillDueAt = internalMutation({
  args: {},
  returns: v.object({ updated: v.number(), more: v.boolean() }),
  handler: async (ctx) => {
    const result = await ScheduleDue.backfillDueAt(ctx, Date.now());
    if (result.more) await ctx.scheduler.runAfter(0, internal.schedule.backfillDueAt, {});
    return result;
  },
});
