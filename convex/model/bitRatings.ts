/**
 * "How did it go?": after a set on a night with a set list attached, the
 * comedian rates each bit landed / okay / flat (a note, and "cut it" to take
 * the bit out of the set list). Skippable; never part of logging itself.
 * Bits done without a set list are rated on the set afterwards the same way.
 * The numbers these feed are kept by model/bitTriggers.
 */
import { v } from "convex/values";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { appError, ErrorCode } from "../errors";
import { BIT_NOT_FOUND, MAX_SET_LIST_BITS, ratingNote, SET_LIST_TOO_MANY_BITS, SET_NOT_FOUND } from "../lib/bitRules";
import { invalid } from "../lib/textRules";
import { bitRating, bitStatus } from "../schema";
import { ownBit } from "./bits";

/** Rooms read for a bit's best and worst (a bit is done at a few dozen mics at most). */
export const MAX_ROOMS = 200;
/** Bits of each status read for "not done at this mic yet". */
export const MAX_CANDIDATES = 200;

export const ratingInputValidator = v.object({
  bitId: v.id("bits"),
  rating: bitRating,
  note: v.optional(v.string()),
  /** Take the bit out of the set list the set was done from. */
  cut: v.optional(v.boolean()),
});

export const pendingReviewValidator = v.union(
  v.null(),
  v.object({
    performanceId: v.id("performances"),
    performedAt: v.number(),
    venueName: v.string(),
    setListTitle: v.union(v.string(), v.null()),
    bits: v.array(v.object({ _id: v.id("bits"), title: v.string() })),
  }),
);

export const setRatingsValidator = v.object({
  ratings: v.array(
    v.object({
      bitId: v.id("bits"),
      title: v.string(),
      rating: bitRating,
      note: v.union(v.string(), v.null()),
    }),
  ),
  /** Bits of the set still to rate (from its set list). */
  unrated: v.array(v.object({ _id: v.id("bits"), title: v.string() })),
  rated: v.number(),
  landed: v.number(),
  status: v.union(v.literal("pending"), v.literal("done"), v.literal("skipped"), v.null()),
  /** The set list the set was done from (its bits can be cut from it); null for a set without one. */
  setListTitle: v.union(v.string(), v.null()),
});

/** The venue line of a set: its mic's venue, else the name kept on the set. */
function venueNameOf(set: Doc<"performances">, mic: Doc<"sceneItems"> | null): string {
  return mic?.venueName ?? set.venueName ?? "Unknown Venue";
}

async function requireOwnSet(ctx: QueryCtx, userId: Id<"users">, id: Id<"performances">) {
  const set = await ctx.db.get("performances", id);
  if (set === null || set.userId !== userId) throw appError(ErrorCode.NOT_FOUND, SET_NOT_FOUND);
  return set;
}

export async function reviewOf(ctx: QueryCtx, performanceId: Id<"performances">) {
  return await ctx.db
    .query("setReviews")
    .withIndex("by_performance", (q) => q.eq("performanceId", performanceId))
    .first();
}

/**
 * Called by the set trigger when a set is logged (wizard, host's Done,
 * offline outbox): a pending review for the bits of the set list attached
 * to that night, if any.
 */
export async function openReview(
  ctx: MutationCtx,
  set: Doc<"performances">,
  list: Doc<"setLists">,
): Promise<Id<"setReviews"> | null> {
  if (list.bitIds.length === 0 || (await reviewOf(ctx, set._id)) !== null) return null;
  return await ctx.db.insert("setReviews", {
    userId: set.userId,
    performanceId: set._id,
    setListId: list._id,
    ...(set.sceneItemId !== undefined ? { sceneItemId: set.sceneItemId } : {}),
    performedAt: set.performedAt,
    status: "pending",
    bitIds: list.bitIds,
    rated: 0,
    landed: 0,
    okay: 0,
    flat: 0,
  });
}

/** Rates bits of one of the caller's sets (new ratings or changed ones); the set's review is done. */
export async function rateSet(
  ctx: MutationCtx,
  userId: Id<"users">,
  args: {
    performanceId: Id<"performances">;
    ratings: Array<{ bitId: Id<"bits">; rating: Doc<"bitRatings">["rating"]; note?: string; cut?: boolean }>;
  },
): Promise<void> {
  if (args.ratings.length > MAX_SET_LIST_BITS) invalid(SET_LIST_TOO_MANY_BITS);
  const notes = args.ratings.map((r) => ratingNote(r.note));
  const set = await requireOwnSet(ctx, userId, args.performanceId);
  const bits = await Promise.all(args.ratings.map((r) => ownBit(ctx, userId, r.bitId)));
  if (bits.some((b) => b === null)) throw appError(ErrorCode.NOT_FOUND, BIT_NOT_FOUND);
  const month = set.performanceDate.slice(0, 7);
  for (const [i, r] of args.ratings.entries()) {
    const existing = await ctx.db
      .query("bitRatings")
      .withIndex("by_performance_and_bit", (q) => q.eq("performanceId", set._id).eq("bitId", r.bitId))
      .first();
    const fields = { rating: r.rating, note: notes[i] };
    if (existing !== null) await ctx.db.patch("bitRatings", existing._id, fields);
    else {
      await ctx.db.insert("bitRatings", {
        userId,
        bitId: r.bitId,
        performanceId: set._id,
        ...(set.sceneItemId !== undefined ? { sceneItemId: set.sceneItemId } : {}),
        performedAt: set.performedAt,
        month,
        ...fields,
      });
    }
  }
  // The ratings' trigger made the review (for bits added afterwards) or moved its counts.
  const review = await reviewOf(ctx, set._id);
  if (review !== null && review.status !== "done") await ctx.db.patch("setReviews", review._id, { status: "done" });
  const cuts = new Set(args.ratings.filter((r) => r.cut === true).map((r) => r.bitId));
  if (cuts.size > 0 && review?.setListId !== undefined) {
    const list = await ctx.db.get("setLists", review.setListId);
    if (list !== null && list.userId === userId) {
      await ctx.db.patch("setLists", list._id, { bitIds: list.bitIds.filter((id) => !cuts.has(id)) });
    }
  }
}

/** Waves off a set's "How did it go?". */
export async function skipReview(ctx: MutationCtx, userId: Id<"users">, performanceId: Id<"performances">) {
  await requireOwnSet(ctx, userId, performanceId);
  const review = await reviewOf(ctx, performanceId);
  if (review !== null && review.status === "pending") {
    await ctx.db.patch("setReviews", review._id, { status: "skipped" });
  }
}

/** The newest set waiting for "How did it go?", with its bits; null when none. */
export async function pendingReview(ctx: QueryCtx, userId: Id<"users">) {
  const review = await ctx.db
    .query("setReviews")
    .withIndex("by_user_and_status_and_time", (q) => q.eq("userId", userId).eq("status", "pending"))
    .order("desc")
    .first();
  if (review === null) return null;
  const [set, list, mic, bits] = await Promise.all([
    ctx.db.get("performances", review.performanceId),
    review.setListId ? ctx.db.get("setLists", review.setListId) : null,
    review.sceneItemId ? ctx.db.get("sceneItems", review.sceneItemId) : null,
    Promise.all(review.bitIds.map((id) => ctx.db.get("bits", id))),
  ]);
  if (set === null) return null;
  return {
    performanceId: review.performanceId,
    performedAt: review.performedAt,
    venueName: venueNameOf(set, mic),
    setListTitle: list?.title ?? null,
    bits: bits.flatMap((b) => (b !== null && b.userId === userId ? [{ _id: b._id, title: b.title }] : [])),
  };
}

/** One of the caller's sets: its bits' ratings, the set list's bits still unrated, and how much landed. */
export async function setRatings(ctx: QueryCtx, userId: Id<"users">, performanceId: Id<"performances">) {
  await requireOwnSet(ctx, userId, performanceId);
  const [ratings, review] = await Promise.all([
    ctx.db
      .query("bitRatings")
      .withIndex("by_performance_and_bit", (q) => q.eq("performanceId", performanceId))
      .take(MAX_SET_LIST_BITS * 2),
    reviewOf(ctx, performanceId),
  ]);
  const list = review?.setListId ? await ctx.db.get("setLists", review.setListId) : null;
  const ratedIds = new Set(ratings.map((r) => r.bitId));
  const unratedIds = (review?.bitIds ?? []).filter((id) => !ratedIds.has(id));
  const bits = new Map(
    await Promise.all(
      [...ratedIds, ...unratedIds].map(async (id) => [id as string, await ctx.db.get("bits", id)] as const),
    ),
  );
  const titleOf = (id: Id<"bits">) => bits.get(id)?.title ?? "A deleted bit";
  return {
    ratings: ratings.map((r) => ({ bitId: r.bitId, title: titleOf(r.bitId), rating: r.rating, note: r.note ?? null })),
    unrated: unratedIds.flatMap((id) => (bits.get(id) ? [{ _id: id, title: titleOf(id) }] : [])),
    rated: ratings.length,
    landed: ratings.filter((r) => r.rating === "landed").length,
    status: review?.status ?? null,
    setListTitle: list !== null && list.userId === userId ? list.title : null,
  };
}

export const roomValidator = v.object({
  sceneItemId: v.id("sceneItems"),
  title: v.string(),
  venueName: v.string(),
  performed: v.number(),
  landedRate: v.number(),
});
type Room = { sceneItemId: Id<"sceneItems">; title: string; venueName: string; performed: number; landedRate: number };

export const notDoneValidator = v.object({
  _id: v.id("bits"),
  title: v.string(),
  status: bitStatus,
  seconds: v.union(v.number(), v.null()),
});

/** The mics where a bit went best and worst (by landed rate, then by sets), from its per-room rows. */
export async function bestAndWorstRooms(
  ctx: QueryCtx,
  bitId: Id<"bits">,
): Promise<{ best: Room | null; worst: Room | null; rooms: number }> {
  const rows = await ctx.db
    .query("bitRooms")
    .withIndex("by_bit_and_room", (q) => q.eq("bitId", bitId))
    .take(MAX_ROOMS);
  if (rows.length === 0) return { best: null, worst: null, rooms: 0 };
  const rate = (r: Doc<"bitRooms">) => r.landed / Math.max(1, r.landed + r.okay + r.flat);
  const sorted = [...rows].sort((a, b) => rate(b) - rate(a) || b.performed - a.performed);
  const room = async (row: Doc<"bitRooms">): Promise<Room | null> => {
    const mic = await ctx.db.get("sceneItems", row.sceneItemId);
    if (mic === null) return null;
    return {
      sceneItemId: row.sceneItemId,
      title: mic.title,
      venueName: mic.venueName,
      performed: row.performed,
      landedRate: rate(row),
    };
  };
  const best = await room(sorted[0]);
  const worst = sorted.length > 1 ? await room(sorted[sorted.length - 1]) : null;
  return { best, worst, rooms: rows.length };
}

/** The caller's bits in the library (not archived or retired) never rated at `micId`. */
export async function bitsNotDoneAt(ctx: QueryCtx, userId: Id<"users">, micId: Id<"sceneItems">) {
  const [done, ...byStatus] = await Promise.all([
    ctx.db
      .query("bitRooms")
      .withIndex("by_user_and_room", (q) => q.eq("userId", userId).eq("sceneItemId", micId))
      .take(MAX_CANDIDATES * 3),
    ...(["tight", "working", "new"] as const).map((status) =>
      ctx.db
        .query("bits")
        .withIndex("by_user_and_archived_and_status_and_title", (q) =>
          q.eq("userId", userId).eq("archived", false).eq("status", status),
        )
        .take(MAX_CANDIDATES),
    ),
  ]);
  const doneIds = new Set(done.map((r) => r.bitId));
  return byStatus
    .flat()
    .filter((b) => !doneIds.has(b._id))
    .map((b) => ({ _id: b._id, title: b.title, status: b.status, seconds: b.seconds ?? null }));
}
