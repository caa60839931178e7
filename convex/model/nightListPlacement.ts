/**
 * Where each name on a live list goes. Placed rows ("list", "waitlist",
 * "pool") keep their section and rank; an online sign-up only inserts its own
 * row as "pending", so a rush of sign-ups never reads or writes a row another
 * sign-up writes and none conflicts. Pending rows are placed in arrival order
 * (`_creationTime`) after the placed ones by {@link derive}: the shared list
 * view computes it on read, and every host change writes it first
 * ({@link settle}), so what everyone sees and what the host acts on agree.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { MAX_LIST_ROWS, MAX_POOL } from "../lib/nightListRules";

export type Spot = Doc<"listSpots">;
export type List = Doc<"nightLists">;
/** The sections a placed name is in. */
export type Placed = "pool" | "list" | "waitlist";
export type Sections = Record<Placed, Spot[]>;
export const PLACED: readonly Placed[] = ["list", "waitlist", "pool"];

/** Rows read per placed section (a bump may take the waitlist past its cap; a draw fills it from the pool). */
const SECTION_READ_LIMIT = 2 * MAX_LIST_ROWS + 1;

const byRank = (a: Spot, b: Spot) => a.rank - b.rank || a._creationTime - b._creationTime;

/** Spots on the list that hold a place (a no-show gives theirs back). */
export function listTaken(listed: Spot[]): number {
  return listed.filter((s) => s.state !== "no_show").length;
}

/** The placed rows of a list, each section in rank order: one index range per section. */
export async function placedOf(ctx: QueryCtx, listId: Id<"nightLists">): Promise<Sections> {
  const read = async (section: Placed) =>
    (
      await ctx.db
        .query("listSpots")
        .withIndex("by_list_and_section", (q) => q.eq("listId", listId).eq("section", section))
        .take(SECTION_READ_LIMIT)
    ).sort(byRank);
  const [list, waitlist, pool] = await Promise.all(PLACED.map(read));
  return { list, waitlist, pool };
}

/** Whether sign-ups after a bucket lottery's draw go to the waitlist only (walk-ins still get spots). */
function bucketClosed(list: List, walkIn: boolean): boolean {
  return list.mode === "lottery" && list.bucket && list.drawnAt !== undefined && !walkIn;
}

/**
 * How many more sign-ups can be placed: every one placed takes a spot, a
 * waitlist place or a pool place (a priority name's displacement takes one of
 * each), so pending rows past this many are all "full".
 */
export function freePlaces(list: List, sections: Sections): number {
  if (list.mode === "lottery" && list.drawnAt === undefined) return Math.max(0, MAX_POOL - sections.pool.length);
  const waitlistFree = Math.max(0, list.waitlistSpots - sections.waitlist.length);
  const listFree = bucketClosed(list, false) ? 0 : Math.max(0, list.spots - listTaken(sections.list));
  return listFree + waitlistFree;
}

/** The first `limit` pending sign-ups in arrival order. */
export async function pendingOf(ctx: QueryCtx, listId: Id<"nightLists">, limit: number): Promise<Spot[]> {
  if (limit <= 0) return [];
  return await ctx.db
    .query("listSpots")
    .withIndex("by_list_and_section", (q) => q.eq("listId", listId).eq("section", "pending"))
    .take(limit);
}

/**
 * Puts one new name into the sections (in memory): the lottery pool before a
 * draw; after a bucket draw, the waitlist; otherwise first come, the list while
 * it has room, then the waitlist. A priority name goes ahead of everyone still
 * waiting without priority and takes the place of the last of them on the
 * list, who heads the waitlist instead. Returns the section, or null when the
 * list and its waitlist (or the pool) are full. Moved rows get their new
 * section and rank; {@link writeChanged} writes them.
 */
export function placeOne(list: List, sections: Sections, entry: Spot, { walkIn }: { walkIn: boolean }): Placed | null {
  let section: Placed;
  if (list.mode === "lottery" && list.drawnAt === undefined) {
    if (sections.pool.length >= MAX_POOL) return null;
    section = "pool";
  } else {
    const closed = bucketClosed(list, walkIn);
    const waitlistFull = sections.waitlist.length >= list.waitlistSpots;
    const displaced =
      entry.priority && !closed && !waitlistFull
        ? sections.list.filter((s) => s.state === "waiting" && !s.priority).at(-1)
        : undefined;
    if (!closed && listTaken(sections.list) < list.spots) section = "list";
    else if (displaced !== undefined) {
      section = "list";
      sections.list.splice(sections.list.indexOf(displaced), 1);
      sections.waitlist.unshift(displaced);
    } else if (!waitlistFull) section = "waitlist";
    else return null;
  }
  const ordered = sections[section];
  const at = entry.priority && section !== "pool" ? ordered.findIndex((s) => s.state === "waiting" && !s.priority) : -1;
  if (at >= 0) ordered.splice(at, 0, entry);
  else ordered.push(entry);
  renumber(sections);
  return section;
}

/** Sets each row's section and rank from where it sits (in memory). */
export function renumber(sections: Sections): void {
  for (const section of PLACED) {
    for (const [i, spot] of sections[section].entries()) {
      spot.section = section;
      spot.rank = i;
    }
  }
}

/**
 * The pending sign-ups placed after the placed rows, in arrival order, on
 * copies (the inputs are not changed): the sections as they will be, the
 * sign-ups that found the list full, and the rows whose section or rank moved.
 */
export function derive(
  list: List,
  placed: Sections,
  pending: Spot[],
): { sections: Sections; full: Spot[]; moved: Spot[] } {
  const original = new Map<Id<"listSpots">, Spot>();
  const copy = (s: Spot) => {
    original.set(s._id, s);
    return { ...s };
  };
  const sections: Sections = {
    list: placed.list.map(copy),
    waitlist: placed.waitlist.map(copy),
    pool: placed.pool.map(copy),
  };
  const full: Spot[] = [];
  for (const entry of [...pending].sort((a, b) => a._creationTime - b._creationTime)) {
    const row = copy(entry);
    if (placeOne(list, sections, row, { walkIn: false }) === null) full.push(entry);
  }
  const moved = PLACED.flatMap((section) =>
    sections[section].filter((s) => {
      const before = original.get(s._id)!;
      return before.section !== s.section || before.rank !== s.rank;
    }),
  );
  return { sections, full, moved };
}

/** Writes the section and rank of the given rows. */
export async function writeChanged(ctx: MutationCtx, rows: Spot[]): Promise<void> {
  for (const row of rows) await ctx.db.patch("listSpots", row._id, { section: row.section, rank: row.rank });
}

/**
 * Before a host change: places the pending sign-ups (as everyone already sees
 * them) for good, and returns the sections as they now stand. Sign-ups that
 * found the list full stay pending, first in line for a place that frees up.
 */
export async function settle(ctx: MutationCtx, list: List): Promise<Sections> {
  const placed = await placedOf(ctx, list._id);
  const pending = await pendingOf(ctx, list._id, freePlaces(list, placed));
  if (pending.length === 0) return placed;
  const { sections, moved } = derive(list, placed, pending);
  await writeChanged(ctx, moved);
  return sections;
}
