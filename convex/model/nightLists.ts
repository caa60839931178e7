/**
 * The live list of a mic night: opening it, sign-ups (first come or a
 * lottery), walk-ins, the waitlist, the host's running order and the night's
 * progress (up now, on deck, done). An online sign-up inserts only its own
 * row and reads only its own (model/nightListPlacement places it), so a rush
 * of sign-ups never conflicts; host changes read the whole list, place the
 * pending sign-ups first and move `version`, so a host's reorder made against
 * an older copy is refused instead of undoing someone else's.
 */

import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { appError, ErrorCode } from "../errors";
import { isDefaultStageName, STAGE_NAME_REQUIRED_MESSAGE } from "../lib/profileRules";
import { enforceRateLimit } from "../rateLimits";

import { canHostMic } from "./access";

import { displayNameFor } from "./profiles";
import {
  ALREADY_ON_LIST_MESSAGE,
  LIST_CANCELLED_MESSAGE,
  LIST_CLOSED_MESSAGE,
  LIST_FULL_MESSAGE,
  MAX_NAME_LENGTH,
  NEW_ACCOUNT_MESSAGE,
  NOT_HOST_MESSAGE,
  NOT_ON_LIST_MESSAGE,
  REMOVED_FROM_LIST_MESSAGE,
  SIGNUP_NOT_OPEN_MESSAGE,
  STALE_LIST_MESSAGE,
  walkInName,
} from "../lib/nightListRules";
import { invalid } from "../lib/textRules";
import { DAY_MS, HOUR_MS } from "../lib/time";
import {
  derive,
  freePlaces,
  pendingOf,
  PLACED,
  placedOf,
  placeOne,
  settle,
  writeChanged,
  type List,
  type Spot,
} from "./nightListPlacement";

export type Section = Doc<"listSpots">["section"];
export type { List, Spot };

// ---------------------------------------------------------------------------
// Reading a list

/** The placed rows of a list (list, waitlist, pool; not the pending sign-ups). */
export async function spotsOf(ctx: QueryCtx, listId: Id<"nightLists">): Promise<Spot[]> {
  const sections = await placedOf(ctx, listId);
  return PLACED.flatMap((section) => sections[section]);
}

/** A host change's view of the list: the pending sign-ups placed for good first. */
export async function settledSpotsOf(ctx: MutationCtx, list: List): Promise<Spot[]> {
  const sections = await settle(ctx, list);
  return PLACED.flatMap((section) => sections[section]);
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
  ctx: MutationCtx,
  userId: Id<"users">,
  args: { listId: Id<"nightLists">; spotId: Id<"listSpots">; version?: number },
): Promise<{ list: List; item: Doc<"sceneItems">; spots: Spot[]; spot: Spot }> {
  const { list, item } = await requireHostedList(ctx, userId, args.listId);
  requireOpen(list);
  requireVersion(list, args.version);
  const spots = await settledSpotsOf(ctx, list);
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
  if (spot === null) return false;
  if (spot.section !== "pending") return spot.bumped || spot.section === "waitlist";
  // Never placed by a host change: where the list's view put it.
  const placed = await placedOf(ctx, previous._id);
  const { sections } = derive(previous, placed, await pendingOf(ctx, previous._id, freePlaces(previous, placed)));
  return sections.waitlist.some((s) => s._id === spot._id);
}

/** The name the list shows: the comedian's stage name; STAGE_NAME_REQUIRED until they have chosen one. */
async function comedianName(ctx: QueryCtx, userId: Id<"users">): Promise<string> {
  const profile = await ctx.db
    .query("profiles")
    .withIndex("by_userId", (q) => q.eq("userId", userId))
    .unique();
  const name = profile?.displayName.trim() || displayNameFor(await ctx.db.get("users", userId));
  if (isDefaultStageName(name)) throw appError(ErrorCode.STAGE_NAME_REQUIRED, STAGE_NAME_REQUIRED_MESSAGE);
  return name.slice(0, MAX_NAME_LENGTH);
}

/**
 * How old an account must be to sign up online: a day, unless
 * LIST_MIN_ACCOUNT_AGE_HOURS says otherwise (the browser tests set 0). A
 * burst of throwaway accounts made for tonight's drop cannot fill the list;
 * the host adds a real newcomer as a walk-in.
 */
export function listMinAccountAgeMs(): number {
  const raw = process.env.LIST_MIN_ACCOUNT_AGE_HOURS;
  const hours = Number(raw);
  return raw !== undefined && raw !== "" && Number.isFinite(hours) && hours >= 0 ? hours * HOUR_MS : DAY_MS;
}

/**
 * A signed-in comedian puts their own name on the list, once per night. It
 * reads only the list, its own rows and its own profile, and inserts one
 * pending row: its place (a spot, the waitlist, the pool or "full") follows
 * from arrival order when the list is read.
 */
export async function signUp(
  ctx: MutationCtx,
  { userId, listId, nowMs }: { userId: Id<"users">; listId: Id<"nightLists">; nowMs: number },
): Promise<{ spotId: Id<"listSpots"> }> {
  const list = await requireList(ctx, listId);
  requireOpen(list);
  if (nowMs < list.signupOpensAt)
    throw appError(ErrorCode.LIST_CLOSED, SIGNUP_NOT_OPEN_MESSAGE, { opensAt: list.signupOpensAt });
  const mine = await ctx.db
    .query("listSpots")
    .withIndex("by_list_and_user", (q) => q.eq("listId", listId).eq("userId", userId))
    .first();
  if (mine?.section === "removed") throw appError(ErrorCode.FORBIDDEN, REMOVED_FROM_LIST_MESSAGE);
  if (mine !== null) throw appError(ErrorCode.ALREADY_EXISTS, ALREADY_ON_LIST_MESSAGE);
  const user = await ctx.db.get("users", userId);
  const minAge = listMinAccountAgeMs();
  if (user === null || (minAge > 0 && nowMs - user._creationTime < minAge))
    throw appError(ErrorCode.FORBIDDEN, NEW_ACCOUNT_MESSAGE);
  // Per comedian, so sign-up / drop-out churn cannot reorder a list endlessly.
  await enforceRateLimit(ctx, "listSignUp", userId);
  const [name, priority] = await Promise.all([
    comedianName(ctx, userId),
    hasPriority(ctx, { userId, micId: list.micId, beforeDate: list.date }),
  ]);
  const spotId = await ctx.db.insert("listSpots", {
    listId,
    micId: list.micId,
    userId,
    name,
    section: "pending",
    rank: 0,
    state: "waiting",
    priority,
    bumped: false,
  });
  return { spotId };
}

/** The host adds a walk-in by name (no account needed), after everyone who signed up before. */
export async function addWalkIn(
  ctx: MutationCtx,
  { userId, listId, rawName }: { userId: Id<"users">; listId: Id<"nightLists">; rawName: string },
): Promise<Id<"listSpots">> {
  const { list } = await requireHostedList(ctx, userId, listId);
  requireOpen(list);
  const name = walkInName(rawName);
  const sections = await settle(ctx, list);
  const where = (s: Spot) => `${s.section}:${s.rank}`;
  const before = new Map(PLACED.flatMap((section) => sections[section].map((s) => [s._id, where(s)] as const)));
  const entry = { name, priority: false, state: "waiting", section: "pending", rank: 0 } as Spot;
  const section = placeOne(list, sections, entry, { walkIn: true });
  if (section === null) throw appError(ErrorCode.LIST_FULL, LIST_FULL_MESSAGE);
  const moved = PLACED.flatMap((s) => sections[s]).filter((s) => s !== entry && before.get(s._id) !== where(s));
  const id = await ctx.db.insert("listSpots", {
    listId: list._id,
    micId: list.micId,
    name,
    section,
    rank: entry.rank,
    state: "waiting",
    priority: false,
    bumped: false,
  });
  await writeChanged(ctx, moved);
  await bumpVersion(ctx, list);
  return id;
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
  if (mine === null || mine.section === "removed") throw appError(ErrorCode.NOT_FOUND, NOT_ON_LIST_MESSAGE);
  if (mine.state !== "waiting") invalid("Your set has already started, so you can't drop out now.");
  await ctx.db.delete("listSpots", mine._id);
  // A sign-up not placed yet leaves without touching anyone else's row.
  if (mine.section === "pending") return null;
  const spots = (await spotsOf(ctx, listId)).filter((s) => s._id !== mine._id);
  await writeOrder(ctx, mine.section, bySection(spots, mine.section));
  if (mine.section === "list") await promoteFromWaitlist(ctx, { list, spots });
  await bumpVersion(ctx, list);
  return null;
}
