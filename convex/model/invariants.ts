/**
 * The data invariants every mutation must keep, checked by scanning the
 * tables (for tests, the fuzzer and the backend CLI, never for users):
 *
 * - check-ins: each item's `checkInCount` equals its check-in rows, and a
 *   comedian has at most one check-in per mic per local day (and one
 *   favourite per mic);
 * - per-comedian totals: `userStats` equals the sums of their sets (minutes,
 *   sets, unique mics), `performanceDays` and `venueVisits` equal the sets per
 *   day and per mic, the longest streak and last set date follow the day rows
 *   (lib/streaks), and the stored current streak is either the run ending at
 *   the last set day or 0 (it was computed against the day of the last change,
 *   which the data does not record);
 * - links: every set, schedule entry, favourite, check-in, day row, venue
 *   visit, claim and report points at an existing mic and user;
 * - badges: every badge whose rule the comedian's stored totals meet is
 *   awarded (community_builder: any calendar month, in the comedian's time
 *   zone, with 5+ check-ins). A badge whose rule is no longer met is allowed:
 *   badges are never taken back when a set is edited or deleted;
 * - verification: an item shown as verified (`verifiedCheckIns30d > 0`) has
 *   `lastVerifiedAt`, an expiry 30 days after it, and at least 2 different
 *   comedians among its check-ins of the 30 days up to `lastVerifiedAt`;
 * - site figures: venues, cities (and the `cities` rows), comedians and
 *   minutes equal recounts of the active items, profiles and sets.
 */
import type { Doc, Id, TableNames } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";
import { BADGES, earnedBadgeCodes } from "../lib/badges";
import { computeStreaks } from "../lib/streaks";
import { DEFAULT_TIME_ZONE, localDateString } from "../lib/time";
import { VERIFICATION_PERIOD_MS, VERIFY_MIN_COMEDIANS } from "./checkIns";
import { cityKey } from "./stats";

/** Most rows of one table the check reads: 15 tables of 2,001 rows stay under
 * Convex's 32,000 documents per query. A bigger table is reported as a
 * problem line ("only the first 2000 were checked"), never passed silently. */
export const SCAN_LIMIT = 2000;

export type InvariantReport = { ok: boolean; problems: string[] };

type Scan<T extends TableNames> = Doc<T>[];

/** Every row of a table in creation order, up to {@link SCAN_LIMIT}. */
async function scan<T extends TableNames>(
  ctx: QueryCtx,
  table: T,
  problems: string[],
): Promise<Scan<T>> {
  const rows = (await ctx.db
    .query(table)
    .withIndex("by_creation_time")
    .take(SCAN_LIMIT + 1)) as Doc<T>[];
  if (rows.length > SCAN_LIMIT) {
    problems.push(`${table}: more than ${SCAN_LIMIT} rows, only the first ${SCAN_LIMIT} were checked`);
    return rows.slice(0, SCAN_LIMIT);
  }
  return rows;
}

function countBy<K>(keys: Iterable<K>): Map<K, number> {
  const counts = new Map<K, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  return counts;
}

/** Runs every check; `problems` has one line per broken invariant instance. */
export async function checkInvariants(ctx: QueryCtx): Promise<InvariantReport> {
  const problems: string[] = [];
  const [users, profiles, items, sets, days, visits, stats, checkIns, favorites, entries, badges, claims, reports, siteRows, cityRows] =
    await Promise.all([
      scan(ctx, "users", problems),
      scan(ctx, "profiles", problems),
      scan(ctx, "sceneItems", problems),
      scan(ctx, "performances", problems),
      scan(ctx, "performanceDays", problems),
      scan(ctx, "venueVisits", problems),
      scan(ctx, "userStats", problems),
      scan(ctx, "checkIns", problems),
      scan(ctx, "favorites", problems),
      scan(ctx, "scheduleEntries", problems),
      scan(ctx, "userBadges", problems),
      scan(ctx, "micClaims", problems),
      scan(ctx, "problemReports", problems),
      scan(ctx, "siteStats", problems),
      scan(ctx, "cities", problems),
    ]);

  const userIds = new Set<string>(users.map((u) => u._id));
  const itemById = new Map<string, Doc<"sceneItems">>(items.map((i) => [i._id, i]));

  // Links: rows must point at an existing mic and user.
  const linked: Array<[string, Array<{ _id: string; userId: Id<"users">; itemId?: Id<"sceneItems"> }>]> = [
    ["scheduleEntries", entries.map((r) => ({ _id: r._id, userId: r.userId, itemId: r.sceneItemId }))],
    ["favorites", favorites.map((r) => ({ _id: r._id, userId: r.userId, itemId: r.sceneItemId }))],
    ["checkIns", checkIns.map((r) => ({ _id: r._id, userId: r.userId, itemId: r.sceneItemId }))],
    ["venueVisits", visits.map((r) => ({ _id: r._id, userId: r.userId, itemId: r.sceneItemId }))],
    ["performances", sets.map((r) => ({ _id: r._id, userId: r.userId, itemId: r.sceneItemId }))],
    ["performanceDays", days.map((r) => ({ _id: r._id, userId: r.userId }))],
    ["userStats", stats.map((r) => ({ _id: r._id, userId: r.userId }))],
    ["userBadges", badges.map((r) => ({ _id: r._id, userId: r.userId }))],
    ["profiles", profiles.map((r) => ({ _id: r._id, userId: r.userId }))],
    ["micClaims", claims.map((r) => ({ _id: r._id, userId: r.claimantId, itemId: r.micId }))],
    ["problemReports", reports.map((r) => ({ _id: r._id, userId: r.reporterId, itemId: r.micId }))],
  ];
  for (const [table, rows] of linked) {
    for (const row of rows) {
      if (!userIds.has(row.userId)) problems.push(`${table} ${row._id}: user ${row.userId} does not exist`);
      if (row.itemId !== undefined && !itemById.has(row.itemId)) {
        problems.push(`${table} ${row._id}: mic ${row.itemId} does not exist`);
      }
    }
  }

  // One check-in per comedian per mic per local day; one favourite per comedian per mic.
  for (const [key, n] of countBy(checkIns.map((c) => `${c.userId} at mic ${c.sceneItemId} on ${c.localDate}`))) {
    if (n > 1) problems.push(`checkIns: ${n} rows for user ${key}`);
  }
  for (const [key, n] of countBy(favorites.map((f) => `${f.userId} for mic ${f.sceneItemId}`))) {
    if (n > 1) problems.push(`favorites: ${n} rows for user ${key}`);
  }

  // Check-in counters.
  const checkInsPerItem = countBy(checkIns.map((c) => c.sceneItemId as string));
  for (const item of items) {
    const rows = checkInsPerItem.get(item._id) ?? 0;
    if (item.checkInCount !== rows) {
      problems.push(`sceneItems ${item._id}: checkInCount ${item.checkInCount} but ${rows} check-in rows`);
    }
  }

  // Verification.
  const checkInsByItem = new Map<string, Doc<"checkIns">[]>();
  for (const c of checkIns) {
    const list = checkInsByItem.get(c.sceneItemId) ?? [];
    list.push(c);
    checkInsByItem.set(c.sceneItemId, list);
  }
  for (const item of items) {
    if (item.verifiedCheckIns30d <= 0) continue;
    if (item.lastVerifiedAt === undefined) {
      problems.push(`sceneItems ${item._id}: verified without lastVerifiedAt`);
      continue;
    }
    const at = item.lastVerifiedAt;
    if (item.verificationExpiresAt !== at + VERIFICATION_PERIOD_MS) {
      problems.push(`sceneItems ${item._id}: verified, but its expiry is not 30 days after lastVerifiedAt`);
    }
    const comedians = new Set(
      (checkInsByItem.get(item._id) ?? [])
        .filter((c) => c.checkedInAt > at - VERIFICATION_PERIOD_MS && c.checkedInAt <= at)
        .map((c) => c.userId),
    ).size;
    if (comedians < VERIFY_MIN_COMEDIANS) {
      problems.push(
        `sceneItems ${item._id}: verified, but only ${comedians} comedian(s) checked in in the 30 days before lastVerifiedAt`,
      );
    }
  }

  // Per-comedian totals, day rows and venue visits against the sets.
  type Recount = { minutes: number; sets: number; days: Map<string, number>; items: Map<string, number> };
  const recount = new Map<string, Recount>();
  for (const s of sets) {
    const r = recount.get(s.userId) ?? { minutes: 0, sets: 0, days: new Map(), items: new Map() };
    r.minutes += s.minutes;
    r.sets += 1;
    r.days.set(s.performanceDate, (r.days.get(s.performanceDate) ?? 0) + 1);
    if (s.sceneItemId !== undefined) r.items.set(s.sceneItemId, (r.items.get(s.sceneItemId) ?? 0) + 1);
    recount.set(s.userId, r);
  }
  const empty: Recount = { minutes: 0, sets: 0, days: new Map(), items: new Map() };

  const dayRows = new Map<string, Map<string, number>>();
  for (const d of days) {
    const perUser = dayRows.get(d.userId) ?? new Map<string, number>();
    if (perUser.has(d.date)) problems.push(`performanceDays: two rows for user ${d.userId} on ${d.date}`);
    perUser.set(d.date, d.sets);
    dayRows.set(d.userId, perUser);
  }
  const visitRows = new Map<string, Map<string, number>>();
  for (const vv of visits) {
    const perUser = visitRows.get(vv.userId) ?? new Map<string, number>();
    if (perUser.has(vv.sceneItemId)) problems.push(`venueVisits: two rows for user ${vv.userId} at mic ${vv.sceneItemId}`);
    perUser.set(vv.sceneItemId, vv.sets);
    visitRows.set(vv.userId, perUser);
  }

  const statsByUser = new Map<string, Doc<"userStats">>();
  for (const row of stats) {
    if (statsByUser.has(row.userId)) problems.push(`userStats: two rows for user ${row.userId}`);
    statsByUser.set(row.userId, row);
  }
  const comedianIds = new Set<string>([...recount.keys(), ...dayRows.keys(), ...visitRows.keys(), ...statsByUser.keys()]);
  for (const userId of comedianIds) {
    const r = recount.get(userId) ?? empty;
    const row = statsByUser.get(userId);
    const perDay = dayRows.get(userId) ?? new Map<string, number>();
    const perItem = visitRows.get(userId) ?? new Map<string, number>();

    for (const [date, n] of r.days) {
      const stored = perDay.get(date);
      if (stored !== n) problems.push(`performanceDays: user ${userId} on ${date} has ${stored ?? "no row"} but ${n} set(s)`);
    }
    for (const [date, stored] of perDay) {
      if (!r.days.has(date)) problems.push(`performanceDays: user ${userId} on ${date} has ${stored} but no sets`);
    }
    for (const [itemId, n] of r.items) {
      const stored = perItem.get(itemId);
      if (stored !== n) problems.push(`venueVisits: user ${userId} at mic ${itemId} has ${stored ?? "no row"} but ${n} set(s)`);
    }
    for (const [itemId, stored] of perItem) {
      if (!r.items.has(itemId)) problems.push(`venueVisits: user ${userId} at mic ${itemId} has ${stored} but no sets`);
    }

    if (row === undefined) {
      if (r.sets > 0) problems.push(`userStats: user ${userId} has ${r.sets} set(s) but no stats row`);
      continue;
    }
    if (row.totalMinutes !== r.minutes) {
      problems.push(`userStats ${userId}: totalMinutes ${row.totalMinutes} but sets sum to ${r.minutes}`);
    }
    if (row.totalSets !== r.sets) problems.push(`userStats ${userId}: totalSets ${row.totalSets} but ${r.sets} set(s)`);
    if (row.uniqueVenues !== r.items.size) {
      problems.push(`userStats ${userId}: uniqueVenues ${row.uniqueVenues} but sets at ${r.items.size} mic(s)`);
    }
    const dates = [...perDay.keys()].sort();
    const lastDate = dates[dates.length - 1];
    if (row.lastSetDate !== lastDate && !(lastDate === undefined && r.sets === 0 && row.lastSetDate === undefined)) {
      problems.push(`userStats ${userId}: lastSetDate ${row.lastSetDate ?? "none"} but the last set day is ${lastDate ?? "none"}`);
    }
    const streaks = lastDate === undefined ? { current: 0, longest: 0 } : computeStreaks(dates, lastDate);
    if (row.longestStreak !== streaks.longest) {
      problems.push(`userStats ${userId}: longestStreak ${row.longestStreak} but the day rows give ${streaks.longest}`);
    }
    if (row.currentStreak !== 0 && row.currentStreak !== streaks.current) {
      problems.push(`userStats ${userId}: currentStreak ${row.currentStreak} but the run ending at the last set day is ${streaks.current}`);
    }
  }

  // Badges: known codes, one row per code, every met rule awarded.
  const profileByUser = new Map<string, Doc<"profiles">>(profiles.map((p) => [p.userId, p]));
  const held = new Map<string, Set<string>>();
  const knownCodes = new Set(BADGES.map((b) => b.code));
  for (const b of badges) {
    if (!knownCodes.has(b.badgeCode)) problems.push(`userBadges ${b._id}: unknown badge ${b.badgeCode}`);
    const codes = held.get(b.userId) ?? new Set<string>();
    if (codes.has(b.badgeCode)) problems.push(`userBadges: user ${b.userId} holds ${b.badgeCode} twice`);
    codes.add(b.badgeCode);
    held.set(b.userId, codes);
  }
  const bestMonth = new Map<string, number>();
  const monthCounts = countBy(
    checkIns.map((c) => {
      const tz = profileByUser.get(c.userId)?.timeZone ?? DEFAULT_TIME_ZONE;
      return `${c.userId}|${localDateString(c.checkedInAt, tz).slice(0, 7)}`;
    }),
  );
  for (const [key, n] of monthCounts) {
    const userId = key.split("|")[0];
    bestMonth.set(userId, Math.max(bestMonth.get(userId) ?? 0, n));
  }
  for (const userId of new Set<string>([...statsByUser.keys(), ...bestMonth.keys()])) {
    if (!userIds.has(userId)) continue;
    const row = statsByUser.get(userId);
    const earned = earnedBadgeCodes({
      sets: row?.totalSets ?? 0,
      minutes: row?.totalMinutes ?? 0,
      uniqueVenues: row?.uniqueVenues ?? 0,
      venuesAdded: row?.venuesAdded ?? 0,
      monthCheckIns: bestMonth.get(userId) ?? 0,
      currentStreak: row?.currentStreak ?? 0,
      longestStreak: row?.longestStreak ?? 0,
    });
    const codes = held.get(userId) ?? new Set<string>();
    for (const code of earned) {
      if (!codes.has(code)) problems.push(`userBadges: user ${userId} meets the rule of ${code} but does not hold it`);
    }
  }

  // Site figures.
  const active = items.filter((i) => i.status === "active");
  const activePerCity = countBy(active.map((i) => cityKey(i.city)));
  const cityByName = new Map<string, Doc<"cities">>();
  for (const c of cityRows) {
    if (cityByName.has(c.name)) problems.push(`cities: two rows for ${JSON.stringify(c.name)}`);
    cityByName.set(c.name, c);
  }
  for (const [name, n] of activePerCity) {
    const stored = cityByName.get(name)?.items;
    if (stored !== n) problems.push(`cities ${JSON.stringify(name)}: items ${stored ?? "no row"} but ${n} active item(s)`);
  }
  for (const c of cityRows) {
    if (!activePerCity.has(c.name) && c.items !== 0) {
      problems.push(`cities ${JSON.stringify(c.name)}: items ${c.items} but no active items`);
    }
  }
  if (siteRows.length > 1) problems.push(`siteStats: ${siteRows.length} rows, expected one`);
  const site = siteRows[0];
  const expected = {
    venues: active.length,
    cities: activePerCity.size,
    comedians: profiles.length,
    minutesLogged: sets.reduce((sum, s) => sum + s.minutes, 0),
  };
  if (site === undefined) {
    if (Object.values(expected).some((n) => n !== 0)) problems.push("siteStats: no row, but the site has data");
  } else {
    for (const key of ["venues", "cities", "comedians", "minutesLogged"] as const) {
      if (site[key] !== expected[key]) problems.push(`siteStats: ${key} ${site[key]} but a recount gives ${expected[key]}`);
    }
  }

  return { ok: problems.length === 0, problems };
}
