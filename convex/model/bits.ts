/**
 * A comedian's bit library: create, edit, archive, and the library's reads
 * (by title, by status, by tag, by search). A bit is only ever read by its
 * comedian: every read and write here takes the caller's id and answers
 * "not found" for anyone else's bit, admins included. The numbers on a bit
 * (times performed, landed rate, trend) are kept by model/bitTriggers.
 */
import type { PaginationOptions, PaginationResult } from "convex/server";
import { v, type Infer } from "convex/values";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { appError, ErrorCode } from "../errors";
import {
  BIT_NOT_FOUND,
  bitNotes,
  bitSearch,
  bitSeconds,
  bitTags,
  bitTitle,
  tagKey,
  MAX_BIT_TAG_LENGTH,
  type BitStatus,
} from "../lib/bitRules";
import { assertNoControlCharacters, invalid } from "../lib/textRules";
import { bitRating, bitStatus } from "../schema";

/** Most bits one page of the library may hold. */
export const MAX_BIT_PAGE = 100;
/** Most distinct tags the library's filter offers. */
export const MAX_TAG_CHOICES = 100;
/** Ratings kept on a bit for its trend, newest first. */
export const RECENT_RATINGS = 10;

export const bitInputValidator = {
  title: v.string(),
  notes: v.optional(v.string()),
  tags: v.array(v.string()),
  seconds: v.optional(v.number()),
  status: bitStatus,
};
export type BitInput = {
  title: string;
  notes?: string;
  tags: string[];
  seconds?: number;
  status: BitStatus;
};

export const bitViewValidator = v.object({
  _id: v.id("bits"),
  _creationTime: v.number(),
  title: v.string(),
  notes: v.union(v.string(), v.null()),
  tags: v.array(v.string()),
  seconds: v.union(v.number(), v.null()),
  status: bitStatus,
  archived: v.boolean(),
  performed: v.number(),
  landed: v.number(),
  okay: v.number(),
  flat: v.number(),
  /** Landed ratings over all ratings, 0..1; null before the first rating. */
  landedRate: v.union(v.number(), v.null()),
  lastPerformedAt: v.union(v.number(), v.null()),
  /** The latest ratings, newest first. */
  recent: v.array(bitRating),
});
export type BitView = Infer<typeof bitViewValidator>;

export function toBitView(bit: Doc<"bits">): BitView {
  const rated = bit.landed + bit.okay + bit.flat;
  return {
    _id: bit._id,
    _creationTime: bit._creationTime,
    title: bit.title,
    notes: bit.notes ?? null,
    tags: bit.tags,
    seconds: bit.seconds ?? null,
    status: bit.status,
    archived: bit.archived,
    performed: bit.performed,
    landed: bit.landed,
    okay: bit.okay,
    flat: bit.flat,
    landedRate: rated > 0 ? bit.landed / rated : null,
    lastPerformedAt: bit.lastPerformedAt ?? null,
    recent: bit.recent,
  };
}

function fieldsOf(input: BitInput) {
  const title = bitTitle(input.title);
  const notes = bitNotes(input.notes);
  const tags = bitTags(input.tags);
  const seconds = bitSeconds(input.seconds);
  const searchText = [title, ...tags, notes ?? ""].join(" ").toLowerCase();
  return { title, notes, tags, seconds, status: input.status, titleKey: title.toLowerCase(), searchText };
}

/** The caller's own bit, or null (someone else's bit is as good as missing). */
export async function ownBit(ctx: QueryCtx, userId: Id<"users">, id: Id<"bits">): Promise<Doc<"bits"> | null> {
  const bit = await ctx.db.get("bits", id);
  return bit !== null && bit.userId === userId ? bit : null;
}

/** The caller's own bit, or NOT_FOUND. */
export async function requireOwnBit(ctx: QueryCtx, userId: Id<"users">, id: Id<"bits">): Promise<Doc<"bits">> {
  const bit = await ownBit(ctx, userId, id);
  if (bit === null) throw appError(ErrorCode.NOT_FOUND, BIT_NOT_FOUND);
  return bit;
}

/** Adds a bit to the comedian's library. */
export async function createBit(ctx: MutationCtx, userId: Id<"users">, input: BitInput): Promise<Id<"bits">> {
  const fields = fieldsOf(input);
  return await ctx.db.insert("bits", {
    userId,
    ...fields,
    archived: false,
    performed: 0,
    landed: 0,
    okay: 0,
    flat: 0,
    recent: [],
  });
}

/** Edits the title, notes, tags, length and status of one of the comedian's bits. */
export async function updateBit(ctx: MutationCtx, userId: Id<"users">, id: Id<"bits">, input: BitInput): Promise<void> {
  const fields = fieldsOf(input);
  const bit = await requireOwnBit(ctx, userId, id);
  await ctx.db.patch("bits", bit._id, fields);
}

/** Puts a bit away (out of the library and the set builder) or brings it back. */
export async function setArchived(
  ctx: MutationCtx,
  userId: Id<"users">,
  { id, archived }: { id: Id<"bits">; archived: boolean },
): Promise<void> {
  const bit = await requireOwnBit(ctx, userId, id);
  if (bit.archived !== archived) await ctx.db.patch("bits", bit._id, { archived });
}

export type LibraryFilter = {
  archived: boolean;
  status?: BitStatus;
  tag?: string;
  search?: string;
};

function pageSize(opts: PaginationOptions): PaginationOptions {
  return { ...opts, numItems: Math.max(1, Math.min(opts.numItems, MAX_BIT_PAGE)) };
}

/**
 * One page of the library: by search (best match first), else by tag, else
 * by status, else all, in title order; archived bits only when asked for.
 * Each path reads one index (or the search index) and only the caller's rows.
 */
export async function listBits(
  ctx: QueryCtx,
  userId: Id<"users">,
  filter: LibraryFilter,
  paginationOpts: PaginationOptions,
): Promise<PaginationResult<BitView>> {
  const opts = pageSize(paginationOpts);
  const search = bitSearch(filter.search);
  if (filter.tag !== undefined && filter.tag.trim().length > MAX_BIT_TAG_LENGTH) {
    invalid(`Tags must be ${MAX_BIT_TAG_LENGTH} characters or fewer`);
  }
  if (filter.tag !== undefined) assertNoControlCharacters(filter.tag.trim(), { label: "Tags" });
  const tag = filter.tag === undefined || filter.tag.trim() === "" ? undefined : tagKey(filter.tag);
  const { archived, status } = filter;
  if (search !== undefined) {
    const page = await ctx.db
      .query("bits")
      .withSearchIndex("search_text", (q) => {
        const base = q.search("searchText", search.toLowerCase()).eq("userId", userId).eq("archived", archived);
        return status === undefined ? base : base.eq("status", status);
      })
      .paginate(opts);
    // A tag filter narrows the matches of a search (a page may then hold fewer rows).
    const rows = tag === undefined ? page.page : page.page.filter((b) => b.tags.some((t) => tagKey(t) === tag));
    return { ...page, page: rows.map(toBitView) };
  }
  if (tag !== undefined) {
    const page =
      status === undefined
        ? await ctx.db
            .query("bitTags")
            .withIndex("by_user_and_tag_and_archived_and_title", (q) =>
              q.eq("userId", userId).eq("tag", tag).eq("archived", archived),
            )
            .paginate(opts)
        : await ctx.db
            .query("bitTags")
            .withIndex("by_user_and_tag_and_archived_and_status_and_title", (q) =>
              q.eq("userId", userId).eq("tag", tag).eq("archived", archived).eq("status", status),
            )
            .paginate(opts);
    const bits = await Promise.all(page.page.map((row) => ctx.db.get("bits", row.bitId)));
    return { ...page, page: bits.flatMap((b) => (b !== null && b.userId === userId ? [toBitView(b)] : [])) };
  }
  const page =
    status === undefined
      ? await ctx.db
          .query("bits")
          .withIndex("by_user_and_archived_and_title", (q) => q.eq("userId", userId).eq("archived", archived))
          .paginate(opts)
      : await ctx.db
          .query("bits")
          .withIndex("by_user_and_archived_and_status_and_title", (q) =>
            q.eq("userId", userId).eq("archived", archived).eq("status", status),
          )
          .paginate(opts);
  return { ...page, page: page.page.map(toBitView) };
}

/**
 * The distinct tags of the comedian's bits, in order: one index read per
 * tag (each skips past every row of the tag before), so a library of
 * hundreds of bits with a few tags reads a few documents.
 */
export async function listTags(ctx: QueryCtx, userId: Id<"users">): Promise<string[]> {
  const tags: string[] = [];
  let after: string | null = null;
  while (tags.length < MAX_TAG_CHOICES) {
    const from: string | null = after;
    const next: Doc<"bitTags"> | null = await ctx.db
      .query("bitTags")
      .withIndex("by_user_and_tag_and_archived_and_title", (q) =>
        from === null ? q.eq("userId", userId) : q.eq("userId", userId).gt("tag", from),
      )
      .first();
    if (next === null) break;
    tags.push(next.tag);
    after = next.tag;
  }
  return tags;
}
