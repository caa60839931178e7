/**
 * The `micFollowers` rows: one per comedian and mic they favourited or scheduled (a
 * night not played yet), carrying the lead time they chose for list openings. A list
 * alarm reads the rows of its mic and lead time through `by_mic_and_lead`, so a run
 * reads the followers it tells, not every follower of every mic it fires. The rows
 * follow favourites, schedule entries and notification choices through triggers.
 */
import type { Change, Triggers } from "convex-helpers/server/triggers";
import { internal } from "../_generated/api";
import type { DataModel, Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { listLead } from "../lib/notificationRules";

/** Follower rows one transaction rewrites after a comedian changes their lead time; the rest go in scheduled batches. */
export const RELEAD_BATCH = 100;
/** Schedule entries of one comedian and mic looked at for a night not played yet. */
const ENTRIES_READ = 20;

type Lead = number | null;

async function leadOf(ctx: QueryCtx, userId: Id<"users">): Promise<Lead> {
  const row = await ctx.db
    .query("notificationPrefs")
    .withIndex("by_userId", (q) => q.eq("userId", userId))
    .unique();
  return listLead(row);
}

async function follows(ctx: QueryCtx, userId: Id<"users">, micId: Id<"sceneItems">): Promise<boolean> {
  const favorite = await ctx.db
    .query("favorites")
    .withIndex("by_user_and_item", (q) => q.eq("userId", userId).eq("sceneItemId", micId))
    .first();
  if (favorite !== null) return true;
  const entries = await ctx.db
    .query("scheduleEntries")
    .withIndex("by_user_and_item", (q) => q.eq("userId", userId).eq("sceneItemId", micId))
    .order("desc")
    .take(ENTRIES_READ);
  // A finished entry is a night already played, not a plan.
  return entries.some((e) => e.completedAt === undefined);
}

/** What the comedian's follower row of the mic should hold now: its lead time, or absent (`undefined`). */
async function expectedLead(ctx: QueryCtx, userId: Id<"users">, micId: Id<"sceneItems">): Promise<Lead | undefined> {
  return (await follows(ctx, userId, micId)) ? await leadOf(ctx, userId) : undefined;
}

/** The comedian's follower rows of the mic (one, unless something wrote a second). */
async function followerRows(
  ctx: QueryCtx,
  userId: Id<"users">,
  micId: Id<"sceneItems">,
  limit: number,
): Promise<Doc<"micFollowers">[]> {
  return await ctx.db
    .query("micFollowers")
    .withIndex("by_user_and_mic", (q) => q.eq("userId", userId).eq("micId", micId))
    .take(limit);
}

/** A favourite or unplayed schedule entry without its follower row: one problem line, or none. */
export async function missingFollower(ctx: QueryCtx, userId: Id<"users">, micId: Id<"sceneItems">): Promise<string[]> {
  const [row] = await followerRows(ctx, userId, micId, 1);
  return row === undefined ? [`micFollowers of user ${userId} for mic ${micId}: missing`] : [];
}

/** A follower row against what the comedian's favourite, schedule and choices say now (duplicates by the first row). */
export async function followerRowProblems(ctx: QueryCtx, row: Doc<"micFollowers">): Promise<string[]> {
  const { userId, micId } = row;
  const [rows, lead] = await Promise.all([followerRows(ctx, userId, micId, 2), expectedLead(ctx, userId, micId)]);
  const what = `micFollowers of user ${userId} for mic ${micId}`;
  const problems: string[] = [];
  if (rows.length > 1 && rows[0]._id === row._id) problems.push(`${what}: more than one row`);
  if (lead === undefined) problems.push(`${what}: a row, but the comedian no longer follows the mic`);
  else if (row.leadMinutes !== lead)
    problems.push(
      `${what}: lead ${JSON.stringify(row.leadMinutes)}, the comedian's choices say ${JSON.stringify(lead)}`,
    );
  return problems;
}

/** Puts the comedian's follower row of the mic where their favourite, schedule and choices say. */
async function syncFollower(ctx: MutationCtx, userId: Id<"users">, micId: Id<"sceneItems">): Promise<void> {
  const [row, following] = await Promise.all([
    followerRows(ctx, userId, micId, 1).then((rows) => rows[0] ?? null),
    follows(ctx, userId, micId),
  ]);
  if (!following) {
    if (row !== null) await ctx.db.delete("micFollowers", row._id);
    return;
  }
  const leadMinutes = await leadOf(ctx, userId);
  if (row === null) await ctx.db.insert("micFollowers", { micId, userId, leadMinutes });
  else if (row.leadMinutes !== leadMinutes) await ctx.db.patch("micFollowers", row._id, { leadMinutes });
}

/**
 * Moves up to {@link RELEAD_BATCH} of the comedian's follower rows after `afterMic`
 * to their lead time now; returns the last mic looked at when more may remain.
 */
export async function releadFollowers(
  ctx: MutationCtx,
  userId: Id<"users">,
  afterMic: Id<"sceneItems"> | null,
): Promise<Id<"sceneItems"> | null> {
  const leadMinutes = await leadOf(ctx, userId);
  const rows = await ctx.db
    .query("micFollowers")
    .withIndex("by_user_and_mic", (q) =>
      afterMic === null ? q.eq("userId", userId) : q.eq("userId", userId).gt("micId", afterMic),
    )
    .take(RELEAD_BATCH);
  for (const row of rows) {
    if (row.leadMinutes !== leadMinutes) await ctx.db.patch("micFollowers", row._id, { leadMinutes });
  }
  return rows.length === RELEAD_BATCH ? rows[rows.length - 1].micId : null;
}

/** Follower rows of one mic at one lead time, after the `_creationTime` of the last one told. */
export async function followersAt(
  ctx: QueryCtx,
  {
    micId,
    leadMinutes,
    after,
    limit,
  }: { micId: Id<"sceneItems">; leadMinutes: number; after: number | null; limit: number },
): Promise<Doc<"micFollowers">[]> {
  return await ctx.db
    .query("micFollowers")
    .withIndex("by_mic_and_lead", (q) =>
      after === null
        ? q.eq("micId", micId).eq("leadMinutes", leadMinutes)
        : q.eq("micId", micId).eq("leadMinutes", leadMinutes).gt("_creationTime", after),
    )
    .take(limit);
}

type TriggerCtx = MutationCtx & { innerDb: MutationCtx["db"] };

async function favoriteChanged(ctx: TriggerCtx, change: Change<DataModel, "favorites">): Promise<void> {
  const doc = change.newDoc ?? change.oldDoc;
  if (doc !== null) await syncFollower(ctx, doc.userId, doc.sceneItemId);
}

async function entryChanged(ctx: TriggerCtx, change: Change<DataModel, "scheduleEntries">): Promise<void> {
  // The cleanup moves `dueAt` often; only a night played (or un-played) changes who follows.
  if (change.operation === "update" && change.oldDoc.completedAt === change.newDoc.completedAt) return;
  const doc = change.newDoc ?? change.oldDoc;
  if (doc !== null) await syncFollower(ctx, doc.userId, doc.sceneItemId);
}

async function prefsChanged(ctx: TriggerCtx, change: Change<DataModel, "notificationPrefs">): Promise<void> {
  // A deleted row is an account going: its favourites and schedule take the follower rows with them.
  if (change.newDoc === null) return;
  if (listLead(change.oldDoc) === listLead(change.newDoc)) return;
  const userId = change.newDoc.userId;
  const last = await releadFollowers(ctx, userId, null);
  if (last !== null)
    await ctx.scheduler.runAfter(0, internal.notifications.releadFollowers, { userId, afterMic: last });
}

export function registerMicFollowerTriggers(triggers: Triggers<DataModel>): void {
  triggers.register("favorites", favoriteChanged);
  triggers.register("scheduleEntries", entryChanged);
  triggers.register("notificationPrefs", prefsChanged);
}

/**
 * One page of the migration that gives existing favourites and schedule entries their
 * follower rows (safe to run again: each sync puts a row where it belongs).
 */
export async function backfillFollowersPage(
  ctx: MutationCtx,
  { table, cursor }: { table: "favorites" | "scheduleEntries"; cursor: string | null },
): Promise<{ cursor: string; done: boolean }> {
  const page = await ctx.db.query(table).withIndex("by_creation_time").paginate({ cursor, numItems: RELEAD_BATCH });
  for (const row of page.page) await syncFollower(ctx, row.userId, row.sceneItemId);
  return { cursor: page.continueCursor, done: page.isDone };
}
