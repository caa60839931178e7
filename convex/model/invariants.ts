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
 * - community totals (the `shardedCounter` component): venues, cities (and
 *   the `cities` rows), comedians and minutes equal recounts of the active
 *   items, profiles and sets.
 */
import type { Doc, Id, TableNames } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";
import { BADGES, earnedBadgeCodes } from "../lib/badges";
import { computeStreaks } from "../lib/streaks";
import { daysBetweenDates, DEFAULT_TIME_ZONE, localDateString } from "../lib/time";
import { VERIFICATION_PERIOD_MS, VERIFY_MIN_COMEDIANS } from "./micTriggers";
import { type CommunityTotals, cityKey, COMMUNITY_TOTALS, readCommunityTotals } from "./stats";

/** Most rows of one table the check reads: 15 tables of 2,001 rows stay under
 * Convex's 32,000 documents per query. A bigger table is reported as a
 * problem line ("only the first 2000 were checked"), never passed silently. */
export const SCAN_LIMIT = 2000;

export type InvariantReport = { ok: boolean; problems: string[] };

type Scan<T extends TableNames> = Doc<T>[];

/** Every row of a table in creation order, up to {@link SCAN_LIMIT}. */
async function scan<T extends TableNames>(ctx: QueryCtx, table: T, problems: string[]): Promise<Scan<T>> {
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
  const [
    users,
    profiles,
    items,
    sets,
    days,
    visits,
    stats,
    checkIns,
    favorites,
    entries,
    badges,
    claims,
    reports,
    cityRows,
    totals,
  ] = await Promise.all([
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
    scan(ctx, "cities", problems),
    readCommunityTotals(ctx),
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
    if (perUser.has(vv.sceneItemId))
      problems.push(`venueVisits: two rows for user ${vv.userId} at mic ${vv.sceneItemId}`);
    perUser.set(vv.sceneItemId, vv.sets);
    visitRows.set(vv.userId, perUser);
  }

  const statsByUser = new Map<string, Doc<"userStats">>();
  for (const row of stats) {
    if (statsByUser.has(row.userId)) problems.push(`userStats: two rows for user ${row.userId}`);
    statsByUser.set(row.userId, row);
  }
  const comedianIds = new Set<string>([
    ...recount.keys(),
    ...dayRows.keys(),
    ...visitRows.keys(),
    ...statsByUser.keys(),
  ]);
  for (const userId of comedianIds) {
    const r = recount.get(userId) ?? empty;
    const row = statsByUser.get(userId);
    const perDay = dayRows.get(userId) ?? new Map<string, number>();
    const perItem = visitRows.get(userId) ?? new Map<string, number>();

    for (const [date, n] of r.days) {
      const stored = perDay.get(date);
      if (stored !== n)
        problems.push(`performanceDays: user ${userId} on ${date} has ${stored ?? "no row"} but ${n} set(s)`);
    }
    for (const [date, stored] of perDay) {
      if (!r.days.has(date)) problems.push(`performanceDays: user ${userId} on ${date} has ${stored} but no sets`);
    }
    for (const [itemId, n] of r.items) {
      const stored = perItem.get(itemId);
      if (stored !== n)
        problems.push(`venueVisits: user ${userId} at mic ${itemId} has ${stored ?? "no row"} but ${n} set(s)`);
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
      problems.push(
        `userStats ${userId}: lastSetDate ${row.lastSetDate ?? "none"} but the last set day is ${lastDate ?? "none"}`,
      );
    }
    const streaks = lastDate === undefined ? { current: 0, longest: 0 } : computeStreaks(dates, lastDate);
    if (row.longestStreak !== streaks.longest) {
      problems.push(`userStats ${userId}: longestStreak ${row.longestStreak} but the day rows give ${streaks.longest}`);
    }
    if (row.currentStreak !== 0 && row.currentStreak !== streaks.current) {
      problems.push(
        `userStats ${userId}: currentStreak ${row.currentStreak} but the run ending at the last set day is ${streaks.current}`,
      );
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
    if (stored !== n)
      problems.push(`cities ${JSON.stringify(name)}: items ${stored ?? "no row"} but ${n} active item(s)`);
  }
  for (const c of cityRows) {
    if (!activePerCity.has(c.name) && c.items !== 0) {
      problems.push(`cities ${JSON.stringify(c.name)}: items ${c.items} but no active items`);
    }
  }
  checkCommunityTotals(problems, totals, {
    venues: active.length,
    cities: activePerCity.size,
    comedians: profiles.length,
    minutesLogged: sets.reduce((sum, s) => sum + s.minutes, 0),
  });

  return { ok: problems.length === 0, problems };
}

/** The problem lines for community totals that differ from a recount. */
function checkCommunityTotals(problems: string[], stored: CommunityTotals, expected: CommunityTotals): void {
  for (const key of COMMUNITY_TOTALS) {
    if (stored[key] !== expected[key])
      problems.push(`community totals: ${key} ${stored[key]} but a recount gives ${expected[key]}`);
  }
}

// ---------------------------------------------------------------------------
// The paged check: the same invariants at any size.
//
// `checkInvariants` reads whole tables in one query, so it stops at
// SCAN_LIMIT rows. The paged form walks one table ("part") a page at a time;
// each page checks what its rows can show through index lookups (links,
// duplicate rows, a day row's sets, a verified mic's recent check-ins) and
// returns small partial sums ("tallies": sets and minutes per comedian, sets
// per comedian and mic, active mics per city ...). `finishPagedCheck` adds the
// tallies of every page of every part and compares the totals with the stored
// counters, so each page stays far inside Convex's per-query limits and the
// action that drives it (invariants:checkAll) holds only per-comedian and
// per-mic numbers, never the rows. The problem lines are the same as
// `checkInvariants` prints. Run it on a quiet backend: pages read at different
// moments.
// ---------------------------------------------------------------------------

/** The tables the paged check walks, in the order checkAll walks them. */
export const INVARIANT_PARTS = [
  "sceneItems",
  "checkIns",
  "favorites",
  "scheduleEntries",
  "micClaims",
  "problemReports",
  "performances",
  "performanceDays",
  "venueVisits",
  "userStats",
  "userBadges",
  "profiles",
  "cities",
  "communityTotals",
] as const;
export type InvariantPart = (typeof INVARIANT_PARTS)[number];

/** Rows per page unless the caller asks for fewer: at most ~4 lookups per row
 * (cached per page) keeps a page under Convex's 4,096 index ranges and 32,000
 * documents read. */
export const DEFAULT_PAGE_SIZE = 500;
export const MAX_PAGE_SIZE = 1000;

/** A run of day rows of one comedian, in date order, as one page saw it. */
export type DaySegment = {
  userId: string;
  first: string;
  last: string;
  /** Length of the run of consecutive days starting at `first`. */
  head: number;
  /** Length of the run of consecutive days ending at `last` (the current streak at `last`). */
  tail: number;
  longest: number;
  /** Distinct days. */
  days: number;
};

export type StatsFact = Omit<Doc<"userStats">, "_id" | "_creationTime"> & { userExists: boolean };

/** Partial sums of one page; see {@link finishPagedCheck} for what each counter means. */
export type Tally = {
  /** [counter, key, amount]: amounts with the same counter and key are added up. */
  counters: Array<[string, string, number]>;
  daySegments: DaySegment[];
  stats: StatsFact[];
  cities: Array<{ name: string; items: number }>;
  /** The stored community totals (one entry, from the communityTotals part). */
  site: CommunityTotals[];
};

export type InvariantPage = {
  problems: string[];
  continueCursor: string;
  isDone: boolean;
  rows: number;
  tally: Tally;
};

/** Adds to per-page counters before they are returned (one entry per key). */
class Counters {
  private readonly map = new Map<string, [string, string, number]>();
  add(counter: string, key: string, n = 1): void {
    const id = `${counter}\u0000${key}`;
    const entry = this.map.get(id);
    if (entry) entry[2] += n;
    else this.map.set(id, [counter, key, n]);
  }
  list(): Array<[string, string, number]> {
    return [...this.map.values()];
  }
}

/** Memoised existence lookups within one page (the same comedian or mic recurs). */
function existence(ctx: QueryCtx) {
  const users = new Map<string, Promise<boolean>>();
  const items = new Map<string, Promise<boolean>>();
  return {
    user: (id: Id<"users">) => {
      let p = users.get(id);
      if (!p) users.set(id, (p = ctx.db.get("users", id).then((d) => d !== null)));
      return p;
    },
    item: (id: Id<"sceneItems">) => {
      let p = items.get(id);
      if (!p) items.set(id, (p = ctx.db.get("sceneItems", id).then((d) => d !== null)));
      return p;
    },
  };
}

/** The problem lines for a row's links to a user and, optionally, a mic. */
async function checkLinks(
  exists: ReturnType<typeof existence>,
  problems: string[],
  table: string,
  row: { _id: string; userId: Id<"users">; itemId?: Id<"sceneItems"> },
): Promise<void> {
  const [userOk, itemOk] = await Promise.all([
    exists.user(row.userId),
    row.itemId === undefined ? true : exists.item(row.itemId),
  ]);
  if (!userOk) problems.push(`${table} ${row._id}: user ${row.userId} does not exist`);
  if (!itemOk) problems.push(`${table} ${row._id}: mic ${row.itemId} does not exist`);
}

/** A page of a table whose only invariant is its links to a user and a mic. */
async function linksPage<T extends "scheduleEntries" | "micClaims" | "problemReports">(
  ctx: QueryCtx,
  exists: ReturnType<typeof existence>,
  problems: string[],
  table: T,
  opts: PageOpts,
  links: (row: Doc<T>) => { userId: Id<"users">; itemId?: Id<"sceneItems"> },
) {
  const page = await ctx.db.query(table).withIndex("by_creation_time").paginate(opts);
  await Promise.all(page.page.map((r) => checkLinks(exists, problems, table, { _id: r._id, ...links(r as Doc<T>) })));
  return page;
}

/** Day segments of consecutive rows of the same comedian (rows sorted by user, then date). */
function segmentsOf(rows: Array<{ userId: string; date: string }>): DaySegment[] {
  const out: DaySegment[] = [];
  let seg: DaySegment | null = null;
  let run = 0;
  for (const { userId, date } of rows) {
    if (seg !== null && seg.userId === userId) {
      if (date === seg.last) continue; // a duplicate row (reported by itself)
      const gap = daysBetweenDates(seg.last, date);
      run = gap === 1 ? run + 1 : 1;
      if (seg.head === seg.days && gap === 1) seg.head++;
      seg.days++;
      seg.last = date;
      seg.tail = run;
      seg.longest = Math.max(seg.longest, run);
    } else {
      if (seg !== null) out.push(seg);
      run = 1;
      seg = { userId, first: date, last: date, head: 1, tail: 1, longest: 1, days: 1 };
    }
  }
  if (seg !== null) out.push(seg);
  return out;
}

/** Joins two segments of one comedian, `b` after `a` (its dates are later). */
export function joinSegments(a: DaySegment, b: DaySegment): DaySegment {
  const gap = daysBetweenDates(a.last, b.first);
  // gap 0: the same day at the end of one page and the start of the next.
  const overlap = gap === 0 ? 1 : 0;
  const joins = gap <= 1;
  const bridge = joins ? a.tail + b.head - overlap : 0;
  return {
    userId: a.userId,
    first: a.first,
    last: b.last,
    head: joins && a.head === a.days ? a.days + b.head - overlap : a.head,
    tail: joins && b.tail === b.days ? b.days + a.tail - overlap : b.tail,
    longest: Math.max(a.longest, b.longest, bridge),
    days: a.days + b.days - overlap,
  };
}

type PageOpts = { cursor: string | null; numItems: number };

function emptyTally(): Tally {
  return { counters: [], daySegments: [], stats: [], cities: [], site: [] };
}

/**
 * One page of one part of the paged check. `numItems` is capped at
 * {@link MAX_PAGE_SIZE}.
 */
export async function checkInvariantPage(
  ctx: QueryCtx,
  part: InvariantPart,
  cursor: string | null,
  numItems = DEFAULT_PAGE_SIZE,
): Promise<InvariantPage> {
  const opts: PageOpts = { cursor, numItems: Math.max(1, Math.min(MAX_PAGE_SIZE, Math.floor(numItems))) };
  const problems: string[] = [];
  const counters = new Counters();
  const tally = emptyTally();
  const exists = existence(ctx);
  const done = (page: { continueCursor: string; isDone: boolean; page: unknown[] }): InvariantPage => ({
    problems,
    continueCursor: page.continueCursor,
    isDone: page.isDone,
    rows: page.page.length,
    tally: { ...tally, counters: counters.list() },
  });

  switch (part) {
    case "sceneItems": {
      const page = await ctx.db.query("sceneItems").withIndex("by_creation_time").paginate(opts);
      await Promise.all(
        page.page.map(async (item) => {
          if (item.status === "active") counters.add("activeInCity", cityKey(item.city));
          if (item.checkInCount !== 0) counters.add("storedCheckIns", item._id, item.checkInCount);
          await checkVerification(ctx, item, problems);
        }),
      );
      return done(page);
    }
    case "checkIns": {
      const page = await ctx.db.query("checkIns").withIndex("by_creation_time").paginate(opts);
      const zones = new Map<string, Promise<string>>();
      const zoneOf = (userId: Id<"users">) => {
        let p = zones.get(userId);
        if (!p) {
          p = ctx.db
            .query("profiles")
            .withIndex("by_userId", (q) => q.eq("userId", userId))
            .first()
            .then((profile) => profile?.timeZone ?? DEFAULT_TIME_ZONE);
          zones.set(userId, p);
        }
        return p;
      };
      await Promise.all(
        page.page.map(async (c) => {
          await checkLinks(exists, problems, "checkIns", { _id: c._id, userId: c.userId, itemId: c.sceneItemId });
          const same = await ctx.db
            .query("checkIns")
            .withIndex("by_user_item_and_date", (q) =>
              q.eq("userId", c.userId).eq("sceneItemId", c.sceneItemId).eq("localDate", c.localDate),
            )
            .take(1000);
          if (same.length > 1 && same[0]._id === c._id) {
            problems.push(
              `checkIns: ${same.length} rows for user ${c.userId} at mic ${c.sceneItemId} on ${c.localDate}`,
            );
          }
          if (await exists.item(c.sceneItemId)) counters.add("checkInRows", c.sceneItemId);
          if (await exists.user(c.userId)) {
            const month = localDateString(c.checkedInAt, await zoneOf(c.userId)).slice(0, 7);
            counters.add("monthCheckIns", `${c.userId}|${month}`);
          }
        }),
      );
      return done(page);
    }
    case "favorites": {
      const page = await ctx.db.query("favorites").withIndex("by_creation_time").paginate(opts);
      await Promise.all(
        page.page.map(async (f) => {
          await checkLinks(exists, problems, "favorites", { _id: f._id, userId: f.userId, itemId: f.sceneItemId });
          const same = await ctx.db
            .query("favorites")
            .withIndex("by_user_and_item", (q) => q.eq("userId", f.userId).eq("sceneItemId", f.sceneItemId))
            .take(1000);
          if (same.length > 1 && same[0]._id === f._id) {
            problems.push(`favorites: ${same.length} rows for user ${f.userId} for mic ${f.sceneItemId}`);
          }
        }),
      );
      return done(page);
    }
    case "scheduleEntries":
      return done(
        await linksPage(ctx, exists, problems, "scheduleEntries", opts, (r) => ({
          userId: r.userId,
          itemId: r.sceneItemId,
        })),
      );
    case "micClaims":
      return done(
        await linksPage(ctx, exists, problems, "micClaims", opts, (r) => ({ userId: r.claimantId, itemId: r.micId })),
      );
    case "problemReports":
      return done(
        await linksPage(ctx, exists, problems, "problemReports", opts, (r) => ({
          userId: r.reporterId,
          itemId: r.micId,
        })),
      );
    case "performances": {
      const page = await ctx.db.query("performances").withIndex("by_creation_time").paginate(opts);
      const dayRow = new Map<string, Promise<boolean>>();
      await Promise.all(
        page.page.map(async (s) => {
          await checkLinks(exists, problems, "performances", { _id: s._id, userId: s.userId, itemId: s.sceneItemId });
          counters.add("setMinutes", s.userId, s.minutes);
          counters.add("setCount", s.userId);
          counters.add("siteMinutes", "", s.minutes);
          if (s.sceneItemId !== undefined) counters.add("setsAtMic", `${s.userId}|${s.sceneItemId}`);
          const key = `${s.userId}|${s.performanceDate}`;
          let has = dayRow.get(key);
          if (!has) {
            has = ctx.db
              .query("performanceDays")
              .withIndex("by_user_and_date", (q) => q.eq("userId", s.userId).eq("date", s.performanceDate))
              .first()
              .then((d) => d !== null);
            dayRow.set(key, has);
          }
          if (!(await has)) counters.add("setsWithoutDayRow", key);
        }),
      );
      return done(page);
    }
    case "performanceDays": {
      // In user and date order, so each page yields runs of days per comedian.
      const page = await ctx.db.query("performanceDays").withIndex("by_user_and_date").paginate(opts);
      await Promise.all(
        page.page.map(async (d) => {
          await checkLinks(exists, problems, "performanceDays", { _id: d._id, userId: d.userId });
          const [rows, sets] = await Promise.all([
            ctx.db
              .query("performanceDays")
              .withIndex("by_user_and_date", (q) => q.eq("userId", d.userId).eq("date", d.date))
              .take(1000),
            ctx.db
              .query("performances")
              .withIndex("by_user_and_date", (q) => q.eq("userId", d.userId).eq("performanceDate", d.date))
              .take(1000),
          ]);
          if (rows[0]._id !== d._id) problems.push(`performanceDays: two rows for user ${d.userId} on ${d.date}`);
          else if (sets.length === 0)
            problems.push(`performanceDays: user ${d.userId} on ${d.date} has ${d.sets} but no sets`);
          else if (d.sets !== sets.length) {
            problems.push(`performanceDays: user ${d.userId} on ${d.date} has ${d.sets} but ${sets.length} set(s)`);
          }
        }),
      );
      tally.daySegments = segmentsOf(page.page);
      return done(page);
    }
    case "venueVisits": {
      const page = await ctx.db.query("venueVisits").withIndex("by_creation_time").paginate(opts);
      await Promise.all(
        page.page.map(async (vv) => {
          await checkLinks(exists, problems, "venueVisits", { _id: vv._id, userId: vv.userId, itemId: vv.sceneItemId });
          const rows = await ctx.db
            .query("venueVisits")
            .withIndex("by_user_and_item", (q) => q.eq("userId", vv.userId).eq("sceneItemId", vv.sceneItemId))
            .take(1000);
          if (rows[0]._id !== vv._id)
            problems.push(`venueVisits: two rows for user ${vv.userId} at mic ${vv.sceneItemId}`);
          else counters.add("visitRow", `${vv.userId}|${vv.sceneItemId}`, vv.sets);
        }),
      );
      return done(page);
    }
    case "userStats": {
      const page = await ctx.db.query("userStats").withIndex("by_creation_time").paginate(opts);
      await Promise.all(
        page.page.map(async (row) => {
          await checkLinks(exists, problems, "userStats", { _id: row._id, userId: row.userId });
          const rows = await ctx.db
            .query("userStats")
            .withIndex("by_userId", (q) => q.eq("userId", row.userId))
            .take(1000);
          if (rows[0]._id !== row._id) {
            problems.push(`userStats: two rows for user ${row.userId}`);
            return;
          }
          const { _id, _creationTime, ...fields } = row;
          tally.stats.push({ ...fields, userExists: await exists.user(row.userId) });
        }),
      );
      return done(page);
    }
    case "userBadges": {
      const known = new Set(BADGES.map((b) => b.code));
      const page = await ctx.db.query("userBadges").withIndex("by_creation_time").paginate(opts);
      await Promise.all(
        page.page.map(async (b) => {
          await checkLinks(exists, problems, "userBadges", { _id: b._id, userId: b.userId });
          if (!known.has(b.badgeCode)) problems.push(`userBadges ${b._id}: unknown badge ${b.badgeCode}`);
          const rows = await ctx.db
            .query("userBadges")
            .withIndex("by_user_and_code", (q) => q.eq("userId", b.userId).eq("badgeCode", b.badgeCode))
            .take(1000);
          if (rows[0]._id !== b._id) problems.push(`userBadges: user ${b.userId} holds ${b.badgeCode} twice`);
          else counters.add("badgeHeld", `${b.userId}|${b.badgeCode}`);
        }),
      );
      return done(page);
    }
    case "profiles": {
      const page = await ctx.db.query("profiles").withIndex("by_creation_time").paginate(opts);
      await Promise.all(
        page.page.map((p) => checkLinks(exists, problems, "profiles", { _id: p._id, userId: p.userId })),
      );
      if (page.page.length > 0) counters.add("profiles", "", page.page.length);
      return done(page);
    }
    case "cities": {
      const page = await ctx.db.query("cities").withIndex("by_creation_time").paginate(opts);
      await Promise.all(
        page.page.map(async (c) => {
          const rows = await ctx.db
            .query("cities")
            .withIndex("by_name", (q) => q.eq("name", c.name))
            .take(1000);
          if (rows[0]._id !== c._id) problems.push(`cities: two rows for ${JSON.stringify(c.name)}`);
          else tally.cities.push({ name: c.name, items: c.items });
        }),
      );
      return done(page);
    }
    case "communityTotals": {
      // Not a table: the counter's few shard rows per total, read in one page.
      tally.site = [await readCommunityTotals(ctx)];
      return done({ continueCursor: "", isDone: true, page: tally.site });
    }
  }
}

/** A verified item needs its expiry and two comedians among its check-ins of the 30 days up to lastVerifiedAt. */
async function checkVerification(ctx: QueryCtx, item: Doc<"sceneItems">, problems: string[]): Promise<void> {
  if (item.verifiedCheckIns30d <= 0) return;
  if (item.lastVerifiedAt === undefined) {
    problems.push(`sceneItems ${item._id}: verified without lastVerifiedAt`);
    return;
  }
  const at = item.lastVerifiedAt;
  if (item.verificationExpiresAt !== at + VERIFICATION_PERIOD_MS) {
    problems.push(`sceneItems ${item._id}: verified, but its expiry is not 30 days after lastVerifiedAt`);
  }
  const comedians = new Set<string>();
  // Stops as soon as enough comedians are found: a busy mic is not read whole.
  for await (const c of ctx.db.query("checkIns").withIndex("by_item_and_time", (q) =>
    q
      .eq("sceneItemId", item._id)
      .gt("checkedInAt", at - VERIFICATION_PERIOD_MS)
      .lte("checkedInAt", at),
  )) {
    comedians.add(c.userId);
    if (comedians.size >= VERIFY_MIN_COMEDIANS) return;
  }
  problems.push(
    `sceneItems ${item._id}: verified, but only ${comedians.size} comedian(s) checked in in the 30 days before lastVerifiedAt`,
  );
}

/** What the pages of every part added up to, gathered by {@link PagedCheck.add}. */
export class PagedCheck {
  readonly problems: string[] = [];
  readonly rows: Partial<Record<InvariantPart, number>> = {};
  private readonly counters = new Map<string, Map<string, number>>();
  private readonly segments = new Map<string, DaySegment>();
  private readonly stats: StatsFact[] = [];
  private readonly cities: Array<{ name: string; items: number }> = [];
  private readonly site: Tally["site"] = [];

  add(part: InvariantPart, page: InvariantPage): void {
    this.problems.push(...page.problems);
    this.rows[part] = (this.rows[part] ?? 0) + page.rows;
    for (const [counter, key, n] of page.tally.counters) {
      let m = this.counters.get(counter);
      if (!m) this.counters.set(counter, (m = new Map()));
      m.set(key, (m.get(key) ?? 0) + n);
    }
    for (const seg of page.tally.daySegments) {
      const before = this.segments.get(seg.userId);
      this.segments.set(seg.userId, before ? joinSegments(before, seg) : seg);
    }
    this.stats.push(...page.tally.stats);
    this.cities.push(...page.tally.cities);
    this.site.push(...page.tally.site);
  }

  private counter(name: string): Map<string, number> {
    return this.counters.get(name) ?? new Map();
  }

  /** The comparisons that need every page: counters, totals, streaks, badges, site figures. */
  finish(): InvariantReport {
    const problems = this.problems;

    // Check-in counters against the check-in rows (of existing mics).
    const stored = this.counter("storedCheckIns");
    const rowsPerItem = this.counter("checkInRows");
    for (const itemId of new Set([...stored.keys(), ...rowsPerItem.keys()])) {
      const count = stored.get(itemId) ?? 0;
      const rows = rowsPerItem.get(itemId) ?? 0;
      if (count !== rows) problems.push(`sceneItems ${itemId}: checkInCount ${count} but ${rows} check-in rows`);
    }

    // Sets on a day without a day row.
    for (const [key, n] of this.counter("setsWithoutDayRow")) {
      const [userId, date] = key.split("|");
      problems.push(`performanceDays: user ${userId} on ${date} has no row but ${n} set(s)`);
    }

    // Venue visits against the sets per comedian and mic.
    const setsAtMic = this.counter("setsAtMic");
    const visitRows = this.counter("visitRow");
    const micsPerUser = new Map<string, number>();
    for (const [key, n] of setsAtMic) {
      const [userId, itemId] = key.split("|");
      micsPerUser.set(userId, (micsPerUser.get(userId) ?? 0) + 1);
      const row = visitRows.get(key);
      if (row !== n)
        problems.push(`venueVisits: user ${userId} at mic ${itemId} has ${row ?? "no row"} but ${n} set(s)`);
    }
    for (const [key, row] of visitRows) {
      if (setsAtMic.has(key)) continue;
      const [userId, itemId] = key.split("|");
      problems.push(`venueVisits: user ${userId} at mic ${itemId} has ${row} but no sets`);
    }

    // Stats rows against the sets and day rows.
    const minutes = this.counter("setMinutes");
    const setCount = this.counter("setCount");
    const statsByUser = new Map(this.stats.map((s) => [s.userId as string, s]));
    for (const [userId, n] of setCount) {
      if (!statsByUser.has(userId)) problems.push(`userStats: user ${userId} has ${n} set(s) but no stats row`);
    }
    for (const row of this.stats) {
      const userId = row.userId as string;
      const sets = setCount.get(userId) ?? 0;
      const mins = minutes.get(userId) ?? 0;
      const mics = micsPerUser.get(userId) ?? 0;
      if (row.totalMinutes !== mins)
        problems.push(`userStats ${userId}: totalMinutes ${row.totalMinutes} but sets sum to ${mins}`);
      if (row.totalSets !== sets) problems.push(`userStats ${userId}: totalSets ${row.totalSets} but ${sets} set(s)`);
      if (row.uniqueVenues !== mics)
        problems.push(`userStats ${userId}: uniqueVenues ${row.uniqueVenues} but sets at ${mics} mic(s)`);
      const seg = this.segments.get(userId);
      const lastDate = seg?.last;
      if (row.lastSetDate !== lastDate && !(lastDate === undefined && sets === 0 && row.lastSetDate === undefined)) {
        problems.push(
          `userStats ${userId}: lastSetDate ${row.lastSetDate ?? "none"} but the last set day is ${lastDate ?? "none"}`,
        );
      }
      const longest = seg?.longest ?? 0;
      const current = seg?.tail ?? 0;
      if (row.longestStreak !== longest) {
        problems.push(`userStats ${userId}: longestStreak ${row.longestStreak} but the day rows give ${longest}`);
      }
      if (row.currentStreak !== 0 && row.currentStreak !== current) {
        problems.push(
          `userStats ${userId}: currentStreak ${row.currentStreak} but the run ending at the last set day is ${current}`,
        );
      }
    }

    // Badges: every met rule awarded (for comedians who exist).
    const bestMonth = new Map<string, number>();
    for (const [key, n] of this.counter("monthCheckIns")) {
      const userId = key.split("|")[0];
      bestMonth.set(userId, Math.max(bestMonth.get(userId) ?? 0, n));
    }
    const held = this.counter("badgeHeld");
    const existing = new Set(this.stats.filter((s) => s.userExists).map((s) => s.userId as string));
    for (const userId of new Set<string>([...existing, ...bestMonth.keys()])) {
      const row = statsByUser.get(userId);
      if (row !== undefined && !row.userExists) continue;
      const earned = earnedBadgeCodes({
        sets: row?.totalSets ?? 0,
        minutes: row?.totalMinutes ?? 0,
        uniqueVenues: row?.uniqueVenues ?? 0,
        venuesAdded: row?.venuesAdded ?? 0,
        monthCheckIns: bestMonth.get(userId) ?? 0,
        currentStreak: row?.currentStreak ?? 0,
        longestStreak: row?.longestStreak ?? 0,
      });
      for (const code of earned) {
        if (!held.has(`${userId}|${code}`))
          problems.push(`userBadges: user ${userId} meets the rule of ${code} but does not hold it`);
      }
    }

    // Site figures.
    const activePerCity = this.counter("activeInCity");
    const cityByName = new Map(this.cities.map((c) => [c.name, c]));
    for (const [name, n] of activePerCity) {
      const items = cityByName.get(name)?.items;
      if (items !== n)
        problems.push(`cities ${JSON.stringify(name)}: items ${items ?? "no row"} but ${n} active item(s)`);
    }
    for (const c of this.cities) {
      if (!activePerCity.has(c.name) && c.items !== 0)
        problems.push(`cities ${JSON.stringify(c.name)}: items ${c.items} but no active items`);
    }
    const totals = this.site[0] ?? { venues: 0, cities: 0, comedians: 0, minutesLogged: 0 };
    checkCommunityTotals(problems, totals, {
      venues: [...activePerCity.values()].reduce((a, b) => a + b, 0),
      cities: activePerCity.size,
      comedians: this.counter("profiles").get("") ?? 0,
      minutesLogged: this.counter("siteMinutes").get("") ?? 0,
    });
    return { ok: problems.length === 0, problems };
  }
}
