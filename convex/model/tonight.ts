/**
 * Tonight: the mics and shows whose night falls on the viewer's today in each
 * mic's own time zone and has not ended, in start order, cancelled nights last.
 *
 * It reads one weekday at a time through an index, so its cost follows
 * tonight's mics where the viewer looks, not the national total:
 * - around a point: `by_status_and_day_and_geohash`, the circle's covering
 *   geohash cells for each candidate weekday;
 * - without a point: `by_status_and_day_and_timeZone`, the viewer's time
 *   zone on today's weekday from two hours before now (no night lasts longer
 *   than start + 60 min + a 60-minute set) and, past midnight, yesterday's late
 *   starts, in local start order.
 * Both stop at {@link MAX_TONIGHT_ROWS_READ} rows; `limit` (at most
 * {@link MAX_TONIGHT_LIMIT}) is the page: "Show more" asks again with a larger one.
 */
import { TZDate } from "@date-fns/tz";
import { v, type Infer } from "convex/values";
import type { Doc } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";
import { appError, ErrorCode } from "../errors";
import { haversineMeters, METERS_PER_MILE } from "../lib/geo";
import { matchesEveryTerm, searchTerms } from "../lib/sceneSearch";
import {
  MAX_NOW_MS,
  MIN_NOW_MS,
  nightStatus,
  tonightNight,
  tomorrowNight,
  TIME_OF_DAY_RANGES,
  type Night,
  type NightStatus,
} from "../lib/tonight";
import {
  addDaysToDate,
  dayOfWeekOfDate,
  HOUR_MS,
  isValidTimeZone,
  localDateString,
  minusMinutesHHMM,
} from "../lib/time";
import { matchesPlanFilters, planFiltersValidator, type PlanFilters } from "./planFilters";
import { sceneItemValidator, SCENE_SEARCH_MAX_LENGTH, sceneTypeFilter, toSceneItem } from "./scene";
import { assertArea, coveringCells } from "./sceneArea";

/** Most nights one answer holds. */
export const MAX_TONIGHT_LIMIT = 100;
/** Most index rows one answer reads (all read paths together). */
export const MAX_TONIGHT_ROWS_READ = 2000;
/** How many of tomorrow's first nights are shown when nothing is on tonight. */
export const TOMORROW_COUNT = 5;
/** Longest time zone name accepted. */
const MAX_TIME_ZONE_LENGTH = 64;

export { NO_PLAN_FILTERS, planFiltersValidator, type PlanFilters } from "./planFilters";

export const tonightArgsValidator = {
  /** The viewer's clock (rounded to the minute by the app): queries never read the clock. */
  nowMs: v.number(),
  /** The viewer's IANA time zone: without an area, Tonight covers this zone. */
  timeZone: v.string(),
  area: v.optional(v.object({ lat: v.number(), lng: v.number(), radiusMiles: v.number() })),
  type: sceneTypeFilter,
  search: v.string(),
  filters: planFiltersValidator,
  limit: v.number(),
};
type TonightArgs = {
  nowMs: number;
  timeZone: string;
  area?: { lat: number; lng: number; radiusMiles: number };
  type: Infer<typeof sceneTypeFilter>;
  search: string;
  filters: PlanFilters;
  limit: number;
};

const nightValidator = v.object({
  item: sceneItemValidator,
  /** The night's local date in the mic's time zone. */
  date: v.string(),
  startMs: v.number(),
  endMs: v.number(),
  status: v.union(v.literal("cancelled"), v.literal("confirmed"), v.null()),
  /** Miles from the area's centre, when an area was given. */
  distanceMiles: v.union(v.number(), v.null()),
});
export type TonightNight = Infer<typeof nightValidator>;

export const tonightValidator = v.object({
  nights: v.array(nightValidator),
  /** False when more nights match than `limit` (or the read bound stopped the read). */
  isDone: v.boolean(),
  /** When nothing is on tonight: tomorrow's first nights (else empty). */
  tomorrow: v.array(nightValidator),
});
export type Tonight = Infer<typeof tonightValidator>;

function invalid(message: string): never {
  throw appError(ErrorCode.INVALID_INPUT, message);
}

function checkArgs(args: TonightArgs): void {
  if (!Number.isFinite(args.nowMs) || args.nowMs < MIN_NOW_MS || args.nowMs > MAX_NOW_MS)
    invalid("The time is not valid");
  if (args.timeZone.length > MAX_TIME_ZONE_LENGTH || !isValidTimeZone(args.timeZone)) invalid("Unknown time zone");
  if (!Number.isInteger(args.limit) || args.limit < 1 || args.limit > MAX_TONIGHT_LIMIT) {
    invalid(`Limit must be 1 to ${MAX_TONIGHT_LIMIT}`);
  }
  if (args.search.trim().length > SCENE_SEARCH_MAX_LENGTH) {
    invalid(`Search is too long (at most ${SCENE_SEARCH_MAX_LENGTH} characters).`);
  }
  if (args.area) assertArea(args.area);
}

/** Orders nights: cancelled last, then by start, then by title. */
export function compareNights(a: TonightNight, b: TonightNight): number {
  return (
    Number(a.status === "cancelled") - Number(b.status === "cancelled") ||
    a.startMs - b.startMs ||
    a.item.title.localeCompare(b.item.title)
  );
}

type Matcher = (doc: Doc<"sceneItems">) => { night: Night; distanceMiles: number | null } | null;

/** The per-row test shared by both read paths: type, search, plan filters, the area, and the night itself. */
function matcher(args: TonightArgs, which: "tonight" | "tomorrow"): Matcher {
  const terms = searchTerms(args.search.trim());
  const center = args.area ? { lat: args.area.lat, lng: args.area.lng } : null;
  const radiusMeters = args.area ? args.area.radiusMiles * METERS_PER_MILE : 0;
  return (doc) => {
    if (doc.status !== "active") return null;
    if (args.type === "open_mic" && doc.type !== "open_mic") return null;
    if (args.type === "show" && doc.type === "open_mic") return null;
    if (terms.length > 0 && !matchesEveryTerm(doc.searchText, terms)) return null;
    if (!matchesPlanFilters(doc, args.filters, args.nowMs)) return null;
    let distanceMiles: number | null = null;
    if (center) {
      if (doc.latitude === undefined || doc.longitude === undefined) return null;
      const meters = haversineMeters(center, { lat: doc.latitude, lng: doc.longitude });
      if (meters > radiusMeters) return null;
      distanceMiles = meters / METERS_PER_MILE;
    }
    const night = which === "tonight" ? tonightNight(doc, args.nowMs) : tomorrowNight(doc, args.nowMs);
    return night ? { night, distanceMiles } : null;
  };
}

function toNight(doc: Doc<"sceneItems">, night: Night, distanceMiles: number | null): TonightNight {
  const status: NightStatus = nightStatus(doc, night.date);
  return { item: toSceneItem(doc), ...night, status, distanceMiles };
}

/** Weekdays (0 = Sunday) that can hold a mic's today or a still-running yesterday
 * near the viewer: the viewer's local dates from 5 hours before to 3 hours after now
 * (neighbouring time zones, and nights running past midnight). */
function candidateWeekdays(nowMs: number, timeZone: string): number[] {
  const days = new Set<number>();
  for (const hours of [-5, -3, 0, 3]) {
    days.add(dayOfWeekOfDate(localDateString(nowMs + hours * HOUR_MS, timeZone)));
  }
  return [...days];
}

type Collected = { found: TonightNight[]; truncated: boolean };

/** Tonight (or tomorrow) around a point: every candidate weekday's rows in the covering cells. */
async function collectArea(
  ctx: QueryCtx,
  args: TonightArgs & { area: NonNullable<TonightArgs["area"]> },
  weekdays: number[],
  match: Matcher,
): Promise<Collected> {
  const cells = coveringCells(args.area.lat, args.area.lng, args.area.radiusMiles * METERS_PER_MILE);
  const found: TonightNight[] = [];
  let rowsLeft = MAX_TONIGHT_ROWS_READ;
  for (const day of weekdays) {
    for (const prefix of cells) {
      if (rowsLeft <= 0) return { found, truncated: true };
      const rows = await ctx.db
        .query("sceneItems")
        .withIndex("by_status_and_day_and_geohash", (q) =>
          q.eq("status", "active").eq("dayOfWeek", day).gte("geohash", prefix).lt("geohash", `${prefix}~`),
        )
        .take(rowsLeft + 1);
      if (rows.length > rowsLeft) return { found, truncated: true };
      rowsLeft -= rows.length;
      for (const doc of rows) {
        const hit = match(doc);
        if (hit) found.push(toNight(doc, hit.night, hit.distanceMiles));
      }
    }
  }
  return { found, truncated: false };
}

/**
 * One weekday of the viewer's time zone in local start order from `from`
 * (inclusive) to `to` (exclusive), until `want` rows match or the read bound.
 */
async function collectZoneDay(
  ctx: QueryCtx,
  timeZone: string,
  day: number,
  range: { from: string; to: string },
  want: number,
  budget: { rowsLeft: number },
  match: Matcher,
  found: TonightNight[],
): Promise<boolean> {
  if (range.from >= range.to) return false;
  const query = ctx.db
    .query("sceneItems")
    .withIndex("by_status_and_day_and_timeZone", (q) =>
      q
        .eq("status", "active")
        .eq("dayOfWeek", day)
        .eq("timeZone", timeZone)
        .gte("startTimeLocal", range.from)
        .lt("startTimeLocal", range.to),
    );
  let matched = 0;
  for await (const doc of query) {
    if (budget.rowsLeft <= 0) return true;
    budget.rowsLeft--;
    const hit = match(doc);
    if (!hit) continue;
    found.push(toNight(doc, hit.night, hit.distanceMiles));
    if (++matched >= want) return true;
  }
  return false;
}

/** The time-of-day filter's start-time range, intersected with `range`. */
function clampToTimeOfDay(range: { from: string; to: string }, filters: PlanFilters): { from: string; to: string } {
  if (filters.timeOfDay === "any") return range;
  const tod = TIME_OF_DAY_RANGES[filters.timeOfDay];
  return { from: range.from > tod.from ? range.from : tod.from, to: range.to < tod.to ? range.to : tod.to };
}

/** Local "HH:MM" of the instant in the zone. */
function localHHMM(nowMs: number, timeZone: string): string {
  const d = new TZDate(nowMs, timeZone);
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
}

/** Longest a night runs after its start: 60 minutes plus a set of at most 60. */
const LONGEST_NIGHT_MIN = 120;

/** Tonight in the viewer's time zone: yesterday's late starts still running, then today's from two hours ago. */
async function collectZoneTonight(ctx: QueryCtx, args: TonightArgs, want: number, match: Matcher): Promise<Collected> {
  const found: TonightNight[] = [];
  const budget = { rowsLeft: MAX_TONIGHT_ROWS_READ };
  const today = localDateString(args.nowMs, args.timeZone);
  const now = localHHMM(args.nowMs, args.timeZone);
  const yesterdayDay = dayOfWeekOfDate(addDaysToDate(today, -1));
  const todayDay = dayOfWeekOfDate(today);
  // Before 02:00 a night from yesterday can still be running: its start is within the last 120 minutes.
  const earliest = minusMinutesHHMM(now, LONGEST_NIGHT_MIN);
  const wraps = earliest > now;
  let truncated = false;
  if (wraps) {
    const range = clampToTimeOfDay({ from: earliest, to: "24:00" }, args.filters);
    truncated = await collectZoneDay(ctx, args.timeZone, yesterdayDay, range, want, budget, match, found);
  }
  if (!truncated && found.length < want) {
    const range = clampToTimeOfDay({ from: wraps ? "00:00" : earliest, to: "24:00" }, args.filters);
    truncated = await collectZoneDay(ctx, args.timeZone, todayDay, range, want - found.length, budget, match, found);
  }
  return { found, truncated };
}

/** Tomorrow's first nights in the viewer's time zone. */
async function collectZoneTomorrow(ctx: QueryCtx, args: TonightArgs, match: Matcher): Promise<TonightNight[]> {
  const found: TonightNight[] = [];
  const tomorrowDay = dayOfWeekOfDate(addDaysToDate(localDateString(args.nowMs, args.timeZone), 1));
  const range = clampToTimeOfDay({ from: "00:00", to: "24:00" }, args.filters);
  await collectZoneDay(
    ctx,
    args.timeZone,
    tomorrowDay,
    range,
    TOMORROW_COUNT,
    { rowsLeft: MAX_TONIGHT_ROWS_READ },
    match,
    found,
  );
  return found;
}

/** What is on tonight (see the module comment); tomorrow's first nights when nothing is. */
export async function tonight(ctx: QueryCtx, args: TonightArgs): Promise<Tonight> {
  checkArgs(args);
  const tonightMatch = matcher(args, "tonight");
  let collected: Collected;
  if (args.area) {
    const area = args.area;
    collected = await collectArea(ctx, { ...args, area }, candidateWeekdays(args.nowMs, args.timeZone), tonightMatch);
  } else {
    collected = await collectZoneTonight(ctx, args, args.limit + 1, tonightMatch);
  }
  const sorted = collected.found.sort(compareNights);
  const nights = sorted.slice(0, args.limit);
  const isDone = !collected.truncated && sorted.length <= args.limit;
  let tomorrow: TonightNight[] = [];
  if (sorted.length === 0) {
    const tomorrowMatch = matcher(args, "tomorrow");
    if (args.area) {
      const area = args.area;
      const days = candidateWeekdays(args.nowMs + 24 * HOUR_MS, args.timeZone);
      const next = await collectArea(ctx, { ...args, area }, days, tomorrowMatch);
      tomorrow = next.found.sort(compareNights).slice(0, TOMORROW_COUNT);
    } else {
      tomorrow = (await collectZoneTomorrow(ctx, args, tomorrowMatch)).sort(compareNights);
    }
  }
  return { nights, isDone, tomorrow };
}
