/** Reads behind the Performance History page (sets are edited and deleted through `performances`). */
import { paginationOptsValidator, type PaginationOptions, type PaginationResult } from "convex/server";
import { v, type Infer } from "convex/values";
import type { Doc, Id } from "./_generated/dataModel";
import type { QueryCtx } from "./_generated/server";
import { userQuery } from "./functions";
import { reviewOf } from "./model/bitRatings";
import { getMyStats } from "./model/userStats";
import { assertPageOpts } from "./lib/requestRules";

/** Shown for a set whose venue is not known. */
export const UNKNOWN_VENUE = "Unknown Venue";
/** Most sets one page of history may ask for. */
export const MAX_PAGE_SIZE = 100;

export const historyRowValidator = v.object({
  _id: v.id("performances"),
  minutes: v.number(),
  performedAt: v.number(),
  performanceDate: v.string(),
  notes: v.union(v.string(), v.null()),
  tags: v.array(v.string()),
  sceneItemId: v.union(v.id("sceneItems"), v.null()),
  /** The mic's venue, else the name kept on the set, else 'Unknown Venue'. */
  venueName: v.string(),
  /** The mic or show's title and city when the set is linked to one. */
  eventTitle: v.union(v.string(), v.null()),
  city: v.union(v.string(), v.null()),
  /** How the set's rated bits went (kept on its review by model/bitTriggers); null before any rating. */
  bits: v.union(v.object({ rated: v.number(), landed: v.number() }), v.null()),
});
export type HistoryRow = Infer<typeof historyRowValidator>;

export const historyStatsValidator = v.object({
  totalSets: v.number(),
  totalMinutes: v.number(),
  /** Whole minutes per set, rounded; 0 before the first set. */
  averageMinutes: v.number(),
});
export type HistoryStats = Infer<typeof historyStatsValidator>;

/** The venue line of a set: the scene item's venue, the set's own venue name, or 'Unknown Venue'. */
export function venueNameOf(set: Pick<Doc<"performances">, "venueName">, item: Doc<"sceneItems"> | null): string {
  const fromItem = item?.venueName.trim();
  if (fromItem) return fromItem;
  const own = set.venueName?.trim();
  return own ? own : UNKNOWN_VENUE;
}

/** One page of the comedian's sets, newest first (through by_user_and_performedAt). */
export async function listSets(
  ctx: QueryCtx,
  userId: Id<"users">,
  paginationOpts: PaginationOptions,
): Promise<PaginationResult<HistoryRow>> {
  const page = await ctx.db
    .query("performances")
    .withIndex("by_user_and_performedAt", (q) => q.eq("userId", userId))
    .order("desc")
    .paginate({ ...paginationOpts, numItems: Math.max(1, Math.min(paginationOpts.numItems, MAX_PAGE_SIZE)) });
  // A page usually repeats a few mics: read each once.
  const itemIds = [...new Set(page.page.flatMap((p) => (p.sceneItemId ? [p.sceneItemId] : [])))];
  const [items, reviews] = await Promise.all([
    Promise.all(itemIds.map(async (id) => [id, await ctx.db.get("sceneItems", id)] as const)).then(
      (entries) => new Map<Id<"sceneItems">, Doc<"sceneItems"> | null>(entries),
    ),
    Promise.all(page.page.map((p) => reviewOf(ctx, p._id))),
  ]);
  return {
    ...page,
    page: page.page.map((p, i) => {
      const item = p.sceneItemId ? (items.get(p.sceneItemId) ?? null) : null;
      const review = reviews[i];
      return {
        _id: p._id,
        minutes: p.minutes,
        performedAt: p.performedAt,
        performanceDate: p.performanceDate,
        notes: p.notes ?? null,
        tags: p.tags,
        sceneItemId: p.sceneItemId ?? null,
        venueName: venueNameOf(p, item),
        eventTitle: item?.title ?? null,
        city: item?.city ?? null,
        bits: review !== null && review.rated > 0 ? { rated: review.rated, landed: review.landed } : null,
      };
    }),
  };
}

/** Totals from the comedian's stats row (never a sum over their sets). */
export async function historyStats(ctx: QueryCtx, userId: Id<"users">): Promise<HistoryStats> {
  const stats = await getMyStats(ctx, userId);
  return {
    totalSets: stats.totalSets,
    totalMinutes: stats.totalMinutes,
    averageMinutes: stats.totalSets > 0 ? Math.round(stats.totalMinutes / stats.totalSets) : 0,
  };
}

/** The caller's sets, newest first, a page at a time, each with its venue name. */
export const list = userQuery({
  args: { paginationOpts: paginationOptsValidator },
  handler: async (ctx, { paginationOpts }) => {
    assertPageOpts(paginationOpts);
    return await listSets(ctx, ctx.userId, paginationOpts);
  },
});

/** The history page's totals: sets, minutes and the average set length. */
export const stats = userQuery({
  args: {},
  returns: historyStatsValidator,
  handler: async (ctx) => await historyStats(ctx, ctx.userId),
});
