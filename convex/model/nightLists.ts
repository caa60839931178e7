/**
 * The live list of a mic night: opening it, sign-ups (first come or a
 * lottery), walk-ins, the waitlist, the host's running order and the night's
 * progress (up now, on deck, done). Every change is one mutation that reads
 * the whole list (a few hundred rows at most) and moves `version`, so
 * concurrent sign-ups serialise on the list and none is lost or doubled.
 */
import { v, type Infer } from "convex/values";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { appError, ErrorCode } from "../errors";
import { enforceRateLimit } from "../rateLimits";
import { addDaysToDate, DAY_MS, isValidTimeZone, localDateString, MINUTE_MS, zonedEpoch } from "../lib/time";
import { hasCheckedIn, recordCheckIn } from "./checkIns";
import { canManageMic, isApprovedClaimant, isLocalDate } from "./claims";
import { logSet, MAX_SET_MINUTES } from "./performances";
import { displayNameFor } from "./profiles";
import { isAdmin, requireActiveItem } from "./scene";

export const MAX_SPOTS = 100;
export const MAX_WAITLIST_SPOTS = 100;
export const DEFAULT_WAITLIST_SPOTS = 10;
export const MAX_LIST_SET_MINUTES = 60;
export const DEFAULT_SET_MINUTES = 5;
export const MAX_LIGHT_MINUTES = 10;
export const MAX_NAME_LENGTH = 60;
/** Rows a list can hold: spots plus waitlist (and a pool of the same size before a draw). */
export const MAX_LIST_ROWS = MAX_SPOTS + MAX_WAITLIST_SPOTS;
/** A comedian's spots read for the in-app notices (newest first). */
export const MY_RECENT_LIMIT = 5;

export const LIST_CLOSED_MESSAGE = "This list is closed.";
export const LIST_CANCELLED_MESSAGE = "Tonight was cancelled, so the list is closed.";
export const ALREADY_ON_LIST_MESSAGE = "You're already on tonight's list.";
export const LIST_FULL_MESSAGE = "The list and its waitlist are full.";
export const STALE_LIST_MESSAGE =
  "The list changed while you were looking at it. Please try again on the updated list.";
export const NOT_HOST_MESSAGE = "Only the mic's host or an admin can run the list.";
export const NOT_ON_LIST_MESSAGE = "You're not on this list.";
export const SIGNUP_NOT_OPEN_MESSAGE = "Online sign-up hasn't opened yet.";

type Section = Doc<"listSpots">["section"];
type Spot = Doc<"listSpots">;
type List = Doc<"nightLists">;

function invalid(message: string): never {
  throw appError(ErrorCode.INVALID_INPUT, message);
}

function wholeNumber(value: number, label: string, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max)
    invalid(`${label} must be a whole number from ${min} to ${max}`);
  return value;
}

// ---------------------------------------------------------------------------
// Reading a list

async function spotsOf(ctx: QueryCtx, listId: Id<"nightLists">): Promise<Spot[]> {
  // MAX_LIST_ROWS bounds every list (sign-ups and walk-ins are refused past it).
  return await ctx.db
    .query("listSpots")
    .withIndex("by_list_and_user", (q) => q.eq("listId", listId))
    .take(2 * MAX_LIST_ROWS + 1);
}

function bySection(spots: Spot[], section: Section): Spot[] {
  return spots
    .filter((s) => s.section === section)
    .sort((a, b) => a.rank - b.rank || a._creationTime - b._creationTime);
}

/** Spots on the list that hold a place (a no-show gives theirs back). */
function takenCount(spots: Spot[]): number {
  return spots.filter((s) => s.section === "list" && s.state !== "no_show").length;
}

/** Who is up now and who is on deck (the first waiting spot after the running order's start). */
function upAndOnDeck(ordered: Spot[]): { up: Spot | null; onDeck: Spot | null } {
  const up = ordered.find((s) => s.state === "up") ?? null;
  const onDeck = ordered.find((s) => s.state === "waiting") ?? null;
  return { up, onDeck };
}

/** Writes ranks 0..n-1 (and the section) for the spots in the given order; only changed rows are patched. */
async function writeOrder(ctx: MutationCtx, section: Section, ordered: Spot[]): Promise<void> {
  for (const [i, spot] of ordered.entries()) {
    if (spot.rank !== i || spot.section !== section) {
      await ctx.db.patch("listSpots", spot._id, { rank: i, section });
      spot.rank = i;
      spot.section = section;
    }
  }
}

async function bumpVersion(ctx: MutationCtx, list: List): Promise<void> {
  await ctx.db.patch("nightLists", list._id, { version: list.version + 1 });
}

/** Whether the user runs lists at the mic: its approved claimant (or creator), or an admin. */
export async function canHost(ctx: QueryCtx, userId: Id<"users">, item: Doc<"sceneItems">): Promise<boolean> {
  return (await canManageMic(ctx, userId, item)) || (await isAdmin(ctx, userId));
}

async function requireList(ctx: QueryCtx, listId: Id<"nightLists">): Promise<List> {
  const list = await ctx.db.get("nightLists", listId);
  if (list === null) throw appError(ErrorCode.NOT_FOUND, "List not found");
  return list;
}

function requireOpen(list: List): void {
  if (list.status !== "open") {
    throw appError(
      ErrorCode.LIST_CLOSED,
      list.closedReason === "cancelled" ? LIST_CANCELLED_MESSAGE : LIST_CLOSED_MESSAGE,
    );
  }
}

/** The list for a host-only change: it exists, the caller hosts the mic (or is an admin). */
async function requireHostedList(
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

function requireVersion(list: List, version: number | undefined): void {
  if (version !== undefined && version !== list.version) throw appError(ErrorCode.LIST_STALE, STALE_LIST_MESSAGE);
}

function requireSpot(spots: Spot[], spotId: Id<"listSpots">): Spot {
  const spot = spots.find((s) => s._id === spotId);
  if (spot === undefined) throw appError(ErrorCode.NOT_FOUND, "That spot is no longer on the list.");
  return spot;
}

/**
 * The host's step on one spot: the caller hosts the list, it is open, the
 * version they saw is current (when given), and the spot is on it.
 */
async function hostedSpot(
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
// Opening a list

export const openArgsValidator = {
  micId: v.id("sceneItems"),
  /** The night, "YYYY-MM-DD" in the mic's time zone: yesterday, today or tomorrow there. */
  date: v.string(),
  spots: v.number(),
  waitlistSpots: v.optional(v.number()),
  /** Minutes; the mic's set length when absent. */
  setMinutes: v.optional(v.number()),
  lightMinutes: v.number(),
  mode: v.union(v.literal("first_come"), v.literal("lottery")),
  drawAt: v.optional(v.number()),
  bucket: v.optional(v.boolean()),
  /** Epoch ms; the list time (else the start time) of the night when absent. */
  signupOpensAt: v.optional(v.number()),
};
export type OpenArgs = {
  micId: Id<"sceneItems">;
  date: string;
  spots: number;
  waitlistSpots?: number;
  setMinutes?: number;
  lightMinutes: number;
  mode: "first_come" | "lottery";
  drawAt?: number;
  bucket?: boolean;
  signupOpensAt?: number;
};

function micTimeZone(item: Doc<"sceneItems">): string {
  return isValidTimeZone(item.timeZone) ? item.timeZone : "America/New_York";
}

/** Opens the night's list; the host or an admin only, one list per mic per night. */
export async function openList(
  ctx: MutationCtx,
  userId: Id<"users">,
  args: OpenArgs,
  nowMs: number,
): Promise<Id<"nightLists">> {
  const item = await requireActiveItem(ctx, args.micId);
  if (!(await canHost(ctx, userId, item))) throw appError(ErrorCode.FORBIDDEN, NOT_HOST_MESSAGE);
  const tz = micTimeZone(item);
  if (!isLocalDate(args.date)) invalid("Date must be written YYYY-MM-DD");
  const today = localDateString(nowMs, tz);
  if (args.date < addDaysToDate(today, -1) || args.date > addDaysToDate(today, 1)) {
    invalid("A list can be opened for tonight (or tomorrow) only");
  }
  if ((item.cancelledDates ?? []).includes(args.date)) throw appError(ErrorCode.LIST_CLOSED, LIST_CANCELLED_MESSAGE);
  const existing = await ctx.db
    .query("nightLists")
    .withIndex("by_mic_and_date", (q) => q.eq("micId", args.micId).eq("date", args.date))
    .first();
  if (existing !== null) throw appError(ErrorCode.ALREADY_EXISTS, "Tonight's list is already open.");

  const spots = wholeNumber(args.spots, "Spots", 1, MAX_SPOTS);
  const waitlistSpots = wholeNumber(
    args.waitlistSpots ?? DEFAULT_WAITLIST_SPOTS,
    "Waitlist places",
    0,
    MAX_WAITLIST_SPOTS,
  );
  const setMinutes = wholeNumber(
    args.setMinutes ??
      Math.min(MAX_LIST_SET_MINUTES, Math.max(1, Math.round(item.performanceMinutes ?? DEFAULT_SET_MINUTES))),
    "Set length",
    1,
    MAX_LIST_SET_MINUTES,
  );
  const lightMinutes = wholeNumber(args.lightMinutes, "The light", 0, Math.min(MAX_LIGHT_MINUTES, setMinutes - 1));
  const windowStart = nowMs - DAY_MS;
  const windowEnd = nowMs + 2 * DAY_MS;
  const inWindow = (ms: number) => Number.isFinite(ms) && ms >= windowStart && ms <= windowEnd;

  let drawAt: number | undefined;
  // Only a lottery uses the draw time, but a non-finite one is refused whatever the mode.
  if (args.drawAt !== undefined && !inWindow(args.drawAt)) invalid("The draw must be within a day of tonight");
  if (args.mode === "lottery") {
    if (args.drawAt === undefined) invalid("Please choose when the lottery is drawn");
    if (!inWindow(args.drawAt)) invalid("The draw must be within a day of tonight");
    drawAt = args.drawAt;
  }
  const time = item.listTimeLocal ?? item.startTimeLocal;
  let signupOpensAt: number;
  if (args.signupOpensAt !== undefined) {
    if (!inWindow(args.signupOpensAt)) invalid("Sign-up must open within a day of tonight");
    signupOpensAt = args.signupOpensAt;
  } else {
    signupOpensAt = time ? zonedEpoch(args.date, time, tz) : nowMs;
  }

  const listId = await ctx.db.insert("nightLists", {
    micId: args.micId,
    date: args.date,
    status: "open",
    openedBy: userId,
    spots,
    waitlistSpots,
    setMinutes,
    lightMinutes,
    mode: args.mode,
    ...(drawAt !== undefined ? { drawAt } : {}),
    bucket: args.mode === "lottery" && args.bucket === true,
    signupOpensAt,
    version: 1,
  });
  return listId;
}

// ---------------------------------------------------------------------------
// Placing a new name

/** Whether the comedian was bumped or left on the waitlist at the mic's previous list. */
export async function hasPriority(
  ctx: QueryCtx,
  userId: Id<"users">,
  micId: Id<"sceneItems">,
  beforeDate: string,
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
  userId: Id<"users">,
  listId: Id<"nightLists">,
  nowMs: number,
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
    hasPriority(ctx, userId, list.micId, list.date),
  ]);
  const spotId = await placeNew(ctx, list, spots, { userId, name, priority }, { walkIn: false });
  const spot = (await ctx.db.get("listSpots", spotId))!;
  return { spotId, section: spot.section };
}

/** The host adds a walk-in by name (no account needed). */
export async function addWalkIn(
  ctx: MutationCtx,
  userId: Id<"users">,
  listId: Id<"nightLists">,
  rawName: string,
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
async function promoteFromWaitlist(
  ctx: MutationCtx,
  list: List,
  spots: Spot[],
  except?: Id<"listSpots">,
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
  if (mine.section === "list") await promoteFromWaitlist(ctx, list, spots);
  await bumpVersion(ctx, list);
  return null;
}

// ---------------------------------------------------------------------------
// Running the night (host or admin)

/** Moves a spot to another place in its section (list or waitlist), against the version the host saw. */
export async function moveSpot(
  ctx: MutationCtx,
  userId: Id<"users">,
  args: { listId: Id<"nightLists">; spotId: Id<"listSpots">; toIndex: number; version: number },
): Promise<null> {
  const { list, spots, spot } = await hostedSpot(ctx, userId, args);
  if (spot.section === "pool") invalid("The lottery hasn't been drawn yet.");
  const ordered = bySection(spots, spot.section);
  if (!Number.isInteger(args.toIndex) || args.toIndex < 0 || args.toIndex >= ordered.length) {
    invalid("That place is not on the list.");
  }
  const from = ordered.findIndex((s) => s._id === spot._id);
  ordered.splice(from, 1);
  ordered.splice(args.toIndex, 0, spot);
  await writeOrder(ctx, spot.section, ordered);
  await bumpVersion(ctx, list);
  return null;
}

/** Moves a waiting spot from the list to the top of the waitlist; the next waitlisted name takes its place. */
export async function bump(
  ctx: MutationCtx,
  userId: Id<"users">,
  args: { listId: Id<"nightLists">; spotId: Id<"listSpots">; version: number },
): Promise<null> {
  const { list, spots, spot } = await hostedSpot(ctx, userId, args);
  if (spot.section !== "list" || spot.state !== "waiting") invalid("Only someone waiting on the list can be bumped.");
  await ctx.db.patch("listSpots", spot._id, { bumped: true });
  spot.bumped = true;
  // The freed place goes to the first waitlisted name; the bumped one then
  // heads the waitlist (past its cap if need be: nobody is dropped).
  spot.section = "waitlist";
  spot.rank = -1;
  await promoteFromWaitlist(ctx, list, spots, spot._id);
  await writeOrder(ctx, "waitlist", bySection(spots, "waitlist"));
  await writeOrder(ctx, "list", bySection(spots, "list"));
  await bumpVersion(ctx, list);
  return null;
}

/** Marks a waiting spot a no-show; their place goes to the first waitlisted name. */
export async function noShow(
  ctx: MutationCtx,
  userId: Id<"users">,
  args: { listId: Id<"nightLists">; spotId: Id<"listSpots">; version: number },
): Promise<null> {
  const { list, spots, spot } = await hostedSpot(ctx, userId, args);
  if (spot.section !== "list" || spot.state !== "waiting")
    invalid("Only someone waiting on the list can be marked a no-show.");
  await ctx.db.patch("listSpots", spot._id, { state: "no_show" });
  spot.state = "no_show";
  await promoteFromWaitlist(ctx, list, spots);
  await bumpVersion(ctx, list);
  return null;
}

/**
 * Draws the lottery with the server's randomness: priority names first (in a
 * random order among themselves), then everyone else. The draw order is kept
 * on each spot (`drawIndex`) for anyone to see; the first names fill the free
 * spots, the rest go to the waitlist in draw order.
 */
export async function drawLottery(ctx: MutationCtx, list: List, nowMs: number): Promise<number> {
  requireOpen(list);
  if (list.mode !== "lottery") invalid("This list is first come, first served.");
  if (list.drawnAt !== undefined) invalid("The lottery has already been drawn.");
  const spots = await spotsOf(ctx, list._id);
  const pool = bySection(spots, "pool");
  const shuffle = (xs: Spot[]) => {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [xs[i], xs[j]] = [xs[j], xs[i]];
    }
    return xs;
  };
  const drawn = [...shuffle(pool.filter((s) => s.priority)), ...shuffle(pool.filter((s) => !s.priority))];
  const listed = bySection(spots, "list");
  const waitlist = bySection(spots, "waitlist");
  let free = list.spots - takenCount(spots);
  for (const [i, spot] of drawn.entries()) {
    if (free > 0) {
      await ctx.db.patch("listSpots", spot._id, { section: "list", rank: listed.length, drawIndex: i + 1 });
      listed.push(spot);
      free--;
    } else {
      await ctx.db.patch("listSpots", spot._id, { section: "waitlist", rank: waitlist.length, drawIndex: i + 1 });
      waitlist.push(spot);
    }
  }
  await ctx.db.patch("nightLists", list._id, { drawnAt: nowMs, version: list.version + 1 });
  return drawn.length;
}

export async function drawByHost(
  ctx: MutationCtx,
  userId: Id<"users">,
  listId: Id<"nightLists">,
  nowMs: number,
): Promise<number> {
  const { list } = await requireHostedList(ctx, userId, listId);
  return await drawLottery(ctx, list, nowMs);
}

/** The scheduled draw at the list's draw time; nothing when the host drew already or the list closed. */
export async function drawDue(ctx: MutationCtx, listId: Id<"nightLists">, nowMs: number): Promise<null> {
  const list = await ctx.db.get("nightLists", listId);
  if (list === null || list.status !== "open" || list.drawnAt !== undefined || list.mode !== "lottery") return null;
  await drawLottery(ctx, list, nowMs);
  return null;
}

/** Puts a waiting comedian on stage ("Up now"); the one after them is then on deck. */
export async function upNow(
  ctx: MutationCtx,
  userId: Id<"users">,
  args: { listId: Id<"nightLists">; spotId: Id<"listSpots"> },
  nowMs: number,
): Promise<null> {
  const { list, spots, spot } = await hostedSpot(ctx, userId, args);
  if (spot.section !== "list" || spot.state !== "waiting") invalid("Only someone waiting on the list can go up.");
  const current = spots.find((s) => s.state === "up");
  if (current !== undefined) invalid(`${current.name} is still up: mark their set done first.`);
  await ctx.db.patch("listSpots", spot._id, { state: "up", startedAt: nowMs });
  await bumpVersion(ctx, list);
  return null;
}

/**
 * Ends the set on stage ("Done"). A comedian with an account gets the set
 * logged by the same code as the log wizard (stats, streak, goal, badges), at
 * the mic, for the list's set length or the timer's whole minutes; and the
 * night counts as their check-in for the mic's verification.
 */
export async function done(
  ctx: MutationCtx,
  userId: Id<"users">,
  args: { listId: Id<"nightLists">; spotId: Id<"listSpots">; useTimer: boolean },
  nowMs: number,
): Promise<{ performanceId: Id<"performances"> | null; minutes: number }> {
  const { list, item, spot } = await hostedSpot(ctx, userId, args);
  if (spot.state !== "up") invalid("Only the comedian who is up can be marked done.");
  const timed = args.useTimer && spot.startedAt !== undefined ? Math.round((nowMs - spot.startedAt) / MINUTE_MS) : null;
  const minutes = Math.min(MAX_SET_MINUTES, Math.max(1, timed ?? list.setMinutes));
  let performanceId: Id<"performances"> | null = null;
  if (spot.userId !== undefined) {
    const logged = await logSet(
      ctx,
      spot.userId,
      { minutes, performedAt: nowMs, sceneItemId: list.micId, tags: [] },
      nowMs,
    );
    performanceId = logged.performanceId;
    // A Done vouches for presence only from a vetted host (an admin, or a claimant an admin
    // approved) about someone else: a mic's creator could otherwise open a list on a mic they
    // made up and "check in" puppets, or themselves, from anywhere.
    const vouched =
      spot.userId !== userId && ((await isAdmin(ctx, userId)) || (await isApprovedClaimant(ctx, userId, item._id)));
    if (vouched && !(await hasCheckedIn(ctx, spot.userId, list.micId, list.date))) {
      const fresh = (await ctx.db.get("sceneItems", item._id)) ?? item;
      await recordCheckIn(ctx, { userId: spot.userId, item: fresh, localDate: list.date, nowMs });
    }
  }
  await ctx.db.patch("listSpots", spot._id, {
    state: "done",
    endedAt: nowMs,
    loggedMinutes: minutes,
    ...(performanceId !== null ? { performanceId } : {}),
  });
  await bumpVersion(ctx, list);
  return { performanceId, minutes };
}

/** The host ends the night: the list closes; whoever is still waitlisted gets priority next time. */
export async function closeList(ctx: MutationCtx, userId: Id<"users">, listId: Id<"nightLists">): Promise<null> {
  const { list } = await requireHostedList(ctx, userId, listId);
  requireOpen(list);
  await ctx.db.patch("nightLists", list._id, { status: "closed", closedReason: "ended", version: list.version + 1 });
  return null;
}

/**
 * Cancelling a night closes its list (everyone on it sees "cancelled" live and
 * gets a notice); restoring the night reopens a list that was closed by the cancel.
 */
export async function onNightCancelled(
  ctx: MutationCtx,
  micId: Id<"sceneItems">,
  date: string,
  cancelled: boolean,
): Promise<void> {
  const list = await ctx.db
    .query("nightLists")
    .withIndex("by_mic_and_date", (q) => q.eq("micId", micId).eq("date", date))
    .first();
  if (list === null) return;
  if (cancelled && list.status === "open") {
    await ctx.db.patch("nightLists", list._id, {
      status: "closed",
      closedReason: "cancelled",
      version: list.version + 1,
    });
  } else if (!cancelled && list.closedReason === "cancelled") {
    await ctx.db.patch("nightLists", list._id, { status: "open", closedReason: undefined, version: list.version + 1 });
  }
}

// ---------------------------------------------------------------------------
// What screens show

export const spotViewValidator = v.object({
  _id: v.id("listSpots"),
  name: v.string(),
  section: v.union(v.literal("pool"), v.literal("list"), v.literal("waitlist")),
  /** 1-based place in its section. */
  place: v.number(),
  state: v.union(v.literal("waiting"), v.literal("up"), v.literal("done"), v.literal("no_show")),
  walkIn: v.boolean(),
  priority: v.boolean(),
  bumped: v.boolean(),
  drawIndex: v.union(v.number(), v.null()),
  loggedMinutes: v.union(v.number(), v.null()),
  isMine: v.boolean(),
  onDeck: v.boolean(),
});
export type SpotView = Infer<typeof spotViewValidator>;

export const listViewValidator = v.object({
  _id: v.id("nightLists"),
  micId: v.id("sceneItems"),
  micTitle: v.string(),
  timeZone: v.string(),
  date: v.string(),
  status: v.union(v.literal("open"), v.literal("closed")),
  closedReason: v.union(v.literal("ended"), v.literal("cancelled"), v.null()),
  spots: v.number(),
  waitlistSpots: v.number(),
  setMinutes: v.number(),
  lightMinutes: v.number(),
  mode: v.union(v.literal("first_come"), v.literal("lottery")),
  drawAt: v.union(v.number(), v.null()),
  drawnAt: v.union(v.number(), v.null()),
  bucket: v.boolean(),
  signupOpensAt: v.number(),
  version: v.number(),
  taken: v.number(),
  /** The running order, the waitlist and (before a draw) the lottery pool, each in order. */
  list: v.array(spotViewValidator),
  waitlist: v.array(spotViewValidator),
  pool: v.array(spotViewValidator),
  upNow: v.union(spotViewValidator, v.null()),
  onDeck: v.union(spotViewValidator, v.null()),
  upStartedAt: v.union(v.number(), v.null()),
});
export type ListView = Infer<typeof listViewValidator>;

export const currentResultValidator = v.object({
  list: v.union(listViewValidator, v.null()),
  canHost: v.boolean(),
  /** The viewer was bumped or waitlisted at the mic's last list: placed first at the next one. */
  hasPriority: v.boolean(),
});

function toView(list: List, item: Doc<"sceneItems">, spots: Spot[], viewer: Id<"users"> | null): ListView {
  const listed = bySection(spots, "list");
  const { up, onDeck } = upAndOnDeck(listed);
  const view = (s: Spot, i: number): SpotView => ({
    _id: s._id,
    name: s.name,
    section: s.section,
    place: i + 1,
    state: s.state,
    walkIn: s.userId === undefined,
    priority: s.priority,
    bumped: s.bumped,
    drawIndex: s.drawIndex ?? null,
    loggedMinutes: s.loggedMinutes ?? null,
    isMine: viewer !== null && s.userId === viewer,
    onDeck: onDeck !== null && s._id === onDeck._id,
  });
  const listViews = listed.map(view);
  return {
    _id: list._id,
    micId: list.micId,
    micTitle: item.title,
    timeZone: micTimeZone(item),
    date: list.date,
    status: list.status,
    closedReason: list.closedReason ?? null,
    spots: list.spots,
    waitlistSpots: list.waitlistSpots,
    setMinutes: list.setMinutes,
    lightMinutes: list.lightMinutes,
    mode: list.mode,
    drawAt: list.drawAt ?? null,
    drawnAt: list.drawnAt ?? null,
    bucket: list.bucket,
    signupOpensAt: list.signupOpensAt,
    version: list.version,
    taken: takenCount(spots),
    list: listViews,
    waitlist: bySection(spots, "waitlist").map(view),
    pool: bySection(spots, "pool").map(view),
    upNow: up === null ? null : (listViews.find((s) => s._id === up._id) ?? null),
    onDeck: onDeck === null ? null : (listViews.find((s) => s._id === onDeck._id) ?? null),
    upStartedAt: up?.startedAt ?? null,
  };
}

/**
 * The mic's latest list on or after `sinceDate` (the client passes yesterday
 * in the mic's zone, so a night running past midnight stays current), with
 * whether the viewer hosts it and has priority there.
 */
export async function current(
  ctx: QueryCtx,
  viewer: Id<"users"> | null,
  micId: Id<"sceneItems">,
  sinceDate: string,
): Promise<Infer<typeof currentResultValidator>> {
  if (!isLocalDate(sinceDate)) invalid("Date must be written YYYY-MM-DD");
  const item = await ctx.db.get("sceneItems", micId);
  if (item === null || item.status !== "active") return { list: null, canHost: false, hasPriority: false };
  const list = await ctx.db
    .query("nightLists")
    .withIndex("by_mic_and_date", (q) => q.eq("micId", micId).gte("date", sinceDate))
    .order("desc")
    .first();
  const [spots, host, priority] = await Promise.all([
    list === null ? Promise.resolve([]) : spotsOf(ctx, list._id),
    viewer === null ? Promise.resolve(false) : canHost(ctx, viewer, item),
    viewer === null
      ? Promise.resolve(false)
      : hasPriority(ctx, viewer, micId, list?.date ?? addDaysToDate(sinceDate, 2)),
  ]);
  return { list: list === null ? null : toView(list, item, spots, viewer), canHost: host, hasPriority: priority };
}

export const myRecentValidator = v.object({
  spotId: v.id("listSpots"),
  listId: v.id("nightLists"),
  micId: v.id("sceneItems"),
  micTitle: v.string(),
  date: v.string(),
  listStatus: v.union(v.literal("open"), v.literal("closed")),
  closedReason: v.union(v.literal("ended"), v.literal("cancelled"), v.null()),
  section: v.union(v.literal("pool"), v.literal("list"), v.literal("waitlist")),
  state: v.union(v.literal("waiting"), v.literal("up"), v.literal("done"), v.literal("no_show")),
  onDeck: v.boolean(),
  name: v.string(),
  performanceId: v.union(v.id("performances"), v.null()),
});

/** The comedian's newest spots with their lists' state, for the in-app notices ("You're on deck", set logged, cancelled). */
export async function myRecent(ctx: QueryCtx, userId: Id<"users">): Promise<Infer<typeof myRecentValidator>[]> {
  const mine = await ctx.db
    .query("listSpots")
    .withIndex("by_user", (q) => q.eq("userId", userId))
    .order("desc")
    .take(MY_RECENT_LIMIT);
  const out: Infer<typeof myRecentValidator>[] = [];
  for (const spot of mine) {
    const [list, item] = await Promise.all([
      ctx.db.get("nightLists", spot.listId),
      ctx.db.get("sceneItems", spot.micId),
    ]);
    if (list === null || item === null) continue;
    let onDeck = false;
    if (spot.section === "list" && spot.state === "waiting" && list.status === "open") {
      const listed = bySection(await spotsOf(ctx, list._id), "list");
      onDeck = upAndOnDeck(listed).onDeck?._id === spot._id;
    }
    out.push({
      spotId: spot._id,
      listId: list._id,
      micId: spot.micId,
      micTitle: item.title,
      date: list.date,
      listStatus: list.status,
      closedReason: list.closedReason ?? null,
      section: spot.section,
      state: spot.state,
      onDeck,
      name: spot.name,
      performanceId: spot.performanceId ?? null,
    });
  }
  return out;
}

/** Drops a deleted comedian's spots (account deletion); their lists move up. */
export async function removeUserSpots(ctx: MutationCtx, userId: Id<"users">, limit: number): Promise<number> {
  const rows = await ctx.db
    .query("listSpots")
    .withIndex("by_user", (q) => q.eq("userId", userId))
    .take(limit);
  for (const row of rows) await ctx.db.delete("listSpots", row._id);
  return rows.length;
}
