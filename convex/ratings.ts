/** "How did it go?" and the numbers of the caller's bits (src/features/bits). */
import { v } from "convex/values";
import { userMutation, userQuery } from "./functions";
import * as Ratings from "./model/bitRatings";
import { ownBit } from "./model/bits";

/** The newest set waiting for "How did it go?"; null when none. */
export const pending = userQuery({
  args: {},
  returns: Ratings.pendingReviewValidator,
  handler: async (ctx) => await Ratings.pendingReview(ctx, ctx.userId),
});

/** Rates bits of one of the caller's sets (also bits done without a set list, afterwards). */
export const rate = userMutation({
  args: { performanceId: v.id("performances"), ratings: v.array(Ratings.ratingInputValidator) },
  returns: v.null(),
  handler: async (ctx, args) => {
    await Ratings.rateSet(ctx, ctx.userId, args);
    return null;
  },
});

/** Waves off a set's "How did it go?". */
export const skip = userMutation({
  args: { performanceId: v.id("performances") },
  returns: v.null(),
  handler: async (ctx, { performanceId }) => {
    await Ratings.skipReview(ctx, ctx.userId, performanceId);
    return null;
  },
});

/** One of the caller's sets: how each bit went and how much landed. */
export const forSet = userQuery({
  args: { performanceId: v.id("performances") },
  returns: Ratings.setRatingsValidator,
  handler: async (ctx, { performanceId }) => await Ratings.setRatings(ctx, ctx.userId, performanceId),
});

/** A bit's best and worst rooms; null for a bit that is not the caller's. */
export const rooms = userQuery({
  args: { bitId: v.id("bits") },
  returns: v.union(
    v.null(),
    v.object({
      best: v.union(v.null(), Ratings.roomValidator),
      worst: v.union(v.null(), Ratings.roomValidator),
      rooms: v.number(),
    }),
  ),
  handler: async (ctx, { bitId }) => {
    if ((await ownBit(ctx, ctx.userId, bitId)) === null) return null;
    return await Ratings.bestAndWorstRooms(ctx, bitId);
  },
});

/** The caller's library bits never done at a mic. */
export const notDoneAt = userQuery({
  args: { micId: v.id("sceneItems") },
  returns: v.array(Ratings.notDoneValidator),
  handler: async (ctx, { micId }) => await Ratings.bitsNotDoneAt(ctx, ctx.userId, micId),
});
