/**
 * Where Tonight's nights come from and how they are merged (see model/tonight):
 * the sources (one weekday of one time zone, around a point one covering cell),
 * each read lazily through its index in local start order, and the merge of
 * their rows by (start instant, local start, creation time, id).
 */
import { TZDate, tzOffset } from "@date-fns/tz";
import type { Doc } from "../_generated/dataModel";
import { v, type Infer } from "convex/values";
import type { QueryCtx } from "../_generated/server";
import { haversineMeters, METERS_PER_MILE } from "../lib/geo";
import { matchesEveryTerm, searchTerms } from "../lib/sceneSearch";
import { MAX_PERFORMANCE_MINUTES } from "../lib/micRules";
import { COMPLETED_AFTER_MIN } from "../lib/schedule";
import { invalid } from "../lib/textRules";
import { nightOn, nightStatus, normalizedHHMM, TIME_OF_DAY_RANGES, type NightStatus } from "../lib/tonight";
import {
  addDaysToDate,
  DAY_MS,
  dayOfWeekOfDate,
  DEFAULT_TIME_ZONE,
  HOUR_MS,
  isPlacelessTimeZone,
  localDateString,
  minusMinutesHHMM,
  parseHHMM,
  zonedEpoch,
} from "../lib/time";
import { AREA_CELL_PRECISION } from "./micTriggers";
import { matchesPlanFilters, type PlanFilters } from "./planFilters";
import { sceneItemValidator, sceneTypeFilter, toSceneItem } from "./scene";
import { coveringCellsAt } from "./sceneArea";

/** Tonight's arguments without the page. */
export type BaseArgs = {
  nowMs: number;
  timeZone: string;
  area?: { lat: number; lng: number; radiusMiles: number };
  type: Infer<typeof sceneTypeFilter>;
  search: string;
  filters: PlanFilters;
};

/** One night as Tonight returns it. */
export const nightValidator = v.object({
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

/** Most covering cells a Tonight area may need (a 50-mile circle needs about 60 below 60° of latitude). */
const MAX_TONIGHT_CELLS = 256;

/**
 * A night's place in the merge: its start instant ({@link orderMs}), then the
 * row's local start time, creation time and id (the rest of its index order).
 */
export type Key = [number, string, number, string];
const cmp = (x: string | number, y: string | number) => (x < y ? -1 : x > y ? 1 : 0);
export function compareKeys(a: Key, b: Key): number {
  return a[0] - b[0] || cmp(a[1], b[1]) || a[2] - b[2] || cmp(a[3], b[3]);
}
export const keyOfNight = (n: TonightNight): Key => [
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
export type Want = "on" | "cancelled" | "any";

/**
 * One index range read in local start order: one weekday (`day`) of one time
 * zone, in one area cell or (`cell` null) the whole zone; every row's night is
 * on `date`, and only local start times from `from` (inclusive) to `to`
 * (exclusive) can be tonight's.
 */
export type Source = { day: number; timeZone: string; cell: string | null; date: string; from: string; to: string };

/** Local "HH:MM" of the instant in the zone. */
function localHHMM(ms: number, timeZone: string): string {
  const d = new TZDate(ms, timeZone);
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
}

/** Longest a night runs after its start: the hour before it counts as over, plus the longest set. */
const LONGEST_NIGHT_MIN = COMPLETED_AFTER_MIN + MAX_PERFORMANCE_MINUTES;

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
export async function sources(ctx: QueryCtx, args: BaseArgs, which: "tonight" | "tomorrow"): Promise<Source[]> {
  if (!args.area) {
    // A browser on UTC says nothing of where the viewer is: the default region, whichever mics keep UTC's clock.
    if (isPlacelessTimeZone(args.timeZone)) {
      return (await regionSources(ctx, { ...args, timeZone: DEFAULT_TIME_ZONE }, which)).sources;
    }
    const region = await regionSources(ctx, args, which);
    // A clock no mic keeps (a browser in Tokyo, say) sees the app's default region instead of nothing.
    if (region.zones > 0 || sameClock(args.timeZone, DEFAULT_TIME_ZONE, args.nowMs)) return region.sources;
    return (await regionSources(ctx, { ...args, timeZone: DEFAULT_TIME_ZONE }, which)).sources;
  }
  const cells = tonightCells(args.area);
  const days = candidateWeekdays(args.nowMs + (which === "tomorrow" ? DAY_MS : 0), args.timeZone);
  const pairs = days.flatMap((day) => cells.map((cell) => ({ day, cell })));
  const perPair = await Promise.all(
    pairs.map(async ({ day, cell }) =>
      (await zonesOn(ctx, day, cell)).flatMap((zone) => {
        const range = sourceRange({ day, zone, args, which });
        return range ? [{ day, timeZone: zone, cell, ...range }] : [];
      }),
    ),
  );
  return perPair.flat();
}

/**
 * The distinct zones of active mics on a weekday (in one area cell, or anywhere), found by
 * skipping through the index one row per zone present.
 */
async function zonesOn(ctx: QueryCtx, day: number, cell: string | null): Promise<string[]> {
  const zones: string[] = [];
  for (;;) {
    const after: string | undefined = zones.at(-1);
    const next: Doc<"sceneItems"> | null =
      cell === null
        ? await ctx.db
            .query("sceneItems")
            .withIndex("by_status_and_day_and_timeZone", (q) => {
              const onDay = q.eq("status", "active").eq("dayOfWeek", day);
              return after === undefined ? onDay : onDay.gt("timeZone", after);
            })
            .first()
        : await ctx.db
            .query("sceneItems")
            .withIndex("by_status_and_day_and_areaCell", (q) => {
              const inCell = q.eq("status", "active").eq("dayOfWeek", day).eq("areaCell", cell);
              return after === undefined ? inCell : inCell.gt("timeZone", after);
            })
            .first();
    if (next === null) return zones;
    zones.push(next.timeZone);
  }
}

/** Whether two zones show the same clock at `ms` (America/Detroit and America/New_York do). */
function sameClock(a: string, b: string, ms: number): boolean {
  return a === b || tzOffset(a, new Date(ms)) === tzOffset(b, new Date(ms));
}

/**
 * Without a point: every zone that keeps the viewer's clock now (the viewer's region, not
 * only its exact zone name), on the weekdays around the viewer's today. Each weekday's zones
 * are found by skipping through `by_status_and_day_and_timeZone` (one row per zone present).
 */
async function regionSources(
  ctx: QueryCtx,
  args: BaseArgs,
  which: "tonight" | "tomorrow",
): Promise<{ sources: Source[]; zones: number }> {
  const today = localDateString(args.nowMs, args.timeZone);
  const days = [-1, 0, 1].map((d) => dayOfWeekOfDate(addDaysToDate(today, d)));
  let zones = 0;
  const perDay = await Promise.all(
    days.map(async (day) =>
      (await zonesOn(ctx, day, null)).flatMap((zone) => {
        if (!sameClock(zone || DEFAULT_TIME_ZONE, args.timeZone, args.nowMs)) return [];
        zones += 1;
        const range = sourceRange({ day, zone, args, which });
        return range ? [{ day, timeZone: zone, cell: null, ...range }] : [];
      }),
    ),
  );
  return { sources: perDay.flat(), zones };
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

export type Budget = { rowsLeft: number };
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
export function nightOf(
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
export async function merge(
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
