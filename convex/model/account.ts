/**
 * Account deletion (profile page). The first transaction ends the account:
 * the comedian can no longer sign in or act, and nothing shows them to
 * anyone (profile, the mics they added, live lists, community totals). Their
 * other rows then go in batches, each a transaction that stops while it is
 * still well inside Convex's limits ({@link DeletionBudget}) and schedules the
 * next; the triggers keep every derived figure right as rows go, and the mics
 * they added stay for the community, unlinked from them.
 */
import type { Doc, Id, TableNames } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { MAX_BIT_TAGS } from "../lib/bitRules";
import { MAX_LIST_ROWS } from "../lib/nightListRules";
import { type Cost, DeletionBudget, plus, times } from "./accountBudget";
import { purgeRecountReads, recountAfterPurge } from "./micTriggers";
import { bumpVersion, bySection, promoteFromWaitlist, spotsOf, writeOrder } from "./nightLists";
import { getProfile } from "./profiles";

/**
 * Rows removed per transaction at most: with the triggers' work for each,
 * far inside the 1 s of JavaScript a Convex mutation may run.
 */
export const DELETE_BATCH_SIZE = 1000;

/** Rows read and removed between two looks at the transaction's headroom. */
const CHUNK = 50;

/**
 * The most each removal costs, triggers included (the trigger wrapper reads
 * a row before writing it; see convex/triggers.ts).
 */
const COST = {
  /** A row no trigger follows: its read and delete. */
  row: { queries: 1, reads: 1, writes: 1 },
  /** A set: also the triggers' look-ups (stats: its comedian, gone; material: its review, gone before; week streak and season): 5 index ranges measured. */
  set: { queries: 6, reads: 4, writes: 1 },
  /** A rating: its read and the material trigger's look-up of its bit (gone before it). */
  rating: { queries: 2, reads: 2, writes: 1 },
  /** Unlinking a mic: the patch's two reads and the venues-added trigger's look-up of the (gone) creator. */
  mic: { queries: 3, reads: 3, writes: 1 },
  /** A check-in: its read, the mic, the newest check-in left, the comedian, the mic's patch (two reads). */
  checkIn: { queries: 6, reads: 6, writes: 2 },
  /** The mic read again after its check-ins of the comedian are gone, and a patch of its verification. */
  recount: { queries: 3, reads: 3, writes: 1 },
  /** Leaving an open live list (the spot and its list read first): its spots, and every spot's rank rewritten (two reads a patch). */
  listSpot: { queries: 4 * MAX_LIST_ROWS + 8, reads: 6 * MAX_LIST_ROWS + 8, writes: 2 * MAX_LIST_ROWS + 4 },
  /**
   * A favourite or schedule entry: its read and delete, and the follower trigger's look at the
   * follower row, the favourite, up to 20 entries and the choices, then the row's one write.
   */
  follow: { queries: 6, reads: 25, writes: 2 },
  /** A bit: its read, and its tag rows (model/bitTriggers) read and removed. */
  bit: { queries: 2, reads: 2 + 2 * MAX_BIT_TAGS, writes: 1 + MAX_BIT_TAGS },
} satisfies Record<string, Cost>;

/**
 * Ends the account in the first transaction: its stats row and profile go
 * (the community totals lose its minutes and one comedian, model/statsTriggers),
 * with the photo, the sign-in accounts and their codes, and the user row, so
 * every session it holds is refused from now on (convex/functions.ts). A
 * comedian has a handful of sign-in accounts and codes; the rest of their
 * rows (sessions first) go in {@link purgeOwnedRows}.
 */
export async function removeAccount(ctx: MutationCtx, userId: Id<"users">): Promise<void> {
  const [profile, stats] = await Promise.all([
    getProfile(ctx, userId),
    ctx.db
      .query("userStats")
      .withIndex("by_userId", (q) => q.eq("userId", userId))
      .unique(),
  ]);
  if (stats !== null) await ctx.db.delete("userStats", stats._id);
  if (profile !== null) {
    if (profile.photoStorageId !== undefined) {
      const photo = await ctx.db.system.get("_storage", profile.photoStorageId);
      if (photo !== null) await ctx.storage.delete(profile.photoStorageId);
    }
    await ctx.db.delete("profiles", profile._id);
  }
  const accounts = await ctx.db
    .query("authAccounts")
    .withIndex("userIdAndProvider", (q) => q.eq("userId", userId))
    .take(100);
  for (const account of accounts) {
    const codes = await ctx.db
      .query("authVerificationCodes")
      .withIndex("accountId", (q) => q.eq("accountId", account._id))
      .take(100);
    for (const code of codes) await ctx.db.delete("authVerificationCodes", code._id);
    await ctx.db.delete("authAccounts", account._id);
  }
  const user = await ctx.db.get("users", userId);
  if (user !== null) await ctx.db.delete("users", userId);
}

/** One kind of row: removes what fits of it, true once none is left. */
type Step = (budget: DeletionBudget) => Promise<boolean>;

/**
 * Removes what fits in this transaction of the deleted comedian's rows
 * (sessions, the link to the mics they added, live-list spots, claims,
 * reports, favourites, schedule, check-ins with their mics' figures, bits,
 * ratings, set lists, sets, days, venue visits, badges), in that order: what could show them to others
 * goes first, so the first transaction normally clears it. Returns true once
 * nothing is left, false when another batch is needed.
 */
export async function purgeOwnedRows(
  ctx: MutationCtx,
  userId: Id<"users">,
  maxRows: number = DELETE_BATCH_SIZE,
): Promise<boolean> {
  const budget = new DeletionBudget(ctx, maxRows);

  /** Rows `read` returns, `cost` each, removed a chunk at a time by `remove`. */
  const drain =
    <R>(read: (n: number) => Promise<R[]>, cost: Cost, remove: (row: R) => Promise<void>): Step =>
    async (b) => {
      for (;;) {
        const n = Math.min(CHUNK, b.rowsLeft);
        if (n === 0 || !(await b.fits(times(cost, n), n))) return false;
        const rows = await read(n);
        for (const row of rows) await remove(row);
        b.spend(rows.length);
        if (rows.length < n) return true;
      }
    };
  const deleteRow =
    <T extends TableNames>(table: T) =>
    async (row: Doc<T>) => {
      await ctx.db.delete(table, row._id);
    };

  const steps: Step[] = [
    sessionsStep(ctx, userId),
    drain(
      (n) =>
        ctx.db
          .query("sceneItems")
          .withIndex("by_createdBy", (q) => q.eq("createdBy", userId))
          .take(n),
      COST.mic,
      // The community keeps the mic; it just no longer names its creator.
      async (row) => await ctx.db.patch("sceneItems", row._id, { createdBy: undefined }),
    ),
    listSpotsStep(ctx, userId),
    drain(
      (n) =>
        ctx.db
          .query("micClaims")
          .withIndex("by_claimant", (q) => q.eq("claimantId", userId))
          .take(n),
      COST.row,
      deleteRow("micClaims"),
    ),
    drain(
      (n) =>
        ctx.db
          .query("problemReports")
          .withIndex("by_reporter", (q) => q.eq("reporterId", userId))
          .take(n),
      COST.row,
      deleteRow("problemReports"),
    ),
    drain(
      (n) =>
        ctx.db
          .query("favorites")
          .withIndex("by_user_and_item", (q) => q.eq("userId", userId))
          .take(n),
      COST.follow,
      deleteRow("favorites"),
    ),
    drain(
      (n) =>
        ctx.db
          .query("scheduleEntries")
          .withIndex("by_user_and_item", (q) => q.eq("userId", userId))
          .take(n),
      COST.follow,
      deleteRow("scheduleEntries"),
    ),
    // Normally gone with the favourites and entries above (model/micFollowers).
    drain(
      (n) =>
        ctx.db
          .query("micFollowers")
          .withIndex("by_user_and_mic", (q) => q.eq("userId", userId))
          .take(n),
      COST.row,
      deleteRow("micFollowers"),
    ),
    checkInsStep(ctx, userId),
    // A bit's tag rows go with it (model/bitTriggers).
    drain(
      (n) =>
        ctx.db
          .query("bits")
          .withIndex("by_user_and_archived_and_title", (q) => q.eq("userId", userId))
          .take(n),
      COST.bit,
      deleteRow("bits"),
    ),
    drain(
      (n) =>
        ctx.db
          .query("bitRatings")
          .withIndex("by_user_and_time", (q) => q.eq("userId", userId))
          .take(n),
      COST.rating,
      deleteRow("bitRatings"),
    ),
    drain(
      (n) =>
        ctx.db
          .query("bitRooms")
          .withIndex("by_user_and_room", (q) => q.eq("userId", userId))
          .take(n),
      COST.row,
      deleteRow("bitRooms"),
    ),
    drain(
      (n) =>
        ctx.db
          .query("bitMonths")
          .withIndex("by_user_and_month", (q) => q.eq("userId", userId))
          .take(n),
      COST.row,
      deleteRow("bitMonths"),
    ),
    drain(
      (n) =>
        ctx.db
          .query("setReviews")
          .withIndex("by_user_and_status_and_time", (q) => q.eq("userId", userId))
          .take(n),
      COST.row,
      deleteRow("setReviews"),
    ),
    drain(
      (n) =>
        ctx.db
          .query("setLists")
          .withIndex("by_user", (q) => q.eq("userId", userId))
          .take(n),
      COST.row,
      deleteRow("setLists"),
    ),
    drain(
      (n) =>
        ctx.db
          .query("setClientKeys")
          .withIndex("by_user_and_clientKey", (q) => q.eq("userId", userId))
          .take(n),
      COST.row,
      deleteRow("setClientKeys"),
    ),
    drain(
      (n) =>
        ctx.db
          .query("performances")
          .withIndex("by_user_and_performedAt", (q) => q.eq("userId", userId))
          .take(n),
      COST.set,
      deleteRow("performances"),
    ),
    drain(
      (n) =>
        ctx.db
          .query("performanceDays")
          .withIndex("by_user_and_date", (q) => q.eq("userId", userId))
          .take(n),
      COST.row,
      deleteRow("performanceDays"),
    ),
    drain(
      (n) =>
        ctx.db
          .query("performanceWeeks")
          .withIndex("by_user_and_week", (q) => q.eq("userId", userId))
          .take(n),
      COST.row,
      deleteRow("performanceWeeks"),
    ),
    drain(
      (n) =>
        ctx.db
          .query("seasonShares")
          .withIndex("by_userId", (q) => q.eq("userId", userId))
          .take(n),
      COST.row,
      deleteRow("seasonShares"),
    ),
    drain(
      (n) =>
        ctx.db
          .query("seasonMonths")
          .withIndex("by_user_and_month", (q) => q.eq("userId", userId))
          .take(n),
      COST.row,
      deleteRow("seasonMonths"),
    ),
    drain(
      (n) =>
        ctx.db
          .query("venueVisits")
          .withIndex("by_user_and_item", (q) => q.eq("userId", userId))
          .take(n),
      COST.row,
      deleteRow("venueVisits"),
    ),
    drain(
      (n) =>
        ctx.db
          .query("pushSubscriptions")
          .withIndex("by_user", (q) => q.eq("userId", userId))
          .take(n),
      COST.row,
      deleteRow("pushSubscriptions"),
    ),
    drain(
      (n) =>
        ctx.db
          .query("notificationPrefs")
          .withIndex("by_userId", (q) => q.eq("userId", userId))
          .take(n),
      COST.row,
      deleteRow("notificationPrefs"),
    ),
    drain(
      (n) =>
        ctx.db
          .query("notificationMutes")
          .withIndex("by_user_and_mic", (q) => q.eq("userId", userId))
          .take(n),
      COST.row,
      deleteRow("notificationMutes"),
    ),
    drain(
      (n) =>
        ctx.db
          .query("notifications")
          .withIndex("by_user", (q) => q.eq("userId", userId))
          .take(n),
      COST.row,
      deleteRow("notifications"),
    ),
    drain(
      (n) =>
        ctx.db
          .query("userBadges")
          .withIndex("by_user_and_code", (q) => q.eq("userId", userId))
          .take(n),
      COST.row,
      deleteRow("userBadges"),
    ),
  ];
  for (const step of steps) {
    if (await step(budget)) continue;
    // A batch that removed nothing would schedule the same batch forever.
    if (budget.rowsLeft === maxRows) throw new Error("Account deletion: a batch could not remove a single row");
    return false;
  }
  return true;
}

/** The sessions, each after its refresh tokens (a long-lived session can hold many). */
function sessionsStep(ctx: MutationCtx, userId: Id<"users">): Step {
  return async (b) => {
    for (;;) {
      const n = Math.min(CHUNK, b.rowsLeft - 1);
      if (n <= 0 || !(await b.fits(times(COST.row, n + 1), n + 1))) return false;
      const session = await ctx.db
        .query("authSessions")
        .withIndex("userId", (q) => q.eq("userId", userId))
        .first();
      if (session === null) return true;
      const tokens = await ctx.db
        .query("authRefreshTokens")
        .withIndex("sessionId", (q) => q.eq("sessionId", session._id))
        .take(n);
      for (const token of tokens) await ctx.db.delete("authRefreshTokens", token._id);
      b.spend(tokens.length);
      if (tokens.length < n) {
        await ctx.db.delete("authSessions", session._id);
        b.spend(1);
      }
    }
  };
}

/**
 * The comedian's live-list spots, one at a time. On an open list they leave
 * it as when dropping out: the names behind move up, a freed place goes to
 * the waitlist's first name, and the list's version moves (a host's reorder
 * made before is refused rather than applied to a list that changed).
 */
function listSpotsStep(ctx: MutationCtx, userId: Id<"users">): Step {
  return async (b) => {
    for (;;) {
      if (b.rowsLeft === 0) return false;
      const spot = await ctx.db
        .query("listSpots")
        .withIndex("by_user", (q) => q.eq("userId", userId))
        .first();
      if (spot === null) return true;
      const list = await ctx.db.get("nightLists", spot.listId);
      const open = list !== null && list.status === "open";
      if (!(await b.fits(open ? COST.listSpot : COST.row, 1))) return false;
      await ctx.db.delete("listSpots", spot._id);
      b.spend(1);
      // A sign-up not placed yet, or a name the host removed, holds no place.
      if (!open || spot.section === "pending" || spot.section === "removed") continue;
      const spots = (await spotsOf(ctx, list._id)).filter((s) => s._id !== spot._id);
      await writeOrder(ctx, spot.section, bySection(spots, spot.section));
      if (spot.section === "list" && spot.state === "waiting") await promoteFromWaitlist(ctx, { list, spots });
      await bumpVersion(ctx, list);
    }
  };
}

/**
 * The check-ins, a mic at a time (index `by_user_item_and_date` keeps each
 * mic's rows together, oldest day first): each row's removal moves the mic's
 * count and latest check-in (model/micTriggers), then the mic's verification
 * is counted again once for all of them, not once a row.
 */
function checkInsStep(ctx: MutationCtx, userId: Id<"users">): Step {
  return async (b) => {
    for (;;) {
      const n = Math.min(CHUNK, b.rowsLeft);
      if (n === 0) return false;
      const rows = await ctx.db
        .query("checkIns")
        .withIndex("by_user_item_and_date", (q) => q.eq("userId", userId))
        .take(n);
      for (const group of groupByMic(rows)) {
        const micId = group[0].sceneItemId;
        const removedAt = group.map((r) => r.checkedInAt);
        const mic = await ctx.db.get("sceneItems", micId);
        // Each document the recount reads is at most one index range (a comedian's `get`).
        const recountReads = mic === null ? 0 : purgeRecountReads(mic, removedAt);
        const recount = plus(COST.recount, { queries: recountReads, reads: recountReads, writes: 0 });
        if (!(await b.fits(plus(times(COST.checkIn, group.length), recount), group.length))) return false;
        for (const row of group) await ctx.db.delete("checkIns", row._id);
        await recountAfterPurge(ctx, { micId, removedAt });
        b.spend(group.length);
      }
      if (rows.length < n) return true;
    }
  };
}

/** Consecutive rows of the same mic, in order. */
function groupByMic(rows: Doc<"checkIns">[]): Doc<"checkIns">[][] {
  const groups: Doc<"checkIns">[][] = [];
  for (const row of rows) {
    const last = groups.at(-1);
    if (last !== undefined && last[0].sceneItemId === row.sceneItemId) last.push(row);
    else groups.push([row]);
  }
  return groups;
}
