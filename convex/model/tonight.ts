/**
 * Tonight: the mics and shows whose night falls on the viewer's today in each
 * mic's own time zone and has not ended, in start order, cancelled nights last,
 * a page at a time.
 *
 * Its cost follows the page, not the national total nor the area's: the nights
 * come from "sources", each one weekday in one time zone (and, around a point,
 * one covering area cell) read through an index in local start order, which
 * for one night's date and zone is the order of the real instants. The sources
 * are merged by (start instant, creation time, id), so a page reads its own
 * rows plus one row ahead per source:
 * - around a point: `by_status_and_day_and_areaCell`, the circle's covering
 *   precision-4 cells on the candidate weekdays, each cell's time zones found
 *   by skipping from one to the next (one row each);
 * - without a point: `by_status_and_day_and_timeZone`, the viewer's time zone
 *   on today's weekday from two hours before now (no night lasts longer than
 *   start + 60 min + a 60-minute set) and, past midnight, yesterday's late
 *   starts.
 * The cursor is our own JSON (`{v, phase, key}`): phase 0 walks the nights that
 * are not cancelled, phase 1 walks the sources again for the cancelled ones
 * (cancelled nights are few, but finding them reads that phase's sources),
 * phase 2 is the end. A page reads at most {@link MAX_TONIGHT_ROWS_READ} rows;
 * when that bound stops it, it comes back short with `isDone: false`. With
 * `endCursor` (pages pinned by the client) it ends exactly there.
 */
import { TZDate } from "@date-fns/tz";
import { paginationResultValidator, type PaginationOptions, type PaginationResult } from "convex/server";
import { v, type Infer } from "convex/values";
import type { Doc } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";
import { appError, ErrorCode } from "../errors";
import { cursorObject, invalidCursor } from "../lib/pageCursor";
import { haversineMeters, METERS_PER_MILE } from "../lib/geo";
import { matchesEveryTerm, searchTerms } from "../lib/sceneSearch";
import {
  MAX_NOW_MS,
  MIN_NOW_MS,
  nightOn,
  nightStatus,
  normalizedHHMM,
  TIME_OF_DAY_RANGES,
  type NightStatus,
} from "../lib/tonight";
import {
  addDaysToDate,
  DAY_MS,
  dayOfWeekOfDate,
  DEFAULT_TIME_ZONE,
  HOUR_MS,
  isValidTimeZone,
  localDateString,
  minusMinutesHHMM,
  parseHHMM,
  zonedEpoch,
} from "../lib/time";
import { matchesPlanFilters, planFiltersValidator, type PlanFilters } from "./planFilters";
import { AREA_CELL_PRECISION } from "./micTriggers";
import { sceneItemValidator, SCENE_SEARCH_MAX_LENGTH, sceneTypeFilter, toSceneItem } from "./scene";
import { assertArea, coveringCellsAt } from "./sceneArea";

/** Most nights one page holds. */
export const MAX_TONIGHT_PAGE = 100;
/** Most index rows one page reads (both phases together). */
export const MAX_TONIGHT_ROWS_READ = 2000;
/** How many of tomorrow's first nights are shown when nothing is on tonight. */
export const TOMORROW_COUNT = 5;
/** Longest time zone name accepted. */
const MAX_TIME_ZONE_LENGTH = 64;
/** Most covering cells a Tonight area may need (a 50-mile circle needs about 60 below 60° of latitude). */
const MAX_TONIGHT_CELLS = 256;

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
type BaseArgs = {
  nowMs: number;
  timeZone: string;
  area?: { lat: number; lng: number; radiusMiles: number };
  type: Infer<typeof sceneTypeFilter>;
  search: string;
  filters: PlanFilters;
};
type TonightArgs = BaseArgs & { paginationOpts: PaginationOptions };

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

export const tonightPageValidator = paginationResultValidator(nightValidator);
export const tomorrowValidator = v.array(nightValidator);

function invalid(message: string): never {
  throw appError(ErrorCode.INVALID_INPUT, message);
}

function checkArgs(args: BaseArgs): void {
  if (!Number.isFinite(args.nowMs) || args.nowMs < MIN_NOW_MS || args.nowMs > MAX_NOW_MS)
    invalid("The time is not valid");
  if (args.timeZone.length > MAX_TIME_ZONE_LENGTH || !isValidTimeZone(args.timeZone)) invalid("Unknown time zone");
  if (args.search.trim().length > SCENE_SEARCH_MAX_LENGTH) {
    invalid(`Search is too long (at most ${SCENE_SEARCH_MAX_LENGTH} characters).`);
  }
  if (args.area) assertArea(args.area);
}

/** Orders nights: cancelled last, then by start, then by creation (the order pages follow). */
export function compareNights(a: TonightNight, b: TonightNight): number {
  return (
    Number(a.status === "cancelled") - Number(b.status === "cancelled") || compareKeys(keyOfNight(a), keyOfNight(b))
  );
}

/**
 * A night's place in the merge: its start instant ({@link orderMs}), then the
 * row's local start time, creation time and id (the rest of its index order).
 */
type Key = [number, string, number, string];
const cmp = (x: string | number, y: string | number) => (x < y ? -1 : x > y ? 1 : 0);
function compareKeys(a: Key, b: Key): number {
  return a[0] - b[0] || cmp(a[1], b[1]) || a[2] - b[2] || cmp(a[3], b[3]);
}
const keyOfNight = (n: TonightNight): Key => [
  orderMs({ date: n.date, hhmm: n.item.startTimeLocal ?? "00:00", timeZone: n.item.timeZone || DEFAULT_TIME_ZONE }),
  n.item.startTimeLocal ?? "",
  n.item._creationTime,
  n.item._id,
];

/**
 * The instant a local start time sorts at: its start, except for a time inside
 * a spring-forward gap (02:30 when the clocks jump from 02:00 to 03:00), which
 * starts after the gap (03:30) but sorts at the jump (03:00), so that in one
 * zone and date the order of local times is the order of these instants.
 */
function orderMs({ date, hhmm, timeZone }: { date: string; hhmm: string; timeZone: string }): number {
  const start = zonedEpoch(date, hhmm, timeZone);
  const normalized = normalizedHHMM(hhmm) ?? hhmm;
  if (localHHMM(start, timeZone) === normalized) return start;
  let at = start;
  // At most the gap's length (an hour) back to the jump.
  for (let i = 0; i < 180; i++) {
    const before = at - 60_000;
    if (localDateString(before, timeZone) !== date || localHHMM(before, timeZone) < normalized) break;
    at = before;
  }
  return at;
}

/** Which nights a merge looks for: not cancelled (phase 0), cancelled (phase 1), or any (tomorrow). */
type Want = "on" | "cancelled" | "any";

/**
 * One index range read in local start order: one weekday (`day`) of one time
 * zone, in one area cell or (`cell` null) the whole zone; every row's night is
 * on `date`, and only local start times from `from` (inclusive) to `to`
 * (exclusive) can be tonight's.
 */
type Source = { day: number; timeZone: string; cell: string | null; date: string; from: string; to: string };

/** Local "HH:MM" of the instant in the zone. */
function localHHMM(ms: number, timeZone: string): string {
  const d = new TZDate(ms, timeZone);
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
}

/** Longest a night runs after its start: 60 minutes plus a set of at most 60. */
const LONGEST_NIGHT_MIN = 120;

/** The time-of-day filter's start-time range, intersected with `range`. */
function clampToTimeOfDay(range: { from: string; to: string }, filters: PlanFilters): { from: string; to: string } {
  if (filters.timeOfDay === "any") return range;
  const tod = TIME_OF_DAY_RANGES[filters.timeOfDay];
  return { from: range.from > tod.from ? range.from : tod.from, to: range.to < tod.to ? range.to : tod.to };
}

/**
 * The night date and start-time range a weekday of a zone holds at `nowMs`, or
 * null when that weekday holds none: tonight is today's nights from two hours
 * before now, plus, before 02:00, yesterday's that started in the last two
 * hours; tomorrow is the whole of tomorrow.
 */
function sourceRange({
  day,
  zone,
  args,
  which,
}: {
  day: number;
  zone: string;
  args: BaseArgs;
  which: "tonight" | "tomorrow";
}): { date: string; from: string; to: string } | null {
  const timeZone = zone || DEFAULT_TIME_ZONE;
  const today = localDateString(args.nowMs, timeZone);
  let range: { date: string; from: string; to: string } | null = null;
  if (which === "tomorrow") {
    const tomorrow = addDaysToDate(today, 1);
    if (dayOfWeekOfDate(tomorrow) === day) range = { date: tomorrow, from: "00:00", to: "24:00" };
  } else {
    const now = localHHMM(args.nowMs, timeZone);
    const earliest = minusMinutesHHMM(now, LONGEST_NIGHT_MIN);
    const wraps = earliest > now;
    const yesterday = addDaysToDate(today, -1);
    if (dayOfWeekOfDate(today) === day) range = { date: today, from: wraps ? "00:00" : earliest, to: "24:00" };
    else if (wraps && dayOfWeekOfDate(yesterday) === day) range = { date: yesterday, from: earliest, to: "24:00" };
  }
  if (range === null) return null;
  const clamped = clampToTimeOfDay(range, args.filters);
  return clamped.from < clamped.to ? { date: range.date, ...clamped } : null;
}

/** Weekdays (0 = Sunday) that can hold a mic's today or a still-running yesterday
 * near the viewer: the viewer's local dates from 5 hours before to 3 hours after
 * `ms` (neighbouring time zones, and nights running past midnight). */
function candidateWeekdays(ms: number, timeZone: string): number[] {
  const days = new Set<number>();
  for (const hours of [-5, -3, 0, 3]) days.add(dayOfWeekOfDate(localDateString(ms + hours * HOUR_MS, timeZone)));
  return [...days];
}

/** The precision-4 cells covering the area (the index holds each mic's cell). */
function tonightCells(area: NonNullable<BaseArgs["area"]>): string[] {
  if (Math.abs(area.lat) > 80) invalid("Tonight around a point works below 80° of latitude");
  const cells = coveringCellsAt({
    lat: area.lat,
    lng: area.lng,
    radiusMeters: area.radiusMiles * METERS_PER_MILE,
    precision: AREA_CELL_PRECISION,
  });
  if (cells.length > MAX_TONIGHT_CELLS) invalid("This area is too large for Tonight");
  return cells;
}

/**
 * The sources of tonight (or tomorrow). Around a point, each covering cell's
 * time zones on each candidate weekday are found by skipping through the index
 * (one row per zone present, one empty range to end).
 */
async function sources(ctx: QueryCtx, args: BaseArgs, which: "tonight" | "tomorrow"): Promise<Source[]> {
  if (!args.area) {
    const today = localDateString(args.nowMs, args.timeZone);
    const days = [-1, 0, 1].map((d) => dayOfWeekOfDate(addDaysToDate(today, d)));
    const found: Source[] = [];
    for (const day of days) {
      const range = sourceRange({ day, zone: args.timeZone, args, which });
      if (range) found.push({ day, timeZone: args.timeZone, cell: null, ...range });
    }
    return found;
  }
  const cells = tonightCells(args.area);
  const days = candidateWeekdays(args.nowMs + (which === "tomorrow" ? DAY_MS : 0), args.timeZone);
  const pairs = days.flatMap((day) => cells.map((cell) => ({ day, cell })));
  const perPair = await Promise.all(
    pairs.map(async ({ day, cell }) => {
      const found: Source[] = [];
      let after: string | null = null;
      for (;;) {
        const zoneAfter: string | null = after;
        const next: Doc<"sceneItems"> | null = await ctx.db
          .query("sceneItems")
          .withIndex("by_status_and_day_and_areaCell", (q) => {
            const inCell = q.eq("status", "active").eq("dayOfWeek", day).eq("areaCell", cell);
            return zoneAfter === null ? inCell : inCell.gt("timeZone", zoneAfter);
          })
          .first();
        if (next === null) return found;
        after = next.timeZone;
        const range = sourceRange({ day, zone: next.timeZone, args, which });
        if (range) found.push({ day, timeZone: next.timeZone, cell, ...range });
      }
    }),
  );
  return perPair.flat();
}

/** One DST day is not 24 hours long: local times there do not map one to one onto instants. */
function isDstDay(date: string, timeZone: string): boolean {
  return zonedEpoch(addDaysToDate(date, 1), "00:00", timeZone) - zonedEpoch(date, "00:00", timeZone) !== DAY_MS;
}

/** Where a source starts reading to find the rows after `after`: its `from`, or the local time of `after`. */
function fromAfter(source: Source, after: Key | null): string {
  if (after === null) return source.from;
  const timeZone = source.timeZone || DEFAULT_TIME_ZONE;
  const date = localDateString(after[0], timeZone);
  if (date < source.date) return source.from;
  if (date > source.date) return source.to;
  let hhmm = localHHMM(after[0], timeZone);
  // Around a clock change, start an hour early (rows at or before `after` are skipped by key).
  if (isDstDay(source.date, timeZone)) hhmm = hhmm < "01:00" ? "00:00" : minusMinutesHHMM(hhmm, 60);
  return hhmm > source.from ? hhmm : source.from;
}

type Budget = { rowsLeft: number };
class OutOfRows extends Error {}

/** A source read lazily from a local start time, one row at a time, each row with its merge key. */
class Reader {
  private readonly rows: AsyncIterator<Doc<"sceneItems">>;
  head: { doc: Doc<"sceneItems">; key: Key } | null = null;
  private done = false;

  constructor(
    ctx: QueryCtx,
    readonly source: Source,
    from: string,
    private readonly budget: Budget,
  ) {
    const s = source;
    const query =
      s.cell === null
        ? ctx.db
            .query("sceneItems")
            .withIndex("by_status_and_day_and_timeZone", (q) =>
              q
                .eq("status", "active")
                .eq("dayOfWeek", s.day)
                .eq("timeZone", s.timeZone)
                .gte("startTimeLocal", from)
                .lt("startTimeLocal", s.to),
            )
        : ctx.db.query("sceneItems").withIndex("by_status_and_day_and_areaCell", (q) =>
            q
              .eq("status", "active")
              .eq("dayOfWeek", s.day)
              .eq("areaCell", s.cell ?? undefined)
              .eq("timeZone", s.timeZone)
              .gte("startTimeLocal", from)
              .lt("startTimeLocal", s.to),
          );
    this.rows = query[Symbol.asyncIterator]();
    if (from >= s.to) this.done = true;
  }

  /** Moves the head to the next row after `after` (or the next row), or to null at the end. */
  async advance(after: Key | null): Promise<void> {
    for (;;) {
      if (this.done) {
        this.head = null;
        return;
      }
      if (this.budget.rowsLeft <= 0) throw new OutOfRows();
      this.budget.rowsLeft--;
      const next = await this.rows.next();
      if (next.done) {
        this.done = true;
        this.head = null;
        return;
      }
      const doc = next.value;
      const start = doc.startTimeLocal ? parseHHMM(doc.startTimeLocal) : null;
      if (start === null) continue; // not a time: never tonight
      const key: Key = [
        orderMs({
          date: this.source.date,
          hhmm: doc.startTimeLocal!,
          timeZone: this.source.timeZone || DEFAULT_TIME_ZONE,
        }),
        doc.startTimeLocal!,
        doc._creationTime,
        doc._id,
      ];
      if (after !== null && compareKeys(key, after) <= 0) continue;
      this.head = { doc, key };
      return;
    }
  }
}

/** The per-row test: type, search, plan filters, the area, and the night on the source's date. */
function nightOf(
  args: BaseArgs,
  which: "tonight" | "tomorrow",
): (doc: Doc<"sceneItems">, source: Source) => TonightNight | null {
  const terms = searchTerms(args.search.trim());
  const center = args.area ? { lat: args.area.lat, lng: args.area.lng } : null;
  const radiusMeters = args.area ? args.area.radiusMiles * METERS_PER_MILE : 0;
  return (doc, source) => {
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
    const night = nightOn(doc, source.date);
    if (night === null || (which === "tonight" && night.endMs <= args.nowMs)) return null;
    const status: NightStatus = nightStatus(doc, night.date);
    return { item: toSceneItem(doc), ...night, status, distanceMiles };
  };
}

/**
 * Merges the sources from just after `after`, adding the wanted nights to
 * `out` until `limit` of them (when no `end`), the merge passes `end`, or the
 * sources run out. Returns the key of the last row it consumed (null if none)
 * and whether the sources ran out.
 */
async function merge(
  ctx: QueryCtx,
  sourceList: Source[],
  opts: {
    after: Key | null;
    end: Key | null;
    limit: number;
    want: Want;
    night: (doc: Doc<"sceneItems">, source: Source) => TonightNight | null;
    budget: Budget;
    out: TonightNight[];
  },
): Promise<{ last: Key | null; exhausted: boolean; outOfRows: boolean }> {
  let last: Key | null = null;
  try {
    const readers = sourceList.map((s) => new Reader(ctx, s, fromAfter(s, opts.after), opts.budget));
    await Promise.all(readers.map((r) => r.advance(opts.after)));
    let added = 0;
    for (;;) {
      if (opts.end === null && added >= opts.limit) return { last, exhausted: false, outOfRows: false };
      let next: Reader | null = null;
      for (const r of readers) {
        if (r.head && (next === null || compareKeys(r.head.key, next.head!.key) < 0)) next = r;
      }
      if (next === null) return { last, exhausted: true, outOfRows: false };
      const { doc, key } = next.head!;
      if (opts.end !== null && compareKeys(key, opts.end) > 0) return { last, exhausted: false, outOfRows: false };
      last = key;
      const night = opts.night(doc, next.source);
      if (night !== null && (opts.want === "any" || (opts.want === "cancelled") === (night.status === "cancelled"))) {
        opts.out.push(night);
        added++;
      }
      await next.advance(key);
    }
  } catch (e) {
    if (e instanceof OutOfRows) return { last, exhausted: false, outOfRows: true };
    throw e;
  }
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
  if (end && endCursor) {
    if (outOfRows) {
      // Convex's protocol: the client drops this page and asks for [cursor, splitCursor] and [splitCursor, endCursor].
      return {
        page,
        isDone: false,
        continueCursor: endCursor,
        pageStatus: "SplitRequired",
        splitCursor: serializePosition(position),
      };
    }
    return { page, isDone: end.phase === 2, continueCursor: endCursor };
  }
  return { page, isDone: position.phase === 2, continueCursor: serializePosition(position) };
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
