import type { Infer } from "convex/values";
import { paginationResultValidator, type PaginationOptions, type PaginationResult } from "convex/server";
import { v } from "convex/values";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { appError, ErrorCode } from "../errors";
import { isAdmin } from "./access";
import { assertNoControlCharacters } from "../lib/textRules";
import { matchesEveryTerm, searchTerms } from "../lib/sceneSearch";
import schema, { sceneItemFields, sceneItemStatus } from "../schema";
import { anyPlanFilter, matchesPlanFilters, NO_PLAN_FILTERS, type PlanFilters } from "./planFilters";

/** A scene item as the client sees it: the stored document without the
 * server-only search and area-read fields. */
export const sceneItemValidator = schema.tables.sceneItems.validator
  .omit("searchText", "geohash")
  .extend({ _id: v.id("sceneItems"), _creationTime: v.number() });

export type SceneItem = Infer<typeof sceneItemValidator>;

/** Fields a caller may set when creating a scene item. */
export const newSceneItemValidator = v.object(sceneItemFields);
export type NewSceneItem = Infer<typeof newSceneItemValidator>;

/** Strips `searchText` and `geohash`: returns validators reject extra fields. */
export function toSceneItem(doc: Doc<"sceneItems">): SceneItem {
  const { searchText: _searchText, geohash: _geohash, ...item } = doc;
  return item;
}

/**
 * Inserts a scene item with zeroed counters. Its search text, geohash and city
 * count follow by themselves (model/micTriggers). Shared by the wizards,
 * onboarding, the seed and test fixtures.
 */
export async function insertSceneItem(
  ctx: MutationCtx,
  fields: NewSceneItem,
  options: { createdBy?: Id<"users">; status?: Infer<typeof sceneItemStatus> } = {},
): Promise<Id<"sceneItems">> {
  return await ctx.db.insert("sceneItems", {
    ...fields,
    status: options.status ?? "active",
    createdBy: options.createdBy,
    checkInCount: 0,
    verifiedCheckIns30d: 0,
    // Set by the mic trigger from the title, venue and city.
    searchText: "",
  });
}

/** The mics with these ids, each read once, by id (deleted ones are absent). */
export async function micsById(
  ctx: QueryCtx,
  ids: Iterable<Id<"sceneItems">>,
): Promise<Map<Id<"sceneItems">, Doc<"sceneItems">>> {
  const unique = [...new Set(ids)];
  const docs = await Promise.all(unique.map((id) => ctx.db.get("sceneItems", id)));
  const out = new Map<Id<"sceneItems">, Doc<"sceneItems">>();
  for (const doc of docs) if (doc !== null) out.set(doc._id, doc);
  return out;
}

/** The scene page's type chips: every item, open mics, or shows of any kind (plain, booked, bringer). */
export const sceneTypeFilter = v.union(v.literal("all"), v.literal("open_mic"), v.literal("show"));
export type SceneTypeFilter = Infer<typeof sceneTypeFilter>;

/** Most items one scene page returns, whatever the client asks for. */
export const SCENE_PAGE_MAX = 100;
/** Most rows one scene page may read (the Show chip skips open mics as it reads). */
export const SCENE_MAX_ROWS_READ = 300;
/** Longest search text, after trimming. */
export const SCENE_SEARCH_MAX_LENGTH = 100;
/** Convex search matches at most 16 terms. */
/** Most search words sent to the search index (every word is still checked). */
export const SEARCH_MAX_TERMS = 16;

export const scenePageValidator = paginationResultValidator(sceneItemValidator);

function matchesTypeFilter(type: Doc<"sceneItems">["type"], filter: SceneTypeFilter): boolean {
  if (filter === "all") return true;
  return filter === "open_mic" ? type === "open_mic" : type !== "open_mic";
}

/**
 * One page of active items for the scene page, reading only that page: by search relevance with search text,
 * else in day-of-week then start-time order. A page may come back short (at most SCENE_MAX_ROWS_READ rows read).
 */
export async function listPage(
  ctx: QueryCtx,
  args: {
    type: SceneTypeFilter;
    day: number | null;
    search: string;
    paginationOpts: PaginationOptions;
    filters?: PlanFilters;
    nowMs?: number;
  },
): Promise<PaginationResult<SceneItem>> {
  const result = await listPageUnfiltered(ctx, args);
  const filters = args.filters ?? NO_PLAN_FILTERS;
  if (!anyPlanFilter(filters)) return result;
  const nowMs = args.nowMs;
  if (filters.hideStale && (nowMs === undefined || !Number.isFinite(nowMs))) {
    throw appError(ErrorCode.INVALID_INPUT, "Hiding stale listings needs the current time.");
  }
  // The plan filters apply to the rows the page read, so a page may come back short.
  return { ...result, page: result.page.filter((item) => matchesPlanFilters(item, filters, nowMs ?? 0)) };
}

async function listPageUnfiltered(
  ctx: QueryCtx,
  args: { type: SceneTypeFilter; day: number | null; search: string; paginationOpts: PaginationOptions },
): Promise<PaginationResult<SceneItem>> {
  const { type, day, paginationOpts } = args;
  if (day !== null && !(Number.isInteger(day) && day >= 0 && day <= 6)) {
    throw appError(ErrorCode.INVALID_INPUT, "Day must be 0 (Sunday) to 6 (Saturday).");
  }
  if (!Number.isFinite(paginationOpts.numItems)) {
    throw appError(ErrorCode.INVALID_INPUT, "Page size must be a number.");
  }
  const search = args.search.trim();
  if (search.length > SCENE_SEARCH_MAX_LENGTH) {
    throw appError(ErrorCode.INVALID_INPUT, `Search is too long (at most ${SCENE_SEARCH_MAX_LENGTH} characters).`);
  }
  assertNoControlCharacters(search, { label: "Search" });
  const opts: PaginationOptions = {
    ...paginationOpts,
    numItems: Math.min(SCENE_PAGE_MAX, Math.max(1, Math.floor(paginationOpts.numItems))),
    maximumRowsRead: Math.min(paginationOpts.maximumRowsRead ?? SCENE_MAX_ROWS_READ, SCENE_MAX_ROWS_READ),
  };

  if (search !== "") {
    const terms = searchTerms(search);
    if (terms.length === 0) return { page: [], isDone: true, continueCursor: "" };
    const result = await ctx.db
      .query("sceneItems")
      .withSearchIndex("search_text", (q) => {
        let query = q.search("searchText", terms.slice(0, SEARCH_MAX_TERMS).join(" ")).eq("status", "active");
        if (type === "open_mic") query = query.eq("type", "open_mic");
        if (day !== null) query = query.eq("dayOfWeek", day);
        return query;
      })
      .paginate(opts);
    // Relevance order; then only items whose title, venue or city has a word starting with every term.
    const page = result.page.filter(
      (doc) => matchesTypeFilter(doc.type, type) && matchesEveryTerm(doc.searchText, terms),
    );
    return { ...result, page: page.map(toSceneItem) };
  }

  if (type === "open_mic") {
    const result = await ctx.db
      .query("sceneItems")
      .withIndex("by_status_and_type_and_day", (q) =>
        day === null
          ? q.eq("status", "active").eq("type", "open_mic")
          : q.eq("status", "active").eq("type", "open_mic").eq("dayOfWeek", day),
      )
      .paginate(opts);
    return { ...result, page: result.page.map(toSceneItem) };
  }
  const inDayOrder = ctx.db
    .query("sceneItems")
    .withIndex("by_status_and_day", (q) =>
      day === null ? q.eq("status", "active") : q.eq("status", "active").eq("dayOfWeek", day),
    );
  // "Show" is three types (show, booked, bringer), which no single index range
  // holds in day order; open mics are skipped as they are read, and
  // maximumRowsRead caps what one page may skip.
  const result = await (
    type === "show"
      ? // eslint-disable-next-line @convex-dev/no-filter-in-query -- bounded by maximumRowsRead (above)
        inDayOrder.filter((q) => q.neq(q.field("type"), "open_mic"))
      : inDayOrder
  ).paginate(opts);
  return { ...result, page: result.page.map(toSceneItem) };
}

/** The active item with this id, or null when the id is malformed, missing or inactive. */
export async function getActive(ctx: QueryCtx, id: string): Promise<SceneItem | null> {
  const itemId = ctx.db.normalizeId("sceneItems", id);
  if (itemId === null) return null;
  const doc = await ctx.db.get("sceneItems", itemId);
  if (doc === null || doc.status !== "active") return null;
  return toSceneItem(doc);
}

/** The active item or a NOT_FOUND error ('Event not found'). */
export async function requireActiveItem(ctx: QueryCtx, id: Id<"sceneItems">): Promise<Doc<"sceneItems">> {
  const item = await ctx.db.get("sceneItems", id);
  if (item === null || item.status !== "active") {
    throw appError(ErrorCode.NOT_FOUND, "Event not found");
  }
  return item;
}

export const viewerStateValidator = v.union(
  v.null(),
  v.object({
    favoriteIds: v.array(v.id("sceneItems")),
    schedule: v.array(
      v.object({
        entryId: v.id("scheduleEntries"),
        sceneItemId: v.id("sceneItems"),
        addedAt: v.number(),
      }),
    ),
    recentCheckIns: v.array(
      v.object({
        sceneItemId: v.id("sceneItems"),
        localDate: v.string(),
        checkedInAt: v.number(),
      }),
    ),
    isAdmin: v.boolean(),
    userId: v.id("users"),
  }),
);

export type ViewerState = Infer<typeof viewerStateValidator>;

/** What the signed-in comedian's cards need: favourites, schedule entries,
 * check-ins since `sinceMs` and the admin flag. */
export async function viewerState(
  ctx: QueryCtx,
  userId: Id<"users">,
  sinceMs: number,
): Promise<NonNullable<ViewerState>> {
  const [favorites, entries, checkIns, admin] = await Promise.all([
    ctx.db
      .query("favorites")
      .withIndex("by_user_and_item", (q) => q.eq("userId", userId))
      .take(1000),
    ctx.db
      .query("scheduleEntries")
      .withIndex("by_user_and_item", (q) => q.eq("userId", userId))
      .take(1000),
    ctx.db
      .query("checkIns")
      .withIndex("by_user_and_time", (q) => q.eq("userId", userId).gte("checkedInAt", sinceMs))
      .take(500),
    isAdmin(ctx, userId),
  ]);
  return {
    favoriteIds: favorites.map((f) => f.sceneItemId),
    schedule: entries.map((e) => ({ entryId: e._id, sceneItemId: e.sceneItemId, addedAt: e.addedAt })),
    recentCheckIns: checkIns.map((c) => ({
      sceneItemId: c.sceneItemId,
      localDate: c.localDate,
      checkedInAt: c.checkedInAt,
    })),
    isAdmin: admin,
    userId,
  };
}

/** Most rows of each dependent table removed with an item in one transaction. */
const DEPENDENT_BATCH = 2000;

export const IN_USE_MESSAGE =
  "Other comedians use this mic (claims, lists, sets, favourites or schedules), so only an admin can delete it. Report a problem instead.";
/** Rows of one table read to find another user's; past it the mic counts as used. */
const IN_USE_READ = 200;

/**
 * Whether any row of another user points at the mic: a claim, a list or a
 * spot on one, a set, a favourite, a schedule entry, a check-in or a report.
 * Then its creator may no longer delete it (it would wipe their rows).
 */
async function othersUse(ctx: QueryCtx, micId: Id<"sceneItems">, userId: Id<"users">): Promise<boolean> {
  const others = (owners: (Id<"users"> | undefined)[]) =>
    owners.length > IN_USE_READ || owners.some((owner) => owner !== undefined && owner !== userId);
  const rows = await Promise.all([
    ctx.db
      .query("micClaims")
      .withIndex("by_mic_and_claimant", (q) => q.eq("micId", micId))
      .take(IN_USE_READ + 1)
      .then((r) => r.map((x) => x.claimantId)),
    ctx.db
      .query("nightLists")
      .withIndex("by_mic_and_date", (q) => q.eq("micId", micId))
      .take(IN_USE_READ + 1)
      .then((r) => r.map((x) => x.openedBy)),
    ctx.db
      .query("listSpots")
      .withIndex("by_mic", (q) => q.eq("micId", micId))
      .take(IN_USE_READ + 1)
      .then((r) => r.map((x) => x.userId)),
    ctx.db
      .query("performances")
      .withIndex("by_sceneItem", (q) => q.eq("sceneItemId", micId))
      .take(IN_USE_READ + 1)
      .then((r) => r.map((x) => x.userId)),
    ctx.db
      .query("favorites")
      .withIndex("by_item", (q) => q.eq("sceneItemId", micId))
      .take(IN_USE_READ + 1)
      .then((r) => r.map((x) => x.userId)),
    ctx.db
      .query("scheduleEntries")
      .withIndex("by_item", (q) => q.eq("sceneItemId", micId))
      .take(IN_USE_READ + 1)
      .then((r) => r.map((x) => x.userId)),
    ctx.db
      .query("checkIns")
      .withIndex("by_item_and_time", (q) => q.eq("sceneItemId", micId))
      .take(IN_USE_READ + 1)
      .then((r) => r.map((x) => x.userId)),
    ctx.db
      .query("problemReports")
      .withIndex("by_mic", (q) => q.eq("micId", micId))
      .take(IN_USE_READ + 1)
      .then((r) => r.map((x) => x.reporterId)),
  ]);
  return rows.some(others);
}

/**
 * Deletes a scene item for an admin, or for its creator while no other
 * user's row points at it (othersUse). Sets logged at the item
 * first lose their link (keeping the venue name so the history still reads
 * right), every comedian's, and their visits to it stop counting as a unique
 * venue.
 * Favourites, schedule entries, check-ins, claims and reports of the item go
 * with it. Returns how many sets were updated.
 */
export async function removeSceneItem(
  ctx: MutationCtx,
  userId: Id<"users">,
  id: Id<"sceneItems">,
): Promise<{ updatedSets: number }> {
  const item = await ctx.db.get("sceneItems", id);
  if (item === null) throw appError(ErrorCode.NOT_FOUND, "Event not found");
  const admin = await isAdmin(ctx, userId);
  if (!admin && item.createdBy !== userId) {
    throw appError(ErrorCode.FORBIDDEN, "Only the event's creator or an admin can delete it.");
  }
  if (!admin && (await othersUse(ctx, id, userId))) throw appError(ErrorCode.FORBIDDEN, IN_USE_MESSAGE);

  // Every comedian's sets lose the link (a set must never point at a missing
  // mic); the count reported is the caller's own sets, or all for an admin.
  // An unlinked set no longer counts as a visit to a mic, so each comedian who
  // performed here loses the visit row and one unique venue (minutes, sets and
  // streaks stay): the set trigger does that (model/statsTriggers).
  const sets = await ctx.db
    .query("performances")
    .withIndex("by_sceneItem", (q) => q.eq("sceneItemId", id))
    .take(DEPENDENT_BATCH);
  let updatedSets = 0;
  for (const set of sets) {
    await ctx.db.patch("performances", set._id, {
      sceneItemId: undefined,
      venueName: set.venueName ?? item.venueName,
    });
    if (admin || set.userId === userId) updatedSets++;
  }

  // The mic goes first: its check-ins' trigger then has no counters left to keep.
  await ctx.db.delete("sceneItems", id);
  const [favorites, entries, checkIns, claims, reports, queued] = await Promise.all([
    ctx.db
      .query("favorites")
      .withIndex("by_item", (q) => q.eq("sceneItemId", id))
      .take(DEPENDENT_BATCH),
    ctx.db
      .query("scheduleEntries")
      .withIndex("by_item", (q) => q.eq("sceneItemId", id))
      .take(DEPENDENT_BATCH),
    ctx.db
      .query("checkIns")
      .withIndex("by_item_and_time", (q) => q.eq("sceneItemId", id))
      .take(DEPENDENT_BATCH),
    ctx.db
      .query("micClaims")
      .withIndex("by_mic_and_claimant", (q) => q.eq("micId", id))
      .take(DEPENDENT_BATCH),
    ctx.db
      .query("problemReports")
      .withIndex("by_mic", (q) => q.eq("micId", id))
      .take(DEPENDENT_BATCH),
    ctx.db
      .query("micCheckInQueue")
      .withIndex("by_mic", (q) => q.eq("micId", id))
      .take(DEPENDENT_BATCH),
  ]);
  await Promise.all([
    ...queued.map((row) => ctx.db.delete("micCheckInQueue", row._id)),
    ...favorites.map((row) => ctx.db.delete("favorites", row._id)),
    ...entries.map((row) => ctx.db.delete("scheduleEntries", row._id)),
    ...checkIns.map((row) => ctx.db.delete("checkIns", row._id)),
    ...claims.map((row) => ctx.db.delete("micClaims", row._id)),
    ...reports.map((row) => ctx.db.delete("problemReports", row._id)),
  ]);
  return { updatedSets };
}
