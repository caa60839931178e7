/** Running the night: the host (or an admin) orders the list, draws the lottery, calls comedians up and closes it. */

import type { Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";

import { appError, ErrorCode } from "../errors";
import { MINUTE_MS } from "../lib/time";
import { hasCheckedIn, recordCheckIn } from "./checkIns";
import { isAdmin, isApprovedClaimant } from "./access";
import { logSet, MAX_SET_MINUTES } from "./performances";

import { walkInName } from "../lib/nightListRules";
import { invalid } from "../lib/textRules";
import {
  bumpVersion,
  bySection,
  hostedSpot,
  promoteFromWaitlist,
  requireHostedList,
  requireOpen,
  settledSpotsOf,
  takenCount,
  writeOrder,
  type List,
  type Spot,
} from "./nightLists";
import { settle } from "./nightListPlacement";

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
  await promoteFromWaitlist(ctx, { list, spots, except: spot._id });
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
  await promoteFromWaitlist(ctx, { list, spots });
  await bumpVersion(ctx, list);
  return null;
}

/**
 * Takes a name off the list, whatever its section (the pool, a walk-in, a
 * spam account): a walk-in's row goes; a comedian's stays as "removed", so
 * they cannot sign up again tonight. A freed place goes to the waitlist.
 */
export async function removeSpot(
  ctx: MutationCtx,
  userId: Id<"users">,
  args: { listId: Id<"nightLists">; spotId: Id<"listSpots">; version: number },
): Promise<null> {
  const { list, spots, spot } = await hostedSpot(ctx, userId, args);
  if (spot.state === "up" || spot.state === "done") invalid("A set that has started stays on the list.");
  const section = spot.section;
  const rest = spots.filter((s) => s._id !== spot._id);
  if (spot.userId === undefined) await ctx.db.delete("listSpots", spot._id);
  else await ctx.db.patch("listSpots", spot._id, { section: "removed", rank: 0 });
  await writeOrder(ctx, section, bySection(rest, section));
  if (section === "list" && spot.state === "waiting") await promoteFromWaitlist(ctx, { list, spots: rest });
  await bumpVersion(ctx, list);
  return null;
}

/**
 * Corrects a walk-in's name (a comedian's own spot shows their profile name).
 * Only the spot's row is written, so a rename never conflicts with sign-ups
 * or makes the host's next reorder stale.
 */
export async function renameWalkIn(
  ctx: MutationCtx,
  {
    userId,
    listId,
    spotId,
    rawName,
  }: { userId: Id<"users">; listId: Id<"nightLists">; spotId: Id<"listSpots">; rawName: string },
): Promise<null> {
  const name = walkInName(rawName);
  const { list } = await requireHostedList(ctx, userId, listId);
  requireOpen(list);
  const spot = await ctx.db.get("listSpots", spotId);
  if (spot === null || spot.listId !== listId || spot.section === "removed") {
    throw appError(ErrorCode.NOT_FOUND, "That spot is no longer on the list.");
  }
  if (spot.userId !== undefined) invalid("Only a walk-in's name can be changed; comedians set their own.");
  await ctx.db.patch("listSpots", spot._id, { name });
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
  const spots = await settledSpotsOf(ctx, list);
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
  { userId, listId, nowMs }: { userId: Id<"users">; listId: Id<"nightLists">; nowMs: number },
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
    const logged = await logSet(ctx, {
      userId: spot.userId,
      set: { minutes, performedAt: nowMs, sceneItemId: list.micId, tags: [] },
      nowMs,
    });
    performanceId = logged.performanceId;
    // A Done vouches for presence only from a vetted host (an admin, or a claimant an admin
    // approved) about someone else: a mic's creator could otherwise open a list on a mic they
    // made up and "check in" puppets, or themselves, from anywhere.
    const vouched =
      spot.userId !== userId && ((await isAdmin(ctx, userId)) || (await isApprovedClaimant(ctx, userId, item._id)));
    if (vouched && !(await hasCheckedIn(ctx, { userId: spot.userId, sceneItemId: list.micId, localDate: list.date }))) {
      await recordCheckIn(ctx, { userId: spot.userId, sceneItemId: item._id, localDate: list.date, nowMs });
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
  // Places the pending sign-ups for good: next week's priority reads where they ended.
  await settle(ctx, list);
  await ctx.db.patch("nightLists", list._id, { status: "closed", closedReason: "ended", version: list.version + 1 });
  return null;
}

/**
 * Cancelling a night closes its list (everyone on it sees "cancelled" live and
 * gets a notice); restoring the night reopens a list that was closed by the cancel.
 */
export async function onNightCancelled(
  ctx: MutationCtx,
  { micId, date, cancelled }: { micId: Id<"sceneItems">; date: string; cancelled: boolean },
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
