/**
 * What every page of the invariant check shares: the page's context (its
 * problem lines, per-page counters and lookups), the partial sums it returns
 * ("tallies") and the link checks. See ./check for how the pages are walked
 * and added up.
 */
import type { Doc, Id, TableNames } from "../../_generated/dataModel";
import type { QueryCtx } from "../../_generated/server";
import type { CommunityTotals } from "../stats";

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

/** Partial sums of one page; the finishers of each group (./mics, ./stats, ...) say what each counter means. */
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
export class Counters {
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

export type PageOpts = { cursor: string | null; numItems: number };

/** One page being checked: what its part reads with, and what it reports. */
export type PageCtx = {
  ctx: QueryCtx;
  opts: PageOpts;
  problems: string[];
  counters: Counters;
  /** The non-counter partial sums this page returns (day segments, stats rows, cities, totals). */
  tally: Omit<Tally, "counters">;
  exists: ReturnType<typeof existence>;
};

/** What a part's page function returns: the page it read. */
export type PageRead = { continueCursor: string; isDone: boolean; page: unknown[] };

/** Checks one page of one table ("part"), adding to `p.problems` and the tallies. */
export type PageCheck = (p: PageCtx) => Promise<PageRead>;

export function newPageCtx(ctx: QueryCtx, opts: PageOpts): PageCtx {
  return {
    ctx,
    opts,
    problems: [],
    counters: new Counters(),
    tally: { daySegments: [], stats: [], cities: [], site: [] },
    exists: existence(ctx),
  };
}

/** Reads this page of `table`, in creation order, and checks its rows with `check`, all at once. */
export async function checkRows<T extends TableNames>(
  p: PageCtx,
  table: T,
  check: (row: Doc<T>) => Promise<void>,
): Promise<PageRead> {
  const page = await p.ctx.db.query(table).withIndex("by_creation_time").paginate(p.opts);
  await Promise.all(page.page.map((row) => check(row as Doc<T>)));
  return page;
}

/** The problem lines for a row's links to a user and, optionally, a mic. */
export async function checkLinks(
  { exists, problems }: PageCtx,
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

/** The partial sums added up over every page of every part, read by each group's finisher. */
export type Totals = {
  counter(name: string): Map<string, number>;
  /** Each comedian's day rows joined into one segment. */
  segments: Map<string, DaySegment>;
  stats: StatsFact[];
  cities: Array<{ name: string; items: number }>;
  site: CommunityTotals[];
};

/** Compares the totals of every page with the stored counters, adding problem lines. */
export type Finisher = (totals: Totals, problems: string[]) => void;
