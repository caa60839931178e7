/**
 * The live list of a mic night: opening it, sign-ups (first come or a
 * lottery), walk-ins, the waitlist, the host's running order and the night's
 * progress (up now, on deck, done). Every change is one mutation that reads
 * the whole list (a few hundred rows at most) and moves `version`, so
 * concurrent sign-ups serialise on the list and none is lost or doubled.
 */

import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { appError, ErrorCode } from "../errors";
import { enforceRateLimit } from "../rateLimits";

import { canHostMic } from "./claims";

import { displayNameFor } from "./profiles";
import {
  ALREADY_ON_LIST_MESSAGE,
  invalid,
  LIST_CANCELLED_MESSAGE,
  LIST_CLOSED_MESSAGE,
  LIST_FULL_MESSAGE,
  MAX_LIST_ROWS,
  MAX_NAME_LENGTH,
  NOT_HOST_MESSAGE,
  NOT_ON_LIST_MESSAGE,
  SIGNUP_NOT_OPEN_MESSAGE,
  STALE_LIST_MESSAGE,
} from "../lib/nightListRules";

export type Section = Doc<"listSpots">["section"];
export type Spot = Doc<"listSpots">;
export type List = Doc<"nightLists">;

// ---------------------------------------------------------------------------
// Reading a list

export async function spotsOf(ctx: QueryCtx, listId: Id<"nightLists">): Promise<Spot[]> {
  // MAX_LIST_ROWS bounds every list (sign-ups and walk-ins are refused past it).
  return await ctx.db
    .query("listSpots")
    .withIndex("by_list_and_user", (q) => q.eq("listId", listId))
    .take(2 * MAX_LIST_ROWS + 1);
}

export function bySection(spots: Spot[], section: Section): Spot[] {
  return spots
    .filter((s) => s.section === section)
    .sort((a, b) => a.rank - b.rank || a._creationTime - b._creationTime);
}

/** Spots on the list that hold a place (a no-show gives theirs back). */
export function takenCount(spots: Spot[]): number {
  return spots.filter((s) => s.section === "list" && s.state !== "no_show").length;
}

/** Who is up now and who is on deck (the first waiting spot after the running order's start). */
export function upAndOnDeck(ordered: Spot[]): { up: Spot | null; onDeck: Spot | null } {
  const up = ordered.find((s) => s.state === "up") ?? null;
  const onDeck = ordered.find((s) => s.state === "waiting") ?? null;
  return { up, onDeck };
}

/** Writes ranks 0..n-1 (and the section) for the spots in the given order; only changed rows are patched. */
export async function writeOrder(ctx: MutationCtx, section: Section, ordered: Spot[]): Promise<void> {
  for (const [i, spot] of ordered.entries()) {
    if (spot.rank !== i || spot.section !== section) {
      await ctx.db.patch("listSpots", spot._id, { rank: i, section });
      spot.rank = i;
      spot.section = section;
    }
  }
}

export async function bumpVersion(ctx: MutationCtx, list: List): Promise<void> {
  await ctx.db.patch("nightLists", list._id, { version: list.version + 1 });
}

/** Whether the user runs lists at the mic: its approved claimant or an admin (model/claims owns the rule). */
export async function canHost(ctx: QueryCtx, userId: Id<"users">, item: Doc<"sceneItems">): Promise<boolean> {
  return await canHostMic(ctx, userId, item);
}

export async function requireList(ctx: QueryCtx, listId: Id<"nightLists">): Promise<List> {
  const list = await ctx.db.get("nightLists", listId);
  if (list === null) throw appError(ErrorCode.NOT_FOUND, "List not found");
  return list;
}

export function requireOpen(list: List): void {
  if (list.status !== "open") {
    throw appError(
      ErrorCode.LIST_CLOSED,
      list.closedReason === "cancelled" ? LIST_CANCELLED_MESSAGE : LIST_CLOSED_MESSAGE,
    );
  }
}

/** The list for a host-only change: it exists, the caller hosts the mic (or is an admin). */
export async function requireHostedList(
  ctx: QueryCtx,
  userId: Id<"users">,
  listId: Id<"nightLists">,
): Promise<{ list: List; item: Doc<"sceneItems"> }> {
  const list = await requireList(ctx, listId);
  const item = await ctx.db.get("sceneItems", list.micId);
  if (item === null) throw appError(ErrorCode.NOT_FOUND, "Event not found");
  if (!(await canHost(ctx, userId, item))) throw appError(ErrorCode.FORBIDDEN, NOT_HOST_MESSAGE);
  return { list, item };
}

/** The version the host saw: a whole number (anything else is refused as input), and the list's current one. */
export function requireVersion(list: List, version: number | undefined): void {
  if (version !== undefined && (!Number.isSafeInteger(version) || version < 0)) {
    invalid("The list version must be a whole number");
  }
  if (version !== undefined && version !== list.version) throw appError(ErrorCode.LIST_STALE, STALE_LIST_MESSAGE);
}

export function requireSpot(spots: Spot[], spotId: Id<"listSpots">): Spot {
  const spot = spots.find((s) => s._id === spotId);
  if (spot === undefined) throw appError(ErrorCode.NOT_FOUND, "That spot is no longer on the list.");
  return spot;
}

/**
 * The host's step on one spot: the caller hosts the list, it is open, the
 * version they saw is current (when given), and the spot is on it.
 */
export async function hostedSpot(
  ctx: QueryCtx,
  userId: Id<"users">,
  args: { listId: Id<"nightLists">; spotId: Id<"listSpots">; version?: number },
): Promise<{ list: List; item: Doc<"sceneItems">; spots: Spot[]; spot: Spot }> {
  const { list, item } = await requireHostedList(ctx, userId, args.listId);
  requireOpen(list);
  requireVersion(list, args.version);
  const spots = await spotsOf(ctx, args.listId);
  return { list, item, spots, spot: requireSpot(spots, args.spotId) };
}

// ---------------------------------------------------------------------------
// Placing a new name

/** Whether the comedian was bumped or left on the waitlist at the mic's previous list. */
export async function hasPriority(
  ctx: QueryCtx,
  { userId, micId, beforeDate }: { userId: Id<"users">; micId: Id<"sceneItems">; beforeDate: string },
): Promise<boolean> {
  const previous = await ctx.db
    .query("nightLists")
    .withIndex("by_mic_and_date", (q) => q.eq("micId", micId).lt("date", beforeDate))
    .order("desc")
    .first();
  if (previous === null || previous.closedReason === "cancelled") return false;
  const spot = await ctx.db
    .query("listSpots")
    .withIndex("by_list_and_user", (q) => q.eq("listId", previous._id).eq("userId", userId))
    .first();
  return spot !== null && (spot.bumped || spot.section === "waitlist");
}

/**
 * Where a new name goes: the lottery pool before a draw; after a bucket draw,
 * the waitlist; otherwise first come, the list while it has room, then the
 * waitlist. Priority names go ahead of everyone still waiting without priority.
 */
async function placeNew(
  ctx: MutationCtx,
  list: List,
  spots: Spot[],
  fields: { userId?: Id<"users">; name: string; priority: boolean },
  { walkIn }: { walkIn: boolean },
): Promise<Id<"listSpots">> {
  let section: Section;
  if (list.mode === "lottery" && list.drawnAt === undefined) {
    section = "pool";
    if (bySection(spots, "pool").length >= list.spots + list.waitlistSpots)
      throw appError(ErrorCode.LIST_FULL, LIST_FULL_MESSAGE);
  } else {
    const bucketClosed = list.mode === "lottery" && list.bucket && !walkIn;
    const waitlistFull = bySection(spots, "waitlist").length >= list.waitlistSpots;
    // A priority name takes the place of the last one still waiting without
    // priority, who heads the waitlist instead.
    const displaced =
      fields.priority && !bucketClosed && !waitlistFull
        ? bySection(spots, "list")
            .filter((s) => s.state === "waiting" && !s.priority)
            .at(-1)
        : undefined;
    if (!bucketClosed && takenCount(spots) < list.spots) section = "list";
    else if (displaced !== undefined) {
      section = "list";
      const waitlist = bySection(spots, "waitlist");
      displaced.section = "waitlist";
      await writeOrder(ctx, "waitlist", [displaced, ...waitlist]);
      await writeOrder(ctx, "list", bySection(spots, "list"));
    } else if (!waitlistFull) section = "waitlist";
    else throw appError(ErrorCode.LIST_FULL, LIST_FULL_MESSAGE);
  }
  const ordered = bySection(spots, section);
  const id = await ctx.db.insert("listSpots", {
    listId: list._id,
    micId: list.micId,
    ...(fields.userId !== undefined ? { userId: fields.userId } : {}),
    name: fields.name,
    section,
    rank: ordered.length,
    state: "waiting",
    priority: fields.priority,
    bumped: false,
  });
  if (fields.priority && section !== "pool") {
    const created = (await ctx.db.get("listSpots", id))!;
    const at = ordered.findIndex((s) => s.state === "waiting" && !s.priority);
    if (at >= 0) {
      ordered.splice(at, 0, created);
      await writeOrder(ctx, section, ordered);
    }
  }
  await bumpVersion(ctx, list);
  return id;
}

async function comedianName(ctx: QueryCtx, userId: Id<"users">): Promise<string> {
  const profile = await ctx.db
    .query("profiles")
    .withIndex("by_userId", (q) => q.eq("userId", userId))
    .unique();
  const name = profile?.displayName.trim() || displayNameFor(await ctx.db.get("users", userId));
  return name.slice(0, MAX_NAME_LENGTH);
}

/** A signed-in comedian puts their own name on the list, once per night. */
export async function signUp(
  ctx: MutationCtx,
  { userId, listId, nowMs }: { userId: Id<"users">; listId: Id<"nightLists">; nowMs: number },
): Promise<{ spotId: Id<"listSpots">; section: Section }> {
  const list = await requireList(ctx, listId);
  requireOpen(list);
  if (nowMs < list.signupOpensAt)
    throw appError(ErrorCode.LIST_CLOSED, SIGNUP_NOT_OPEN_MESSAGE, { opensAt: list.signupOpensAt });
  const mine = await ctx.db
    .query("listSpots")
    .withIndex("by_list_and_user", (q) => q.eq("listId", listId).eq("userId", userId))
    .first();
  if (mine !== null) throw appError(ErrorCode.ALREADY_EXISTS, ALREADY_ON_LIST_MESSAGE);
  // Per comedian, so sign-up / drop-out churn cannot reorder a list endlessly.
  await enforceRateLimit(ctx, "listSignUp", userId);
  const [spots, name, priority] = await Promise.all([
    spotsOf(ctx, listId),
    comedianName(ctx, userId),
    hasPriority(ctx, { userId, micId: list.micId, beforeDate: list.date }),
  ]);
  const spotId = await placeNew(ctx, list, spots, { userId, name, priority }, { walkIn: false });
  const spot = (await ctx.db.get("listSpots", spotId))!;
  return { spotId, section: spot.section };
}

/** The host adds a walk-in by name (no account needed). */
export async function addWalkIn(
  ctx: MutationCtx,
  { userId, listId, rawName }: { userId: Id<"users">; listId: Id<"nightLists">; rawName: string },
): Promise<Id<"listSpots">> {
  const { list } = await requireHostedList(ctx, userId, listId);
  requireOpen(list);
  const name = rawName.trim();
  if (!name) invalid("Please enter the comedian's name");
  if (name.length > MAX_NAME_LENGTH) invalid(`Names must be ${MAX_NAME_LENGTH} characters or fewer`);
  const spots = await spotsOf(ctx, listId);
  return await placeNew(ctx, list, spots, { name, priority: false }, { walkIn: true });
}

/** Fills a freed place on the list with the first name on the waitlist (not `except`). */
export async function promoteFromWaitlist(
  ctx: MutationCtx,
  { list, spots, except }: { list: List; spots: Spot[]; except?: Id<"listSpots"> },
): Promise<void> {
  if (takenCount(spots) >= list.spots) return;
  const next = bySection(spots, "waitlist").find((s) => s._id !== except);
  if (next === undefined) return;
  const listed = bySection(spots, "list");
  await ctx.db.patch("listSpots", next._id, { section: "list", rank: listed.length });
  next.section = "list";
  next.rank = listed.length;
  await writeOrder(ctx, "waitlist", bySection(spots, "waitlist"));
}

/** A comedian takes their own name off the list; everyone behind moves up. */
export async function dropOut(ctx: MutationCtx, userId: Id<"users">, listId: Id<"nightLists">): Promise<null> {
  const list = await requireList(ctx, listId);
  requireOpen(list);
  const mine = await ctx.db
    .query("listSpots")
    .withIndex("by_list_and_user", (q) => q.eq("listId", listId).eq("userId", userId))
    .first();
  if (mine === null) throw appError(ErrorCode.NOT_FOUND, NOT_ON_LIST_MESSAGE);
  if (mine.state !== "waiting") invalid("Your set has already started, so you can't drop out now.");
  await ctx.db.delete("listSpots", mine._id);
  const spots = (await spotsOf(ctx, listId)).filter((s) => s._id !== mine._id);
  await writeOrder(ctx, mine.section, bySection(spots, mine.section));
  if (mine.section === "list") await promoteFromWaitlist(ctx, { list, spots });
  await bumpVersion(ctx, list);
  return null;
}
