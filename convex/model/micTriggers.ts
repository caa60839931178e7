/** Values derived on a mic and the `cities` table, kept by triggers (README.md, "Derived data"). */
import type { Change, Triggers } from "convex-helpers/server/triggers";
import { internal } from "../_generated/api";
import type { DataModel, Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { encodeGeohash, STORED_GEOHASH_PRECISION } from "../lib/geo";
import { DAY_MS, MINUTE_MS } from "../lib/time";
import { onSceneItemCreated, onSceneItemRemoved, onSceneItemUpdated } from "./stats";

/** A trigger's context: the triggered writer as `db`, the plain one as `innerDb`. */
type TriggerCtx = MutationCtx & { innerDb: MutationCtx["db"] };

/** Registers the mic's triggers (called once, from `convex/triggers.ts`). */
export function registerMicTriggers(triggers: Triggers<DataModel>): void {
  triggers.register("sceneItems", deriveMicFields);
  triggers.register("sceneItems", countMicCity);
  triggers.register("checkIns", followCheckIns);
}

// ---------------------------------------------------------------------------
// searchText, geohash and areaCell

/** Lower-cased title + venue + city, the text the scene search matches. */
export function micSearchText(mic: Pick<Doc<"sceneItems">, "title" | "venueName" | "city">): string {
  return `${mic.title} ${mic.venueName} ${mic.city}`.toLowerCase();
}

/** Length of a mic's `areaCell`: a precision-4 geohash cell (about 39 by 20 km). */
export const AREA_CELL_PRECISION = 4;

/**
 * The venue's precision-6 geohash and its area cell (the geohash's first
 * {@link AREA_CELL_PRECISION} characters), both undefined without coordinates.
 */
export function micGeoFields(mic: Pick<Doc<"sceneItems">, "latitude" | "longitude">): {
  geohash: string | undefined;
  areaCell: string | undefined;
} {
  if (mic.latitude === undefined || mic.longitude === undefined) return { geohash: undefined, areaCell: undefined };
  const geohash = encodeGeohash(mic.latitude, mic.longitude, STORED_GEOHASH_PRECISION);
  return { geohash, areaCell: geohash.slice(0, AREA_CELL_PRECISION) };
}

/**
 * Sets `searchText`, `geohash` and `areaCell` from the mic as written. The
 * patch goes through `innerDb`, so it does not trigger again; and it is made
 * only when a value differs, so a second pass would find nothing to do.
 */
async function deriveMicFields(ctx: TriggerCtx, change: Change<DataModel, "sceneItems">): Promise<void> {
  const mic = change.newDoc;
  if (mic === null) return;
  const searchText = micSearchText(mic);
  const { geohash, areaCell } = micGeoFields(mic);
  if (mic.searchText === searchText && mic.geohash === geohash && mic.areaCell === areaCell) return;
  await ctx.innerDb.patch("sceneItems", change.id, { searchText, geohash, areaCell });
}

// ---------------------------------------------------------------------------
// cities

/** Counts the mic under its city while it is active (cities and community totals, `model/stats`). */
async function countMicCity(ctx: TriggerCtx, change: Change<DataModel, "sceneItems">): Promise<void> {
  if (change.operation === "insert") await onSceneItemCreated(ctx, change.newDoc);
  else if (change.operation === "delete") await onSceneItemRemoved(ctx, change.oldDoc);
  else await onSceneItemUpdated(ctx, { before: change.oldDoc, after: change.newDoc });
}

// ---------------------------------------------------------------------------
// Check-in count, last check-in and verification

/** An item is Verified when this many different comedians checked in within the period. */
export const VERIFY_MIN_COMEDIANS = 2;
/**
 * A check-in verifies only when the comedian's account is at least this old:
 * a day, unless VERIFIER_MIN_ACCOUNT_AGE_HOURS says otherwise (the browser
 * tests set 0, their demo accounts being minutes old).
 */
export function verifierMinAccountAgeMs(): number {
  const hours = Number(process.env.VERIFIER_MIN_ACCOUNT_AGE_HOURS);
  return process.env.VERIFIER_MIN_ACCOUNT_AGE_HOURS !== undefined && Number.isFinite(hours) && hours >= 0
    ? hours * 60 * MINUTE_MS
    : DAY_MS;
}
/** Both the look-back for verifying check-ins and how long verification lasts. */
export const VERIFICATION_PERIOD_MS = 30 * DAY_MS;
/** Most recent check-ins read when counting verifying comedians. */
const VERIFICATION_READ_LIMIT = 500;

/**
 * The comedians whose check-ins verify a mic: not its creator, and with an
 * account at least a day old ({@link verifierMinAccountAgeMs}), so one person with
 * two fresh accounts and a faked location cannot verify the mic they just
 * added. Users see the spec's "2 or more check-ins" wording.
 */
export async function countVerifyingComedians(
  ctx: QueryCtx,
  {
    creator,
    recent,
    nowMs,
  }: { creator: Id<"users"> | undefined; recent: ReadonlyArray<Pick<Doc<"checkIns">, "userId">>; nowMs: number },
): Promise<number> {
  const candidates = [...new Set(recent.map((c) => c.userId))].filter((id) => id !== creator);
  const users = await Promise.all(candidates.map((id) => ctx.db.get("users", id)));
  const minAge = verifierMinAccountAgeMs();
  return users.filter((u) => u !== null && (minAge === 0 || u._creationTime <= nowMs - minAge)).length;
}

/**
 * The verifying comedians among the mic's check-ins of the period that ends
 * at `at` (and, with `onlyUpToAt`, none made after it), accounts' ages taken at `at`.
 */
async function verifiersAt(
  ctx: QueryCtx,
  { mic, at, onlyUpToAt = false }: { mic: Doc<"sceneItems">; at: number; onlyUpToAt?: boolean },
): Promise<number> {
  const recent = await ctx.db
    .query("checkIns")
    .withIndex("by_item_and_time", (q) => {
      const inPeriod = q.eq("sceneItemId", mic._id).gt("checkedInAt", at - VERIFICATION_PERIOD_MS);
      return onlyUpToAt ? inPeriod.lte("checkedInAt", at) : inPeriod;
    })
    .order("desc")
    .take(VERIFICATION_READ_LIMIT);
  return await countVerifyingComedians(ctx, { creator: mic.createdBy, recent, nowMs: at });
}

/** Keeps the mic's check-in figures in step with its `checkIns` rows. */
async function followCheckIns(ctx: TriggerCtx, change: Change<DataModel, "checkIns">): Promise<void> {
  const { oldDoc, newDoc } = change;
  if (oldDoc !== null && newDoc !== null) {
    const moved =
      oldDoc.sceneItemId !== newDoc.sceneItemId ||
      oldDoc.userId !== newDoc.userId ||
      oldDoc.checkedInAt !== newDoc.checkedInAt;
    if (!moved) return;
  }
  if (oldDoc === null && newDoc !== null) return await queueCheckIn(ctx, newDoc);
  if (oldDoc !== null) await onCheckInRemoved(ctx, oldDoc);
  if (newDoc !== null) await onCheckInAdded(ctx, newDoc);
}

/** A mic row takes its queued check-ins in at most about once this often (on each multiple of it). */
export const FOLD_INTERVAL_MS = 1000;
/** The most queued check-ins one fold takes in (a follow-up takes the rest). */
const FOLD_BATCH = 1000;

/**
 * A new check-in: one queue row (an insert no other check-in reads) and a
 * fold of it due on the next whole second. Every check-in of one second at a
 * mic schedules the same instant; the fold of the oldest queued row takes
 * them all in, and the others, finding theirs taken or not first in line,
 * stop after two reads.
 */
async function queueCheckIn(ctx: TriggerCtx, row: Doc<"checkIns">): Promise<void> {
  const queueId = await ctx.innerDb.insert("micCheckInQueue", { micId: row.sceneItemId, checkInId: row._id });
  const foldAt = (Math.floor(Date.now() / FOLD_INTERVAL_MS) + 1) * FOLD_INTERVAL_MS;
  await ctx.scheduler.runAt(foldAt, internal.checkIns.foldCheckIns, { micId: row.sceneItemId, queueId });
}

/** How many of the mic's check-ins its row has not counted yet (the invariant checker adds them). */
export async function unfoldedCheckIns(ctx: QueryCtx, micId: Id<"sceneItems">): Promise<number> {
  let count = 0;
  for await (const _row of ctx.db.query("micCheckInQueue").withIndex("by_mic", (q) => q.eq("micId", micId))) count++;
  return count;
}

/**
 * Takes the mic's check-ins queued up to `nowMs` into its row (count, latest check-in, Verified), as
 * {@link onCheckInAdded} would; without the mic (deleted) the queue just goes. Returns whether more remain.
 */
export async function foldCheckIns(
  ctx: MutationCtx,
  { micId, queueId, nowMs }: { micId: Id<"sceneItems">; queueId?: Id<"micCheckInQueue">; nowMs: number },
): Promise<{ folded: number; more: boolean }> {
  const none = { folded: 0, more: false };
  if (queueId !== undefined && (await ctx.db.get("micCheckInQueue", queueId)) === null) return none;
  // The range ends at nowMs: check-ins made meanwhile wait for their own fold, seldom conflicting.
  const queued = await ctx.db
    .query("micCheckInQueue")
    .withIndex("by_mic", (q) => q.eq("micId", micId).lte("_creationTime", nowMs))
    .take(FOLD_BATCH);
  if (queued.length === 0) return none;
  const oldest = queued[0];
  // A fold for a gone row, or for a later one while the oldest is recent, leaves the work to the oldest's fold.
  if (queueId !== undefined && oldest._id !== queueId && oldest._creationTime > nowMs - 2 * FOLD_INTERVAL_MS) {
    return none;
  }
  const mic = await ctx.db.get("sceneItems", micId);
  if (mic !== null) {
    // The queued check-ins themselves (one removed since, by an account deletion, is counted off already).
    const rows = await Promise.all(queued.map((row) => ctx.db.get("checkIns", row.checkInId)));
    const times = rows.flatMap((row) => (row === null ? [] : [row.checkedInAt]));
    const patch: Partial<Doc<"sceneItems">> = { checkInCount: mic.checkInCount + queued.length };
    if (times.length > 0) {
      const at = Math.max(...times); // the newest verifies whenever an earlier one of the batch would
      patch.lastCheckInAt = Math.max(mic.lastCheckInAt ?? at, at);
      const comedians = await verifiersAt(ctx, { mic, at, onlyUpToAt: true });
      if (comedians >= VERIFY_MIN_COMEDIANS) {
        Object.assign(patch, {
          verifiedCheckIns30d: comedians,
          lastVerifiedAt: at,
          verificationExpiresAt: at + VERIFICATION_PERIOD_MS,
        });
      }
    }
    await ctx.db.patch("sceneItems", micId, patch);
  }
  for (const row of queued) await ctx.db.delete("micCheckInQueue", row._id);
  return { folded: queued.length, more: queued.length === FOLD_BATCH };
}

/**
 * One check-in more: the count, the latest check-in, and Verified when
 * {@link VERIFY_MIN_COMEDIANS} verifying comedians checked in within the
 * period up to this check-in (it then lasts {@link VERIFICATION_PERIOD_MS}).
 * For a check-in moved to another mic, comedian or time; a new one is queued.
 */
async function onCheckInAdded(ctx: TriggerCtx, row: Doc<"checkIns">): Promise<void> {
  const mic = await ctx.db.get("sceneItems", row.sceneItemId);
  if (mic === null) return;
  const at = row.checkedInAt;
  const comedians = await verifiersAt(ctx, { mic, at });
  await ctx.db.patch("sceneItems", mic._id, {
    checkInCount: mic.checkInCount + 1,
    lastCheckInAt: Math.max(mic.lastCheckInAt ?? at, at),
    ...(comedians >= VERIFY_MIN_COMEDIANS
      ? { verifiedCheckIns30d: comedians, lastVerifiedAt: at, verificationExpiresAt: at + VERIFICATION_PERIOD_MS }
      : {}),
  });
}

/** Whether the mic's current verification counted check-ins of the period that holds `checkedInAt`. */
function restsOnVerification(mic: Doc<"sceneItems">, checkedInAt: number): boolean {
  const at = mic.lastVerifiedAt;
  return (
    mic.verifiedCheckIns30d > 0 && at !== undefined && checkedInAt > at - VERIFICATION_PERIOD_MS && checkedInAt <= at
  );
}

/**
 * The mic's verification counted again over the period up to its last
 * verification; below {@link VERIFY_MIN_COMEDIANS} it is no longer Verified
 * (as when it expires).
 */
async function recountedVerification(ctx: QueryCtx, mic: Doc<"sceneItems">): Promise<Partial<Doc<"sceneItems">>> {
  const comedians = await verifiersAt(ctx, { mic, at: mic.lastVerifiedAt!, onlyUpToAt: true });
  return comedians >= VERIFY_MIN_COMEDIANS
    ? { verifiedCheckIns30d: comedians }
    : { verifiedCheckIns30d: 0, verificationExpiresAt: undefined };
}

/**
 * One check-in fewer (an account or a mic deleted): the count drops, the latest check-in is the newest one left,
 * and a verification that rested on the row is counted again over the same period.
 */
async function onCheckInRemoved(ctx: TriggerCtx, row: Doc<"checkIns">): Promise<void> {
  const mic = await ctx.db.get("sceneItems", row.sceneItemId);
  if (mic === null) return;
  const patch: Partial<Doc<"sceneItems">> = { checkInCount: mic.checkInCount - 1 };
  if (mic.lastCheckInAt !== undefined && row.checkedInAt >= mic.lastCheckInAt) {
    const newest = await ctx.db
      .query("checkIns")
      .withIndex("by_item_and_time", (q) => q.eq("sceneItemId", mic._id))
      .order("desc")
      .first();
    patch.lastCheckInAt = newest?.checkedInAt;
  }
  // A deleted account's check-ins (user row gone first) are recounted once per mic by recountAfterPurge (model/account):
  // the recount reads up to VERIFICATION_READ_LIMIT rows, too much to repeat for each.
  if (restsOnVerification(mic, row.checkedInAt) && (await ctx.db.get("users", row.userId)) !== null) {
    Object.assign(patch, await recountedVerification(ctx, mic));
  }
  await ctx.db.patch("sceneItems", mic._id, patch);
}

/**
 * The most documents a {@link recountAfterPurge} of check-ins made at
 * `removedAt` reads besides the mic: none when none of them is in the period
 * the mic's verification rests on; else the period's check-ins (no more than
 * the mic's count, which still holds them, nor {@link VERIFICATION_READ_LIMIT})
 * and one comedian each. Each is one index range at most.
 */
export function purgeRecountReads(mic: Doc<"sceneItems">, removedAt: number[]): number {
  if (!removedAt.some((at) => restsOnVerification(mic, at))) return 0;
  return 2 * Math.min(VERIFICATION_READ_LIMIT, mic.checkInCount);
}

/**
 * After a deleted account's check-ins at a mic were removed (`removedAt`:
 * their times), counts the mic's verification again if any of them was in
 * the period it rests on (see {@link onCheckInRemoved}). Reads the mic and
 * at most {@link purgeRecountReads} documents; writes only a changed figure.
 */
export async function recountAfterPurge(
  ctx: MutationCtx,
  { micId, removedAt }: { micId: Id<"sceneItems">; removedAt: number[] },
): Promise<void> {
  const mic = await ctx.db.get("sceneItems", micId);
  if (mic === null || !removedAt.some((at) => restsOnVerification(mic, at))) return;
  const patch = await recountedVerification(ctx, mic);
  if (patch.verifiedCheckIns30d !== mic.verifiedCheckIns30d) await ctx.db.patch("sceneItems", micId, patch);
}

/** Items whose verification is cleared per run of {@link expireVerification}. */
export const EXPIRE_BATCH = 200;

/**
 * Clears Verified on items whose verification expired by `nowMs`
 * (`verifiedCheckIns30d` back to 0, `lastVerifiedAt` kept). The expiry is
 * removed too, so the index range holds only live verifications and each run
 * reads only what it clears. Returns whether more expired items remain.
 */
export async function expireVerification(ctx: MutationCtx, nowMs: number): Promise<{ expired: number; more: boolean }> {
  const due = await ctx.db
    .query("sceneItems")
    .withIndex("by_verificationExpiresAt", (q) => q.gte("verificationExpiresAt", 0).lte("verificationExpiresAt", nowMs))
    .take(EXPIRE_BATCH);
  for (const item of due) {
    await ctx.db.patch("sceneItems", item._id, {
      verifiedCheckIns30d: 0,
      verificationExpiresAt: undefined,
    });
  }
  return { expired: due.length, more: due.length === EXPIRE_BATCH };
}
