/** What is derived from a comedian's material, kept by triggers (README.md, "Derived data"). */
import type { Change, Triggers } from "convex-helpers/server/triggers";
import type { DataModel, Doc } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { MAX_BIT_TAGS, MAX_SET_LIST_BITS, tagKey } from "../lib/bitRules";
import { openReview, reviewOf } from "./bitRatings";
import { RECENT_RATINGS } from "./bits";
import { notify } from "./notifications";
import { setListForSet } from "./setLists";

/** Registers the material triggers (called once, from `convex/triggers.ts`). */
export function registerBitTriggers(triggers: Triggers<DataModel>): void {
  triggers.register("bits", followBitTags);
  triggers.register("bitRatings", followRating);
  triggers.register("performances", followSet);
}

/** What a bit's tag rows copy from it. */
function tagFacts(bit: Doc<"bits"> | null): string {
  if (bit === null) return "";
  return JSON.stringify([bit.tags.map(tagKey), bit.archived, bit.status, bit.titleKey]);
}

/** Rewrites a bit's tag rows when its tags, status, archived flag or title changed (its numbers moving leave them be). */
async function followBitTags(ctx: MutationCtx, change: Change<DataModel, "bits">): Promise<void> {
  const { oldDoc, newDoc } = change;
  if (tagFacts(oldDoc) === tagFacts(newDoc)) return;
  if (oldDoc !== null) {
    const rows = await ctx.db
      .query("bitTags")
      .withIndex("by_bit", (q) => q.eq("bitId", change.id))
      .take(MAX_BIT_TAGS * 2);
    for (const row of rows) await ctx.db.delete("bitTags", row._id);
  }
  if (newDoc === null) return;
  for (const tag of new Set(newDoc.tags.map(tagKey))) {
    await ctx.db.insert("bitTags", {
      userId: newDoc.userId,
      bitId: newDoc._id,
      tag,
      archived: newDoc.archived,
      status: newDoc.status,
      titleKey: newDoc.titleKey,
    });
  }
}

type Counts = { performed: number; landed: number; okay: number; flat: number };
type Rating = Doc<"bitRatings">["rating"];

const ZERO: Counts = { performed: 0, landed: 0, okay: 0, flat: 0 };

/** One rating as counts, `sign` +1 (added) or -1 (taken away). */
function countsOf(rating: Rating, sign: 1 | -1): Counts {
  return {
    performed: sign,
    landed: rating === "landed" ? sign : 0,
    okay: rating === "okay" ? sign : 0,
    flat: rating === "flat" ? sign : 0,
  };
}

function plus(a: Counts, b: Counts): Counts {
  return {
    performed: a.performed + b.performed,
    landed: a.landed + b.landed,
    okay: a.okay + b.okay,
    flat: a.flat + b.flat,
  };
}

const isZero = (c: Counts) => c.performed === 0 && c.landed === 0 && c.okay === 0 && c.flat === 0;

/** The net change of each key: a rating edited in place (same mic, same month) moves nothing there. */
function netBy(steps: Array<[Doc<"bitRatings">, 1 | -1]>, key: (r: Doc<"bitRatings">) => string | undefined) {
  const out = new Map<string, { row: Doc<"bitRatings">; delta: Counts }>();
  for (const [r, sign] of steps) {
    const k = key(r);
    if (k === undefined) continue;
    const prev = out.get(k);
    out.set(k, { row: prev?.row ?? r, delta: plus(prev?.delta ?? ZERO, countsOf(r.rating, sign)) });
  }
  return [...out.values()].filter((e) => !isZero(e.delta));
}

async function moveRoom(ctx: MutationCtx, r: Doc<"bitRatings">, delta: Counts): Promise<void> {
  const micId = r.sceneItemId;
  if (micId === undefined) return;
  const row = await ctx.db
    .query("bitRooms")
    .withIndex("by_bit_and_room", (q) => q.eq("bitId", r.bitId).eq("sceneItemId", micId))
    .first();
  const next = plus(row ?? ZERO, delta);
  if (row === null) {
    if (next.performed > 0) {
      await ctx.db.insert("bitRooms", { userId: r.userId, bitId: r.bitId, sceneItemId: micId, ...next });
    }
  } else if (next.performed <= 0) await ctx.db.delete("bitRooms", row._id);
  else await ctx.db.patch("bitRooms", row._id, next);
}

async function moveMonth(ctx: MutationCtx, r: Doc<"bitRatings">, delta: Counts): Promise<void> {
  const row = await ctx.db
    .query("bitMonths")
    .withIndex("by_bit_and_month", (q) => q.eq("bitId", r.bitId).eq("month", r.month))
    .first();
  const next = plus(row ?? ZERO, delta);
  if (row === null) {
    if (next.performed > 0) {
      await ctx.db.insert("bitMonths", { userId: r.userId, bitId: r.bitId, month: r.month, ...next });
    }
  } else if (next.performed <= 0) await ctx.db.delete("bitMonths", row._id);
  else await ctx.db.patch("bitMonths", row._id, next);
}

/** The set's review counts; a set rated without a review gets one (done). */
async function moveReview(ctx: MutationCtx, r: Doc<"bitRatings">, delta: Counts): Promise<void> {
  const review = await reviewOf(ctx, r.performanceId);
  if (review === null) {
    if (delta.performed <= 0 || (await ctx.db.get("performances", r.performanceId)) === null) return;
    await ctx.db.insert("setReviews", {
      userId: r.userId,
      performanceId: r.performanceId,
      ...(r.sceneItemId !== undefined ? { sceneItemId: r.sceneItemId } : {}),
      performedAt: r.performedAt,
      status: "done",
      bitIds: [],
      rated: delta.performed,
      landed: delta.landed,
      okay: delta.okay,
      flat: delta.flat,
    });
    return;
  }
  const next = plus({ ...review, performed: review.rated }, delta);
  await ctx.db.patch("setReviews", review._id, {
    rated: next.performed,
    landed: next.landed,
    okay: next.okay,
    flat: next.flat,
  });
}

/** A bit's counts move by the change; its trend and last set are read again from its newest ratings. */
async function moveBit(ctx: MutationCtx, bit: Doc<"bits">, delta: Counts): Promise<void> {
  const counts = plus({ performed: bit.performed, landed: bit.landed, okay: bit.okay, flat: bit.flat }, delta);
  const latest = await ctx.db
    .query("bitRatings")
    .withIndex("by_bit_and_time", (q) => q.eq("bitId", bit._id))
    .order("desc")
    .take(RECENT_RATINGS);
  const recent = latest.map((r) => r.rating);
  const lastPerformedAt = latest[0]?.performedAt;
  const same =
    isZero(delta) && lastPerformedAt === bit.lastPerformedAt && JSON.stringify(recent) === JSON.stringify(bit.recent);
  if (!same) await ctx.db.patch("bits", bit._id, { ...counts, recent, lastPerformedAt });
}

async function followRating(ctx: MutationCtx, change: Change<DataModel, "bitRatings">): Promise<void> {
  const { oldDoc, newDoc } = change;
  const steps: Array<[Doc<"bitRatings">, 1 | -1]> = [];
  if (oldDoc !== null) steps.push([oldDoc, -1]);
  if (newDoc !== null) steps.push([newDoc, 1]);
  for (const bitId of new Set(steps.map(([r]) => r.bitId))) {
    const mine = steps.filter(([r]) => r.bitId === bitId);
    const bit = await ctx.db.get("bits", bitId);
    // A bit that is gone (account deletion) keeps no numbers.
    if (bit === null) continue;
    await moveBit(ctx, bit, netBy(mine, () => "bit")[0]?.delta ?? ZERO);
    for (const { row, delta } of netBy(mine, (r) => r.sceneItemId)) await moveRoom(ctx, row, delta);
    for (const { row, delta } of netBy(mine, (r) => r.month)) await moveMonth(ctx, row, delta);
    for (const { row, delta } of netBy(mine, (r) => r.performanceId)) await moveReview(ctx, row, delta);
  }
}

async function followSet(ctx: MutationCtx, change: Change<DataModel, "performances">): Promise<void> {
  const { oldDoc, newDoc } = change;
  if (oldDoc === null && newDoc !== null) {
    if (newDoc.sceneItemId === undefined) return;
    const list = await setListForSet(ctx, {
      userId: newDoc.userId,
      micId: newDoc.sceneItemId,
      performedAt: newDoc.performedAt,
    });
    if (list !== null && (await openReview(ctx, newDoc, list)) !== null) {
      // The prompt also reaches the comedian as a notice (and a push, when their choices allow).
      await notify(ctx, {
        userId: newDoc.userId,
        micId: newDoc.sceneItemId,
        nowMs: Date.now(),
        notice: {
          kind: "set_feedback",
          eventKey: `set_feedback:${newDoc._id}`,
          title: "How did it go?",
          body: `Rate the bits of "${list.title}".`,
          url: `/sets/${newDoc._id}/bits`,
        },
      });
    }
    return;
  }
  // A set with ratings always has a review (a rating makes one), so most sets cost one read here.
  const review = await reviewOf(ctx, change.id);
  if (review === null) return;
  const ratings = await ctx.db
    .query("bitRatings")
    .withIndex("by_performance_and_bit", (q) => q.eq("performanceId", change.id))
    .take(MAX_SET_LIST_BITS * 2);
  if (newDoc === null) {
    for (const r of ratings) await ctx.db.delete("bitRatings", r._id);
    await ctx.db.delete("setReviews", review._id);
    return;
  }
  if (
    oldDoc !== null &&
    oldDoc.performedAt === newDoc.performedAt &&
    oldDoc.sceneItemId === newDoc.sceneItemId &&
    oldDoc.performanceDate === newDoc.performanceDate
  ) {
    return;
  }
  const moves = { performedAt: newDoc.performedAt, sceneItemId: newDoc.sceneItemId };
  for (const r of ratings) {
    await ctx.db.patch("bitRatings", r._id, { ...moves, month: newDoc.performanceDate.slice(0, 7) });
  }
  await ctx.db.patch("setReviews", review._id, moves);
}
