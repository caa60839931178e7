/**
 * A season in review (the folding rule is lib/season): one `seasonMonths` row
 * per comedian-month, kept by the set trigger (model/seasonTriggers), and the
 * comedian's public links (`seasonShares`). A season page reads the month
 * rows, the goal weeks and the bits' month rows of its period, never the sets.
 */
import { v, type Infer } from "convex/values";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { appError, ErrorCode } from "../errors";
import {
  assertPeriod,
  emptyMonth,
  foldSeason,
  moveSet,
  periodDates,
  type MonthFacts,
  type SeasonPeriod,
  type SeasonSet,
  type ShareField,
  SHARE_FIELDS,
} from "../lib/season";
import { addDaysToDate } from "../lib/time";
import { emptyWeekStreak, goalWeekStartOf, walkWeeks } from "../lib/weekStreaks";

/** Mics a season reads for names, cities and the map (the most visited first). */
export const SEASON_PLACES = 150;
/** Mics listed as "got up at most". */
export const TOP_MICS = 5;
/** Bits listed as "landed most". */
export const TOP_BITS = 5;
/** Cities listed by sets. */
export const TOP_CITIES = 10;
/** Most bit-month rows a season reads (a bit performed every month for ten years is 120). */
const BIT_MONTH_ROWS = 3_000;
/** Most goal weeks a season reads (ten years and a week either side). */
const SEASON_WEEKS = 530;
/** Public links one comedian may hold at once. */
export const MAX_SHARES = 5;

const place = v.object({
  micId: v.union(v.id("sceneItems"), v.null()),
  name: v.string(),
  city: v.union(v.string(), v.null()),
  sets: v.number(),
});

/** A season's numbers; a public link's answer carries only the chosen ones. */
export const seasonValidator = v.object({
  from: v.string(),
  to: v.string(),
  name: v.optional(v.string()),
  sets: v.optional(v.number()),
  minutes: v.optional(v.number()),
  distinctMics: v.optional(v.number()),
  distinctCities: v.optional(v.number()),
  longestDayStreak: v.optional(v.number()),
  longestWeekStreak: v.optional(v.number()),
  busiestMonth: v.optional(v.union(v.object({ month: v.string(), sets: v.number(), minutes: v.number() }), v.null())),
  topMics: v.optional(v.array(place)),
  cities: v.optional(v.array(v.object({ name: v.string(), sets: v.number() }))),
  map: v.optional(
    v.array(v.object({ name: v.string(), latitude: v.number(), longitude: v.number(), sets: v.number() })),
  ),
  bits: v.optional(v.array(v.object({ title: v.string(), landed: v.number(), performed: v.number() }))),
});
export type Season = Infer<typeof seasonValidator>;

async function monthRow(ctx: QueryCtx, userId: Id<"users">, month: string): Promise<Doc<"seasonMonths"> | null> {
  return await ctx.db
    .query("seasonMonths")
    .withIndex("by_user_and_month", (q) => q.eq("userId", userId).eq("month", month))
    .unique();
}

function factsOf(row: Doc<"seasonMonths">): MonthFacts {
  return {
    month: row.month,
    sets: row.sets,
    minutes: row.minutes,
    days: row.days,
    mics: row.mics,
    otherSets: row.otherSets,
  };
}

/** The facts of a set its month follows. */
export function seasonSetOf(set: Doc<"performances">): SeasonSet {
  return {
    minutes: set.minutes,
    performanceDate: set.performanceDate,
    ...(set.sceneItemId !== undefined ? { sceneItemId: set.sceneItemId } : {}),
    ...(set.venueName !== undefined ? { venueName: set.venueName } : {}),
  };
}

/** Adds (`sign` 1) or removes (-1) one set from its comedian's month row, deleting the row at 0 sets. */
export async function bumpSeasonMonth(
  ctx: MutationCtx,
  { userId, set, sign }: { userId: Id<"users">; set: SeasonSet; sign: 1 | -1 },
): Promise<void> {
  const month = set.performanceDate.slice(0, 7);
  const row = await monthRow(ctx, userId, month);
  const next = moveSet(row === null ? emptyMonth(month) : factsOf(row), set, sign);
  const stored = {
    sets: next.sets,
    minutes: next.minutes,
    days: next.days,
    mics: next.mics as Doc<"seasonMonths">["mics"],
    otherSets: next.otherSets,
  };
  if (row === null) {
    if (next.sets > 0) await ctx.db.insert("seasonMonths", { userId, month, ...stored });
  } else if (next.sets > 0) {
    await ctx.db.patch("seasonMonths", row._id, stored);
  } else {
    await ctx.db.delete("seasonMonths", row._id);
  }
}

/** Most sets one comedian's backfill reads. */
const BACKFILL_SETS_LIMIT = 8_000;

/** Builds a comedian's month rows from their sets when they have none. Returns whether it wrote anything. */
export async function backfillSeason(ctx: MutationCtx, userId: Id<"users">): Promise<boolean> {
  const existing = await ctx.db
    .query("seasonMonths")
    .withIndex("by_user_and_month", (q) => q.eq("userId", userId))
    .first();
  if (existing !== null) return false;
  const sets = await ctx.db
    .query("performances")
    .withIndex("by_user_and_performedAt", (q) => q.eq("userId", userId))
    .take(BACKFILL_SETS_LIMIT);
  if (sets.length === 0) return false;
  const months = new Map<string, MonthFacts>();
  for (const set of sets) {
    const month = set.performanceDate.slice(0, 7);
    months.set(month, moveSet(months.get(month) ?? emptyMonth(month), seasonSetOf(set), 1));
  }
  for (const m of months.values()) {
    await ctx.db.insert("seasonMonths", {
      userId,
      month: m.month,
      sets: m.sets,
      minutes: m.minutes,
      days: m.days,
      mics: m.mics as Doc<"seasonMonths">["mics"],
      otherSets: m.otherSets,
    });
  }
  return true;
}

/** Longest run of goal weeks met inside the period, the week in progress counted once met. */
async function longestWeekStreak(
  ctx: QueryCtx,
  userId: Id<"users">,
  period: SeasonPeriod,
  today: string,
): Promise<number> {
  const { firstDate, lastDate } = periodDates(period);
  const firstWeek = goalWeekStartOf(firstDate);
  const lastWeek = goalWeekStartOf(lastDate);
  const thisWeek = goalWeekStartOf(today);
  const weeks = await ctx.db
    .query("performanceWeeks")
    .withIndex("by_user_and_week", (q) => q.eq("userId", userId).gte("weekStart", firstWeek).lte("weekStart", lastWeek))
    .take(SEASON_WEEKS);
  const untilWeek = thisWeek < addDaysToDate(lastWeek, 7) ? thisWeek : addDaysToDate(lastWeek, 7);
  const walked = untilWeek > firstWeek ? walkWeeks(emptyWeekStreak(firstWeek), weeks, untilWeek) : null;
  let longest = walked?.longest ?? 0;
  const open = weeks.find((w) => w.weekStart === thisWeek);
  if (open !== undefined && open.goal > 0 && open.minutes >= open.goal) {
    longest = Math.max(longest, (walked?.run ?? 0) + 1);
  }
  return longest;
}

/** The bits whose ratings in the period landed most. */
async function bitsThatLanded(ctx: QueryCtx, userId: Id<"users">, period: SeasonPeriod) {
  const rows = await ctx.db
    .query("bitMonths")
    .withIndex("by_user_and_month", (q) => q.eq("userId", userId).gte("month", period.from).lte("month", period.to))
    .take(BIT_MONTH_ROWS);
  const byBit = new Map<Id<"bits">, { landed: number; performed: number }>();
  for (const row of rows) {
    const seen = byBit.get(row.bitId) ?? { landed: 0, performed: 0 };
    byBit.set(row.bitId, { landed: seen.landed + row.landed, performed: seen.performed + row.performed });
  }
  const top = [...byBit.entries()]
    .filter(([, n]) => n.landed > 0)
    .sort(([, a], [, b]) => b.landed - a.landed || b.landed / b.performed - a.landed / a.performed)
    .slice(0, TOP_BITS);
  const named = await Promise.all(
    top.map(async ([bitId, n]) => {
      const bit = await ctx.db.get("bits", bitId);
      return bit === null ? null : { title: bit.title, ...n };
    }),
  );
  return named.filter((b) => b !== null);
}

/**
 * A comedian's season over `period` (whole months), as of their local
 * `today`. Reads one row per month with sets, the period's goal weeks, the
 * bits' month rows and the most visited mics, however many sets it holds.
 */
export async function readSeason(
  ctx: QueryCtx,
  userId: Id<"users">,
  { period, today }: { period: SeasonPeriod; today: string },
): Promise<Required<Season>> {
  assertPeriod(period);
  const [rows, profile] = await Promise.all([
    ctx.db
      .query("seasonMonths")
      .withIndex("by_user_and_month", (q) => q.eq("userId", userId).gte("month", period.from).lte("month", period.to))
      .take(200),
    ctx.db
      .query("profiles")
      .withIndex("by_userId", (q) => q.eq("userId", userId))
      .unique(),
  ]);
  const totals = foldSeason(rows.map(factsOf), period);
  const visited = totals.mics.slice(0, SEASON_PLACES);
  const docs = await Promise.all(
    visited.map(async (m) =>
      m.sceneItemId !== undefined ? await ctx.db.get("sceneItems", m.sceneItemId as Id<"sceneItems">) : null,
    ),
  );
  const places = visited.map((m, i) => ({ mic: m, doc: docs[i] }));
  const cities = new Map<string, { name: string; sets: number }>();
  for (const { mic, doc } of places) {
    const city = doc?.city.trim();
    if (!city) continue;
    const key = city.toLowerCase();
    cities.set(key, { name: cities.get(key)?.name ?? city, sets: (cities.get(key)?.sets ?? 0) + mic.sets });
  }
  const [weekStreak, bits] = await Promise.all([
    longestWeekStreak(ctx, userId, period, today),
    bitsThatLanded(ctx, userId, period),
  ]);
  return {
    from: period.from,
    to: period.to,
    name: profile?.displayName ?? "",
    sets: totals.sets,
    minutes: totals.minutes,
    distinctMics: totals.mics.length,
    distinctCities: cities.size,
    longestDayStreak: totals.longestDayStreak,
    longestWeekStreak: weekStreak,
    busiestMonth: totals.busiestMonth,
    topMics: places.slice(0, TOP_MICS).map(({ mic, doc }) => ({
      micId: doc?._id ?? null,
      name: doc?.title ?? mic.venueName ?? "A mic no longer listed",
      city: doc?.city ?? null,
      sets: mic.sets,
    })),
    cities: [...cities.values()].sort((a, b) => b.sets - a.sets || a.name.localeCompare(b.name)).slice(0, TOP_CITIES),
    map: places.flatMap(({ mic, doc }) =>
      doc?.latitude !== undefined && doc.longitude !== undefined
        ? [{ name: doc.title, latitude: doc.latitude, longitude: doc.longitude, sets: mic.sets }]
        : [],
    ),
    bits,
  };
}

/** Which season fields each share choice reveals. */
const FIELD_KEYS: Record<ShareField, (keyof Season)[]> = {
  name: ["name"],
  sets: ["sets"],
  minutes: ["minutes"],
  mics: ["distinctMics"],
  cities: ["distinctCities", "cities"],
  streaks: ["longestDayStreak", "longestWeekStreak"],
  busiestMonth: ["busiestMonth"],
  topMics: ["topMics"],
  map: ["map"],
  bits: ["bits"],
};

/** The season with only the chosen fields (and its months). */
export function onlyChosen(season: Required<Season>, fields: readonly ShareField[]): Season {
  const shown: Season = { from: season.from, to: season.to };
  for (const field of fields) {
    for (const key of FIELD_KEYS[field]) Object.assign(shown, { [key]: season[key] });
  }
  return shown;
}

export const shareValidator = v.object({
  id: v.id("seasonShares"),
  token: v.string(),
  from: v.string(),
  to: v.string(),
  fields: v.array(v.union(...SHARE_FIELDS.map((f) => v.literal(f)))),
});

/** The comedian's public links, oldest first. */
export async function myShares(ctx: QueryCtx, userId: Id<"users">): Promise<Infer<typeof shareValidator>[]> {
  const rows = await ctx.db
    .query("seasonShares")
    .withIndex("by_userId", (q) => q.eq("userId", userId))
    .take(MAX_SHARES);
  return rows.map((r) => ({ id: r._id, token: r.token, from: r.from, to: r.to, fields: r.fields }));
}

/** 32 random bytes, base64url: a link nobody can guess. */
function newToken(): string {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Makes a public link to the period showing `fields` (at least one). */
export async function createShare(
  ctx: MutationCtx,
  userId: Id<"users">,
  { from, to, fields }: { from: string; to: string; fields: ShareField[] },
): Promise<{ id: Id<"seasonShares">; token: string }> {
  assertPeriod({ from, to });
  const chosen = SHARE_FIELDS.filter((f) => fields.includes(f));
  if (chosen.length === 0) throw appError(ErrorCode.INVALID_INPUT, "Choose at least one number to show.");
  const existing = await ctx.db
    .query("seasonShares")
    .withIndex("by_userId", (q) => q.eq("userId", userId))
    .take(MAX_SHARES);
  if (existing.length >= MAX_SHARES) {
    throw appError(ErrorCode.INVALID_INPUT, `You can have ${MAX_SHARES} public links at once. Revoke one first.`);
  }
  const token = newToken();
  const id = await ctx.db.insert("seasonShares", { userId, token, from, to, fields: chosen });
  return { id, token };
}

/** Deletes one of the comedian's links: it stops working at once. */
export async function revokeShare(ctx: MutationCtx, userId: Id<"users">, id: Id<"seasonShares">): Promise<void> {
  const row = await ctx.db.get("seasonShares", id);
  if (row === null || row.userId !== userId) throw appError(ErrorCode.NOT_FOUND, "That link no longer exists.");
  await ctx.db.delete("seasonShares", id);
}

/** The link's row, or null for a token nobody holds. */
export async function shareByToken(ctx: QueryCtx, token: string): Promise<Doc<"seasonShares"> | null> {
  return await ctx.db
    .query("seasonShares")
    .withIndex("by_token", (q) => q.eq("token", token))
    .unique();
}
