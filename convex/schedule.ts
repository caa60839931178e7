import { v } from "convex/values";
import { appError, ErrorCode } from "./errors";
import { publicMutation, userMutation } from "./functions";
import * as Schedule from "./model/schedule";

/** Adds a mic to the caller's schedule; returns the entry and its next occurrence. */
export const add = publicMutation({
  args: { sceneItemId: v.id("sceneItems") },
  returns: v.object({ entryId: v.id("scheduleEntries"), nextOccurrence: v.union(v.number(), v.null()) }),
  handler: async (ctx, { sceneItemId }) => {
    // Public so that signed-out callers get the schedule wording of the spec.
    if (ctx.userId === null) {
      throw appError(ErrorCode.NOT_SIGNED_IN, "Please sign in to add events to your schedule");
    }
    return await Schedule.addToSchedule(ctx, ctx.userId, sceneItemId, Date.now());
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
