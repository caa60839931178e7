/** What the performances tests share: the frozen Friday evening they run at, logging a set, and reading back stats, derived rows and badges. */
import { api } from "../_generated/api";
import type { Id } from "../_generated/dataModel";
// Load @date-fns/tz before fake timers replace Date: a TZDate class that
// extends the fake Date loses its time zone.
import "../lib/time";
import { readCommunityTotals } from "../model/stats";
import type { TestBackend, TestUser } from "./test.setup";

export const HOUR = 60 * 60_000;
export const DAY = 24 * HOUR;
/** Friday 2026-11-20, 22:00 in New York (UTC-5). */
export const NOW = Date.parse("2026-11-20T22:00:00-05:00");
/** 20:00 New York time `daysAgo` days before NOW's date. */
export const nyEvening = (daysAgo: number) => Date.parse("2026-11-20T20:00:00-05:00") - daysAgo * DAY;

/** What `stats.mine` answers a comedian with no sets. */
export const ZERO_STATS = {
  totalMinutes: 0,
  totalSets: 0,
  uniqueVenues: 0,
  currentStreak: 0,
  longestStreak: 0,
  venuesAdded: 0,
};

export async function log(
  comic: TestUser,
  sceneItemId: Id<"sceneItems"> | undefined,
  minutes: number,
  performedAt: number,
  extra: { tags?: string[]; notes?: string; timeZone?: string; venueName?: string } = {},
) {
  return await comic.asUser.mutation(api.performances.log, {
    minutes,
    performedAt,
    sceneItemId,
    tags: extra.tags ?? [],
    notes: extra.notes,
    timeZone: extra.timeZone,
    venueName: extra.venueName,
  });
}

export async function stats(comic: TestUser) {
  return await comic.asUser.query(api.stats.mine, {});
}

export async function rows(t: TestBackend, userId: Id<"users">) {
  return await t.run(async (ctx) => ({
    stats: await ctx.db
      .query("userStats")
      .withIndex("by_userId", (q) => q.eq("userId", userId))
      .unique(),
    days: (
      await ctx.db
        .query("performanceDays")
        .withIndex("by_user_and_date", (q) => q.eq("userId", userId))
        .collect()
    ).map((d) => [d.date, d.sets]),
    visits: (
      await ctx.db
        .query("venueVisits")
        .withIndex("by_user_and_item", (q) => q.eq("userId", userId))
        .collect()
    ).map((d) => [d.sceneItemId, d.sets]),
    siteMinutes: (await readCommunityTotals(ctx)).minutesLogged,
    profile: await ctx.db
      .query("profiles")
      .withIndex("by_userId", (q) => q.eq("userId", userId))
      .unique(),
  }));
}

export async function badgeCodes(comic: TestUser) {
  return (await comic.asUser.query(api.badges.mine, {})).map((b) => b.code);
}
