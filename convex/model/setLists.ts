/**
 * Set lists: a comedian's bits in running order, for one night or kept to
 * reuse. Like bits, a set list is only ever its comedian's.
 */
import { v, type Infer } from "convex/values";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { appError, ErrorCode } from "../errors";
import {
  isNightDate,
  MAX_SET_LIST_BITS,
  SET_LIST_NOT_FOUND,
  SET_LIST_TOO_MANY_BITS,
  setListTitle,
} from "../lib/bitRules";
import { invalid } from "../lib/textRules";
import { DEFAULT_TIME_ZONE, localDateString } from "../lib/time";
import { ownBit } from "./bits";
import { bitStatus } from "../schema";

/** Most set lists the page lists. */
export const MAX_SET_LISTS = 200;

export const nightValidator = v.object({ micId: v.id("sceneItems"), date: v.string() });

export const setListBitValidator = v.object({
  _id: v.id("bits"),
  title: v.string(),
  seconds: v.union(v.number(), v.null()),
  status: bitStatus,
  archived: v.boolean(),
  landedRate: v.union(v.number(), v.null()),
  performed: v.number(),
});

export const setListViewValidator = v.object({
  _id: v.id("setLists"),
  _creationTime: v.number(),
  title: v.string(),
  bits: v.array(setListBitValidator),
  /** Estimated seconds of the bits with a length. */
  totalSeconds: v.number(),
  night: v.union(
    v.object({
      micId: v.id("sceneItems"),
      date: v.string(),
      micTitle: v.string(),
      venueName: v.string(),
      /** The night's live-list set length, else the mic's spot length; null when neither is known. */
      spotMinutes: v.union(v.number(), v.null()),
      hasList: v.boolean(),
    }),
    v.null(),
  ),
});
export type SetListView = Infer<typeof setListViewValidator>;

export const setListSummaryValidator = v.object({
  _id: v.id("setLists"),
  _creationTime: v.number(),
  title: v.string(),
  bitCount: v.number(),
  night: v.union(v.object({ micTitle: v.string(), date: v.string() }), v.null()),
});

/** The caller's own set list, or null. */
export async function ownSetList(
  ctx: QueryCtx,
  userId: Id<"users">,
  id: Id<"setLists">,
): Promise<Doc<"setLists"> | null> {
  const list = await ctx.db.get("setLists", id);
  return list !== null && list.userId === userId ? list : null;
}

export async function requireOwnSetList(
  ctx: QueryCtx,
  userId: Id<"users">,
  id: Id<"setLists">,
): Promise<Doc<"setLists">> {
  const list = await ownSetList(ctx, userId, id);
  if (list === null) throw appError(ErrorCode.NOT_FOUND, SET_LIST_NOT_FOUND);
  return list;
}

/** The bits in running order, each the caller's own; a bit may appear once. */
async function checkedBits(ctx: QueryCtx, userId: Id<"users">, bitIds: Id<"bits">[]): Promise<Id<"bits">[]> {
  if (bitIds.length > MAX_SET_LIST_BITS) invalid(SET_LIST_TOO_MANY_BITS);
  const unique = [...new Set(bitIds)];
  const bits = await Promise.all(unique.map((id) => ownBit(ctx, userId, id)));
  if (bits.some((b) => b === null)) throw appError(ErrorCode.NOT_FOUND, "Bit not found");
  return unique;
}

async function checkedNight(
  ctx: QueryCtx,
  night: { micId: Id<"sceneItems">; date: string } | null | undefined,
): Promise<{ nightMicId?: Id<"sceneItems">; nightDate?: string }> {
  if (night === undefined || night === null) return { nightMicId: undefined, nightDate: undefined };
  if (!isNightDate(night.date)) invalid("Please choose a valid date");
  const mic = await ctx.db.get("sceneItems", night.micId);
  if (mic === null) throw appError(ErrorCode.NOT_FOUND, "Event not found");
  return { nightMicId: night.micId, nightDate: night.date };
}

export async function createSetList(
  ctx: MutationCtx,
  userId: Id<"users">,
  args: { title: string; bitIds: Id<"bits">[]; night?: { micId: Id<"sceneItems">; date: string } },
): Promise<Id<"setLists">> {
  const title = setListTitle(args.title);
  const bitIds = await checkedBits(ctx, userId, args.bitIds);
  const night = await checkedNight(ctx, args.night);
  return await ctx.db.insert("setLists", { userId, title, bitIds, ...night });
}

/** Renames and reorders (the whole running order is sent: the client moves a bit, then saves). */
export async function updateSetList(
  ctx: MutationCtx,
  userId: Id<"users">,
  args: { id: Id<"setLists">; title: string; bitIds: Id<"bits">[] },
): Promise<void> {
  const title = setListTitle(args.title);
  const list = await requireOwnSetList(ctx, userId, args.id);
  const bitIds = await checkedBits(ctx, userId, args.bitIds);
  await ctx.db.patch("setLists", list._id, { title, bitIds });
}

/** Attaches the set list to a mic night (null detaches it). */
export async function attachSetList(
  ctx: MutationCtx,
  userId: Id<"users">,
  args: { id: Id<"setLists">; night: { micId: Id<"sceneItems">; date: string } | null },
): Promise<void> {
  const list = await requireOwnSetList(ctx, userId, args.id);
  const night = await checkedNight(ctx, args.night);
  await ctx.db.patch("setLists", list._id, night);
}

/** A copy with the same bits, not attached to any night. */
export async function duplicateSetList(
  ctx: MutationCtx,
  userId: Id<"users">,
  id: Id<"setLists">,
): Promise<Id<"setLists">> {
  const list = await requireOwnSetList(ctx, userId, id);
  const title = `${list.title.slice(0, 70)} (copy)`;
  return await ctx.db.insert("setLists", { userId, title, bitIds: list.bitIds });
}

export async function removeSetList(ctx: MutationCtx, userId: Id<"users">, id: Id<"setLists">): Promise<void> {
  const list = await requireOwnSetList(ctx, userId, id);
  await ctx.db.delete("setLists", list._id);
}

/** The set list with its bits (in order, missing ones left out), total and night. */
export async function setListView(ctx: QueryCtx, list: Doc<"setLists">): Promise<SetListView> {
  const bits = (await Promise.all(list.bitIds.map((id) => ctx.db.get("bits", id)))).filter(
    (b): b is Doc<"bits"> => b !== null && b.userId === list.userId,
  );
  let night: SetListView["night"] = null;
  if (list.nightMicId !== undefined && list.nightDate !== undefined) {
    const micId = list.nightMicId;
    const date = list.nightDate;
    const [mic, nightList] = await Promise.all([
      ctx.db.get("sceneItems", micId),
      ctx.db
        .query("nightLists")
        .withIndex("by_mic_and_date", (q) => q.eq("micId", micId).eq("date", date))
        .first(),
    ]);
    if (mic !== null) {
      night = {
        micId,
        date,
        micTitle: mic.title,
        venueName: mic.venueName,
        spotMinutes: nightList?.setMinutes ?? mic.performanceMinutes ?? null,
        hasList: nightList !== null,
      };
    }
  }
  return {
    _id: list._id,
    _creationTime: list._creationTime,
    title: list.title,
    bits: bits.map((b) => {
      const rated = b.landed + b.okay + b.flat;
      return {
        _id: b._id,
        title: b.title,
        seconds: b.seconds ?? null,
        status: b.status,
        archived: b.archived,
        landedRate: rated > 0 ? b.landed / rated : null,
        performed: b.performed,
      };
    }),
    totalSeconds: bits.reduce((sum, b) => sum + (b.seconds ?? 0), 0),
    night,
  };
}

/** The caller's set lists, newest first, with their night's mic named. */
export async function listSetLists(ctx: QueryCtx, userId: Id<"users">) {
  const lists = await ctx.db
    .query("setLists")
    .withIndex("by_user", (q) => q.eq("userId", userId))
    .order("desc")
    .take(MAX_SET_LISTS);
  const micIds = [...new Set(lists.flatMap((l) => (l.nightMicId ? [l.nightMicId] : [])))];
  const mics = new Map(await Promise.all(micIds.map(async (id) => [id, await ctx.db.get("sceneItems", id)] as const)));
  return lists.map((l) => {
    const mic = l.nightMicId ? mics.get(l.nightMicId) : null;
    return {
      _id: l._id,
      _creationTime: l._creationTime,
      title: l.title,
      bitCount: l.bitIds.length,
      night: mic && l.nightDate ? { micTitle: mic.title, date: l.nightDate } : null,
    };
  });
}

/**
 * The set list attached to the night a set at `micId` and `performedAt`
 * belongs to: the mic's local date, or the day before for a set in the small
 * hours (a night that ran past midnight).
 */
export async function setListForSet(
  ctx: QueryCtx,
  { userId, micId, performedAt }: { userId: Id<"users">; micId: Id<"sceneItems">; performedAt: number },
): Promise<Doc<"setLists"> | null> {
  const mic = await ctx.db.get("sceneItems", micId);
  const zone = mic?.timeZone ?? DEFAULT_TIME_ZONE;
  const dates = [localDateString(performedAt, zone), localDateString(performedAt - 6 * 60 * 60 * 1000, zone)];
  for (const date of [...new Set(dates)]) {
    const list = await ctx.db
      .query("setLists")
      .withIndex("by_user_and_night", (q) => q.eq("userId", userId).eq("nightMicId", micId).eq("nightDate", date))
      .order("desc")
      .first();
    if (list !== null) return list;
  }
  return null;
}
