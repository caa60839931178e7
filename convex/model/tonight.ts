/** Tonight's nights in start order, cancelled last, a page at a time from per-zone sources (README.md). */
import { paginationResultValidator, type PaginationOptions, type PaginationResult } from "convex/server";
import { v } from "convex/values";
import type { QueryCtx } from "../_generated/server";
import { assertMaxLength, assertNoControlCharacters, invalid } from "../lib/textRules";
import { MAX_DEFAULT_CITY_LENGTH } from "../lib/profileRules";
import { cursorObject, invalidCursor, pageResult } from "../lib/pageCursor";
import { MAX_NOW_MS, MIN_NOW_MS } from "../lib/tonight";
import { isPlacelessTimeZone, isValidTimeZone } from "../lib/time";
import { planFiltersValidator } from "./planFilters";
import { SCENE_SEARCH_MAX_LENGTH, sceneTypeFilter } from "./scene";
import { assertArea } from "./sceneArea";
import {
  compareKeys,
  keyOfNight,
  merge,
  nightOf,
  nightValidator,
  sources,
  type BaseArgs,
  type Budget,
  type Key,
  type TonightNight,
} from "./tonightSources";

export type { BaseArgs, TonightNight } from "./tonightSources";

/** Most nights one page holds. */
export const MAX_TONIGHT_PAGE = 100;
/** Most index rows one page reads (both phases together). */
export const MAX_TONIGHT_ROWS_READ = 2000;
/** How many of tomorrow's first nights are shown when nothing is on tonight. */
export const TOMORROW_COUNT = 5;
/** Longest time zone name accepted. */
const MAX_TIME_ZONE_LENGTH = 64;

export { NO_PLAN_FILTERS, planFiltersValidator, type PlanFilters } from "./planFilters";

const baseArgs = {
  /** The viewer's clock (rounded by the app): queries never read the clock. */
  nowMs: v.number(),
  /** The viewer's IANA time zone: without an area, Tonight covers this zone. */
  timeZone: v.string(),
  area: v.optional(v.object({ lat: v.number(), lng: v.number(), radiusMiles: v.number() })),
  type: sceneTypeFilter,
  search: v.string(),
  filters: planFiltersValidator,
};
/** Arguments of the tomorrow query (Tonight's without the page). */
export const tomorrowArgsValidator = baseArgs;
type TonightArgs = BaseArgs & { paginationOpts: PaginationOptions };

export const tonightPageValidator = paginationResultValidator(nightValidator);
export const tomorrowValidator = v.array(nightValidator);

function checkArgs(args: BaseArgs): void {
  if (!Number.isFinite(args.nowMs) || args.nowMs < MIN_NOW_MS || args.nowMs > MAX_NOW_MS)
    invalid("The time is not valid");
  if (args.timeZone.length > MAX_TIME_ZONE_LENGTH || !isValidTimeZone(args.timeZone)) invalid("Unknown time zone");
  if (args.search.trim().length > SCENE_SEARCH_MAX_LENGTH) {
    invalid(`Search is too long (at most ${SCENE_SEARCH_MAX_LENGTH} characters).`);
  }
  assertNoControlCharacters(args.search.trim(), { label: "Search" });
  if (args.area) assertArea(args.area);
}

/** Orders nights: cancelled last, then by start, then by creation (the order pages follow). */
export function compareNights(a: TonightNight, b: TonightNight): number {
  return (
    Number(a.status === "cancelled") - Number(b.status === "cancelled") || compareKeys(keyOfNight(a), keyOfNight(b))
  );
}

/** A position in Tonight: a phase (0 nights on, 1 cancelled nights, 2 the end) and the last key read in it. */
type Position = { phase: 0 | 1 | 2; key: Key | null };
const CURSOR_VERSION = 1;
const INVALID_CURSOR = "This page cursor is not valid for Tonight; reload the list";

function serializePosition(p: Position): string {
  return JSON.stringify({ v: CURSOR_VERSION, phase: p.phase, key: p.key });
}

/** Reads a cursor made by {@link serializePosition}; anything else is an INVALID_INPUT error
 * that Convex's pagination hooks recognise (`InvalidCursor`), so the list starts again. */
function parsePosition(cursor: string): Position {
  const refuse = (): never => invalidCursor(INVALID_CURSOR);
  const parsed = cursorObject(cursor, INVALID_CURSOR);
  const { v: version, phase, key } = parsed;
  if (version !== CURSOR_VERSION || (phase !== 0 && phase !== 1 && phase !== 2)) return refuse();
  if (key === null) return { phase, key: null };
  if (
    phase === 2 ||
    !Array.isArray(key) ||
    key.length !== 4 ||
    typeof key[0] !== "number" ||
    !Number.isFinite(key[0]) ||
    typeof key[1] !== "string" ||
    key[1].length > 8 ||
    typeof key[2] !== "number" ||
    !Number.isFinite(key[2]) ||
    typeof key[3] !== "string" ||
    key[3].length > 64
  ) {
    return refuse();
  }
  return { phase, key: key as Key };
}

function comparePositions(a: Position, b: Position): number {
  if (a.phase !== b.phase) return a.phase - b.phase;
  if (a.key === null || b.key === null) return (a.key === null ? 0 : 1) - (b.key === null ? 0 : 1);
  return compareKeys(a.key, b.key);
}

/**
 * One page of tonight (see the module comment): at most `numItems` (1 to
 * {@link MAX_TONIGHT_PAGE}) nights in start order, cancelled ones after all
 * the others.
 */
export async function tonightPage(ctx: QueryCtx, args: TonightArgs): Promise<PaginationResult<TonightNight>> {
  checkArgs(args);
  if (!Number.isFinite(args.paginationOpts.numItems) || args.paginationOpts.numItems > MAX_TONIGHT_PAGE) {
    invalid(`Limit: at most ${MAX_TONIGHT_PAGE} nights a page`);
  }
  const numItems = Math.min(MAX_TONIGHT_PAGE, Math.max(1, Math.floor(args.paginationOpts.numItems)));
  const { cursor, endCursor } = args.paginationOpts;
  const start: Position = cursor === null ? { phase: 0, key: null } : parsePosition(cursor);
  const end = typeof endCursor === "string" ? parsePosition(endCursor) : null;
  if (end && comparePositions(end, start) < 0) {
    invalidCursor(INVALID_CURSOR);
  }
  const sourceList = start.phase === 2 ? [] : await sources(ctx, args, "tonight");
  const night = nightOf(args, "tonight");
  const budget: Budget = { rowsLeft: MAX_TONIGHT_ROWS_READ };
  const page: TonightNight[] = [];
  let position = start;
  let outOfRows = false;
  while (position.phase < 2) {
    const phase = position.phase;
    if (end && end.phase < phase) break;
    const endKey = end && end.phase === phase ? end.key : null;
    if (end && end.phase === phase && endKey === null) break;
    const result = await merge(ctx, sourceList, {
      after: position.key,
      end: endKey,
      // With an end, the end decides.
      limit: end ? Infinity : numItems - page.length,
      want: phase === 0 ? "on" : "cancelled",
      night,
      budget,
      out: page,
    });
    if (result.exhausted) {
      position = { phase: phase === 0 ? 1 : 2, key: null };
      continue;
    }
    position = { phase, key: result.last ?? position.key };
    if (endKey !== null && !result.outOfRows) position = { phase, key: endKey };
    outOfRows = result.outOfRows;
    break;
  }
  return pageResult(page, {
    cursor: serializePosition(position),
    endCursor,
    stopped: outOfRows,
    isDone: (end ?? position).phase === 2,
  });
}

/** Tomorrow's first nights (at most {@link TOMORROW_COUNT}), for when nothing is on tonight. */
export async function tomorrowNights(ctx: QueryCtx, args: BaseArgs): Promise<TonightNight[]> {
  checkArgs(args);
  const out: TonightNight[] = [];
  await merge(ctx, await sources(ctx, args, "tomorrow"), {
    after: null,
    end: null,
    limit: TOMORROW_COUNT,
    want: "any",
    night: nightOf(args, "tomorrow"),
    budget: { rowsLeft: MAX_TONIGHT_ROWS_READ },
    out,
  });
  return out.sort(compareNights);
}

/** How many search matches {@link cityTimeZone} looks through. */
export const CITY_ZONE_MATCHES = 50;

const cityKey = (text: string) => text.trim().toLowerCase().replace(/\s+/g, " ");

/**
 * The time zone of a city's active mics (the most common among those whose
 * city is `city`, case and spacing aside), from the scene's search index;
 * null for a blank city or one with no mic. Tonight without a location asks
 * it for a signed-in comedian's default city.
 */
export async function cityTimeZone(ctx: QueryCtx, city: string): Promise<string | null> {
  assertMaxLength(city, { label: "City", max: MAX_DEFAULT_CITY_LENGTH });
  const key = cityKey(city);
  if (key === "") return null;
  const matches = await ctx.db
    .query("sceneItems")
    .withSearchIndex("search_text", (q) => q.search("searchText", key).eq("status", "active"))
    .take(CITY_ZONE_MATCHES);
  const counts = new Map<string, number>();
  for (const item of matches) {
    // A mic saved from a browser on UTC keeps UTC, not its city's zone: it does not decide the city's.
    if (cityKey(item.city) !== key || !isValidTimeZone(item.timeZone) || isPlacelessTimeZone(item.timeZone)) continue;
    counts.set(item.timeZone, (counts.get(item.timeZone) ?? 0) + 1);
  }
  let best: string | null = null;
  for (const [zone, count] of counts) if (best === null || count > counts.get(best)!) best = zone;
  return best;
}
