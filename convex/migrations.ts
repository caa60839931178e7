import type { GenericDatabaseWriter, GenericDataModel } from "convex/server";
import { type GenericId, v } from "convex/values";
import { internalMutation } from "./functions";
import { micGeoFields } from "./model/micTriggers";
import { MIN_SET_MINUTES } from "./lib/setRules";
import { DEFAULT_STAGE_NAME } from "./lib/profileRules";
import { isEmailLocalPart } from "./model/profiles";
import { addToCommunityTotal, COMMUNITY_TOTALS } from "./model/stats";
import { backfillSeason } from "./model/season";
import { backfillWeeks } from "./model/weekStreaks";
import * as MicNumbers from "./model/micNumbers";

/**
 * One-off data migrations, run by hand after the deploy that needs them:
 * `npx convex run migrations:<name>` on Convex,
 * `npm run backend -- run migrations:<name>` on the local backend.
 * Each is safe to run again.
 */

/**
 * Adds the old `siteStats` row's figures (the community totals before the `shardedCounter` component) to the
 * counters, which only hold what changed since that deploy, and deletes the row.
 */
export const siteStatsToCounters = internalMutation({
  args: {},
  returns: v.object({ migrated: v.boolean(), totals: v.record(v.string(), v.number()) }),
  handler: async (ctx) => {
    // Untyped: Convex keeps a table that leaves the schema, documents and all.
    const legacy = ctx.db as unknown as GenericDatabaseWriter<GenericDataModel>;
    const row = await legacy.query("siteStats").first();
    if (row === null) return { migrated: false, totals: {} };
    const totals: Record<string, number> = {};
    for (const total of COMMUNITY_TOTALS) {
      totals[total] = typeof row[total] === "number" ? (row[total] as number) : 0;
      await addToCommunityTotal(ctx, total, totals[total]);
    }
    await legacy.delete("siteStats", row._id as GenericId<"siteStats">); // in the same transaction: a rerun finds no row
    return { migrated: true, totals };
  },
});

/** Scene items one {@link sceneAreaCells} call looks at. */
const AREA_CELL_BATCH = 500;

/**
 * Tonight around a point reads `by_status_and_day_and_areaCell`, so every
 * item with coordinates needs `areaCell` (its geohash's first 4 characters).
 * Items written before that field have a geohash but no cell: this sets it,
 * {@link AREA_CELL_BATCH} items a call; run it again with `cursor` set to the
 * answer's `continueCursor` until `isDone`. Items already right are left alone.
 */
export const sceneAreaCells = internalMutation({
  args: { cursor: v.optional(v.union(v.string(), v.null())) },
  returns: v.object({ updated: v.number(), isDone: v.boolean(), continueCursor: v.string() }),
  handler: async (ctx, { cursor }) => {
    const page = await ctx.db.query("sceneItems").paginate({ numItems: AREA_CELL_BATCH, cursor: cursor ?? null });
    let updated = 0;
    for (const item of page.page) {
      if (item.areaCell === micGeoFields(item).areaCell) continue;
      // Any write through the mutation's db sets the cell (model/micTriggers).
      await ctx.db.patch("sceneItems", item._id, {});
      updated++;
    }
    return { updated, isDone: page.isDone, continueCursor: page.continueCursor };
  },
});

/** Sets one {@link zeroMinuteSets} call looks at. */
const SET_BATCH = 500;

/**
 * A set is 1 to 600 minutes, but the log and edit forms once saved an empty or
 * unreadable minutes field as 0. Such a row is no set: this deletes it (the
 * comedian's totals, days, venues and streaks follow through the triggers),
 * {@link SET_BATCH} sets a call; run it again with `cursor` set to the answer's
 * `continueCursor` until `isDone`.
 */
export const zeroMinuteSets = internalMutation({
  args: { cursor: v.optional(v.union(v.string(), v.null())) },
  returns: v.object({ deleted: v.number(), isDone: v.boolean(), continueCursor: v.string() }),
  handler: async (ctx, { cursor }) => {
    const page = await ctx.db.query("performances").paginate({ numItems: SET_BATCH, cursor: cursor ?? null });
    let deleted = 0;
    for (const set of page.page) {
      if (set.minutes >= MIN_SET_MINUTES) continue;
      await ctx.db.delete("performances", set._id);
      deleted++;
    }
    return { deleted, isDone: page.isDone, continueCursor: page.continueCursor };
  },
});

/** Comedians one {@link performanceWeeks} call looks at (each reads up to 4,000 sets). */
const WEEKS_USER_BATCH = 5;

/**
 * Week streaks read one `performanceWeeks` row per goal week with a set. A
 * comedian whose sets predate the table has none: this builds them from their
 * sets (each week with the comedian's current goal) and walks their streak,
 * {@link WEEKS_USER_BATCH} comedians a call; run it again with `cursor` set to
 * the answer's `continueCursor` until `isDone`. Comedians who have week rows
 * already are left alone.
 */
export const performanceWeeks = internalMutation({
  args: { cursor: v.optional(v.union(v.string(), v.null())) },
  returns: v.object({ updated: v.number(), isDone: v.boolean(), continueCursor: v.string() }),
  handler: async (ctx, { cursor }) => {
    const page = await ctx.db.query("userStats").paginate({ numItems: WEEKS_USER_BATCH, cursor: cursor ?? null });
    let updated = 0;
    for (const stats of page.page) {
      if (await backfillWeeks(ctx, stats.userId)) updated++;
    }
    return { updated, isDone: page.isDone, continueCursor: page.continueCursor };
  },
});

/** Comedians one {@link seasonMonths} call looks at (each reads up to 8,000 sets). */
const SEASON_USER_BATCH = 5;

/**
 * A season page reads one `seasonMonths` row per month with a set. A comedian
 * whose sets predate the table has none: this builds them from their sets,
 * {@link SEASON_USER_BATCH} comedians a call; run it again with `cursor` set
 * to the answer's `continueCursor` until `isDone`. Comedians who have month
 * rows already are left alone.
 */
export const seasonMonths = internalMutation({
  args: { cursor: v.optional(v.union(v.string(), v.null())) },
  returns: v.object({ updated: v.number(), isDone: v.boolean(), continueCursor: v.string() }),
  handler: async (ctx, { cursor }) => {
    const page = await ctx.db.query("userStats").paginate({ numItems: SEASON_USER_BATCH, cursor: cursor ?? null });
    let updated = 0;
    for (const stats of page.page) {
      if (await backfillSeason(ctx, stats.userId)) updated++;
    }
    return { updated, isDone: page.isDone, continueCursor: page.continueCursor };
  },
});

/** Profiles one {@link stageNamesFromEmail} call looks at. */
const PROFILE_BATCH = 50;
/** List rows of one comedian it renames at most (a comedian's sign-ups over years stay far below). */
const SPOTS_PER_COMEDIAN = 500;

/**
 * A comedian who signed up without a name was shown by the part of their
 * email before "@", on public live lists and the room screen too. This gives
 * every profile whose name is still that local part (any case) the neutral
 * {@link DEFAULT_STAGE_NAME}, so the app asks for a stage name before their
 * next list sign-up, and renames their rows on lists that carry it.
 * {@link PROFILE_BATCH} profiles a call; run it again with `cursor` set to the
 * answer's `continueCursor` until `isDone`. A name the comedian chose is left alone.
 */
export const stageNamesFromEmail = internalMutation({
  args: { cursor: v.optional(v.union(v.string(), v.null())) },
  returns: v.object({ profiles: v.number(), listRows: v.number(), isDone: v.boolean(), continueCursor: v.string() }),
  handler: async (ctx, { cursor }) => {
    const page = await ctx.db.query("profiles").paginate({ numItems: PROFILE_BATCH, cursor: cursor ?? null });
    let profiles = 0;
    let listRows = 0;
    for (const profile of page.page) {
      const user = await ctx.db.get("users", profile.userId);
      if (user === null) continue;
      if (isEmailLocalPart(profile.displayName, user.email)) {
        await ctx.db.patch("profiles", profile._id, { displayName: DEFAULT_STAGE_NAME });
        profiles++;
      }
      const spots = await ctx.db
        .query("listSpots")
        .withIndex("by_user", (q) => q.eq("userId", profile.userId))
        .take(SPOTS_PER_COMEDIAN);
      for (const spot of spots) {
        if (!isEmailLocalPart(spot.name, user.email)) continue;
        await ctx.db.patch("listSpots", spot._id, { name: DEFAULT_STAGE_NAME });
        listRows++;
      }
    }
    return { profiles, listRows, isDone: page.isDone, continueCursor: page.continueCursor };
  },
});

/** Mics one {@link micNumberSummaries} call looks at: each makes up to 2 index reads for each of
 * its 60 confirmed dates plus its summary's 3, so 25 stay well inside Convex's 4,096 a transaction. */
const MIC_NUMBERS_BATCH = 25;

/**
 * Each mic's numbers summary and short line, and each night's host
 * confirmation, are kept by the list and mic triggers from the deploy that
 * added them on. Mics with nights from before it get both here,
 * {@link MIC_NUMBERS_BATCH} mics a call; run it again with `cursor` set to
 * the answer's `continueCursor` until `isDone`. Writes only what differs.
 */
export const micNumberSummaries = internalMutation({
  args: { cursor: v.optional(v.union(v.string(), v.null())) },
  returns: v.object({ updated: v.number(), isDone: v.boolean(), continueCursor: v.string() }),
  handler: async (ctx, { cursor }) => {
    const page = await ctx.db.query("sceneItems").paginate({ numItems: MIC_NUMBERS_BATCH, cursor: cursor ?? null });
    let updated = 0;
    for (const mic of page.page) {
      const night = await ctx.db
        .query("micNights")
        .withIndex("by_mic_and_closed_and_date", (q) => q.eq("micId", mic._id))
        .first();
      if (night === null) continue;
      const refreshed = await MicNumbers.followConfirmedDates(ctx, mic, mic.confirmedDates ?? []);
      if (!refreshed) await MicNumbers.refreshSummary(ctx, mic._id, mic);
      updated++;
    }
    return { updated, isDone: page.isDone, continueCursor: page.continueCursor };
  },
});
