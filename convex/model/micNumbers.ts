/**
 * Each mic's numbers from its own lists: one `micNights` row per night list
 * (counts only) rewritten by a trigger whenever the list document changes
 * (every host action bumps it; sign-ups never write it, so they never
 * conflict here). When a closed night changes, the same trigger sums the
 * latest closed nights into the mic's one `micNumberSummaries` row and its
 * short line on the mic row, so no read ever sums nights. A figure shows
 * only over enough nights and comedians.
 */
import { v, type Infer } from "convex/values";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import type { NumbersLine } from "../lib/micNumbersLine";
import { zonedEpoch } from "../lib/time";
import { micNumberSummaryFields } from "../schema";

/** The nights the numbers look back over. */
export const NUMBERS_NIGHTS = 20;
/** No figure before this many nights held ... */
export const MIN_NIGHTS = 3;
/** ... and this many sign-ups over them (so no one comedian's night can be read off). */
export const MIN_COMEDIANS = 10;
/** Lottery odds need this many drawn lotteries; waits need this many sets. */
export const MIN_LOTTERIES = 3;
export const MIN_SETS = 10;
/** Most spots read to summarise one night. */
const NIGHT_SPOTS_LIMIT = 1_000;

const MINUTE = 60_000;

function median(xs: number[]): number | null {
  if (xs.length === 0) return null;
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : Math.round((sorted[mid - 1] + sorted[mid]) / 2);
}

type Spot = Doc<"listSpots">;

/** The night's counts from its list, its spots and its mic's listed times. */
function summarise(
  list: Doc<"nightLists">,
  spots: Spot[],
  mic: Doc<"sceneItems"> | null,
  previous: Doc<"micNights"> | null,
) {
  const entered = spots.filter((s) => s.section !== "removed" || s.state === "done");
  const online = entered.filter((s) => s.userId !== undefined);
  let fillMinutes: number | undefined;
  if (list.mode === "first_come" && online.length >= list.spots && list.spots > 0) {
    const filledAt = online.map((s) => s._creationTime).sort((a, b) => a - b)[list.spots - 1];
    fillMinutes = Math.max(0, Math.round((filledAt - list.signupOpensAt) / MINUTE));
  }
  // The draw's result is taken when it happens and kept (later bumps do not undo it).
  let lotteryEntrants = previous?.lotteryEntrants;
  let lotteryDrawn = previous?.lotteryDrawn;
  if (list.mode === "lottery" && list.drawnAt !== undefined && lotteryEntrants === undefined) {
    const inDraw = spots.filter((s) => s.drawIndex !== undefined);
    lotteryEntrants = inDraw.length;
    lotteryDrawn = inDraw.filter((s) => s.section === "list" || s.bumped || s.state !== "waiting").length;
  }
  const started = spots.flatMap((s) => (s.startedAt !== undefined ? [s.startedAt] : [])).sort((a, b) => a - b);
  const zone = mic?.timeZone ?? "America/New_York";
  const startMs = mic?.startTimeLocal ? zonedEpoch(list.date, mic.startTimeLocal, zone) : undefined;
  const listTime = mic?.listTimeLocal ?? mic?.startTimeLocal;
  const listMs = listTime ? zonedEpoch(list.date, listTime, zone) : undefined;
  return {
    micId: list.micId,
    listId: list._id,
    date: list.date,
    closed: list.status === "closed",
    cancelled: list.closedReason === "cancelled",
    lottery: list.mode === "lottery",
    spots: list.spots,
    signUps: entered.length,
    comedians: online.length,
    fillMinutes,
    lotteryEntrants,
    lotteryDrawn,
    firstSetLateMinutes:
      startMs !== undefined && started.length > 0 ? Math.round((started[0] - startMs) / MINUTE) : undefined,
    waitMinutes: listMs !== undefined ? started.reduce((sum, t) => sum + Math.max(0, (t - listMs) / MINUTE), 0) : 0,
    sets: listMs !== undefined ? started.length : 0,
    hostConfirmed: hostConfirmedOn(mic, list.date, previous),
  };
}

/**
 * Whether the host confirmed the night: its date among the mic's confirmed
 * dates. The mic keeps only its latest confirmed dates (lib/tonight), so a date
 * older than all it keeps says what the night's row said (a take-back writes the row itself).
 */
function hostConfirmedOn(
  mic: Pick<Doc<"sceneItems">, "confirmedDates"> | null,
  date: string,
  previous: Pick<Doc<"micNights">, "hostConfirmed"> | null,
): boolean {
  const dates = mic?.confirmedDates ?? [];
  if (dates.includes(date)) return true;
  if (dates.every((kept) => date < kept)) return previous?.hostConfirmed ?? false;
  return false;
}

/** A night's spots and its mic, as its row is summed from them. */
async function nightSources(ctx: QueryCtx, list: Doc<"nightLists">) {
  return await Promise.all([
    ctx.db
      .query("listSpots")
      .withIndex("by_list_and_section", (q) => q.eq("listId", list._id))
      .take(NIGHT_SPOTS_LIMIT),
    ctx.db.get("sceneItems", list.micId),
  ]);
}

/**
 * The night's row as its list, spots and mic say now (what the trigger would
 * write; `row` is the stored one, whose draw result and old confirmation
 * stand). For the invariant checker.
 */
export async function expectedNight(ctx: QueryCtx, list: Doc<"nightLists">, row: Doc<"micNights"> | null) {
  const [spots, mic] = await nightSources(ctx, list);
  return summarise(list, spots, mic, row);
}

/** Rewrites the night's row from its list (called by the list trigger, model/micNumberTriggers). */
export async function followNightList(
  ctx: MutationCtx,
  listId: Id<"nightLists">,
  list: Doc<"nightLists"> | null,
): Promise<void> {
  const row = await ctx.db
    .query("micNights")
    .withIndex("by_list", (q) => q.eq("listId", listId))
    .unique();
  if (list === null) {
    if (row === null) return;
    await ctx.db.delete("micNights", row._id);
    if (row.closed) await refreshSummary(ctx, row.micId);
    return;
  }
  const [spots, mic] = await nightSources(ctx, list);
  const next = summarise(list, spots, mic, row);
  if (row === null) await ctx.db.insert("micNights", next);
  else await ctx.db.replace("micNights", row._id, next);
  if (row?.closed || next.closed) await refreshSummary(ctx, list.micId, mic);
}

const summaryValidator = v.object(micNumberSummaryFields);
/** A mic's numbers as stored on its summary row (the viewer's own draws aside). */
type MicNumberSummary = Infer<typeof summaryValidator>;

export const micNumbersValidator = summaryValidator.extend({
  /** The viewer's own draws at this mic over these nights. */
  myLottery: v.union(v.object({ drawn: v.number(), entered: v.number() }), v.null()),
});
export type MicNumbers = Infer<typeof micNumbersValidator>;

/** The mic's numbers over these closed nights (newest first), and the drawn lotteries among them. */
export function summariseNights(nights: Doc<"micNights">[]): MicNumberSummary & { drawnListIds: Id<"nightLists">[] } {
  const held = nights.filter((n) => !n.cancelled);
  const comedians = held.reduce((sum, n) => sum + n.comedians, 0);
  const enough = held.length >= MIN_NIGHTS && comedians >= MIN_COMEDIANS;
  const base = {
    nights: nights.length,
    held: held.length,
    cancelled: nights.length - held.length,
    hostConfirmed: nights.filter((n) => n.hostConfirmed === true).length,
    enough,
  };
  if (!enough) {
    return {
      ...base,
      typicalSignUps: null,
      busiestSignUps: null,
      typicalSpots: null,
      fillRate: null,
      typicalFillMinutes: null,
      lotteryChance: null,
      lotteries: 0,
      typicalWaitMinutes: null,
      typicalLateMinutes: null,
      drawnListIds: [],
    };
  }
  const firstCome = held.filter((n) => !n.lottery);
  const filled = firstCome.filter((n) => n.fillMinutes !== undefined);
  const drawn = held.filter((n) => n.lotteryEntrants !== undefined && n.lotteryEntrants > 0);
  const entrants = drawn.reduce((sum, n) => sum + (n.lotteryEntrants ?? 0), 0);
  const sets = held.reduce((sum, n) => sum + n.sets, 0);
  const waits = held.reduce((sum, n) => sum + n.waitMinutes, 0);
  const late = held.flatMap((n) => (n.firstSetLateMinutes !== undefined ? [n.firstSetLateMinutes] : []));
  const lotteryOk = drawn.length >= MIN_LOTTERIES;
  return {
    ...base,
    typicalSignUps: median(held.map((n) => n.signUps)),
    busiestSignUps: Math.max(...held.map((n) => n.signUps)),
    typicalSpots: median(held.map((n) => n.spots)),
    fillRate: firstCome.length > 0 ? Math.round((filled.length / firstCome.length) * 100) : null,
    typicalFillMinutes: median(filled.map((n) => n.fillMinutes!)),
    lotteryChance: lotteryOk
      ? Math.round((drawn.reduce((sum, n) => sum + (n.lotteryDrawn ?? 0), 0) / entrants) * 100)
      : null,
    lotteries: drawn.length,
    typicalWaitMinutes: sets >= MIN_SETS ? Math.round(waits / sets) : null,
    typicalLateMinutes: late.length >= MIN_NIGHTS ? median(late) : null,
    drawnListIds: lotteryOk ? drawn.map((n) => n.listId) : [],
  };
}

/** The short line's figures (for Tonight and the scene cards), or undefined while there are not enough nights. */
export function lineOf(summary: MicNumberSummary): NumbersLine | undefined {
  if (!summary.enough) return undefined;
  const line: NumbersLine = { nights: summary.nights, held: summary.held };
  if (summary.fillRate !== null) line.fillRate = summary.fillRate;
  if (summary.typicalFillMinutes !== null) line.fillMinutes = summary.typicalFillMinutes;
  if (summary.lotteryChance !== null) line.lotteryChance = summary.lotteryChance;
  if (summary.typicalLateMinutes !== null) line.lateMinutes = summary.typicalLateMinutes;
  if (summary.typicalWaitMinutes !== null) line.waitMinutes = summary.typicalWaitMinutes;
  return line;
}

/** The latest closed nights the numbers are taken over (at most {@link NUMBERS_NIGHTS}, newest first). */
export async function latestClosedNights(ctx: QueryCtx, micId: Id<"sceneItems">): Promise<Doc<"micNights">[]> {
  return await ctx.db
    .query("micNights")
    .withIndex("by_mic_and_closed_and_date", (q) => q.eq("micId", micId).eq("closed", true))
    .order("desc")
    .take(NUMBERS_NIGHTS);
}

/** The mic's summary row, if it has one. */
export async function summaryRow(ctx: QueryCtx, micId: Id<"sceneItems">): Promise<Doc<"micNumberSummaries"> | null> {
  return await ctx.db
    .query("micNumberSummaries")
    .withIndex("by_mic", (q) => q.eq("micId", micId))
    .unique();
}

/** A value as JSON with object keys sorted (stored documents come back in their own key order). */
function canonical(x: unknown): string {
  if (Array.isArray(x)) return `[${x.map(canonical).join(",")}]`;
  if (x !== null && typeof x === "object") {
    const entries = Object.entries(x).filter(([, value]) => value !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, value]) => `${JSON.stringify(k)}:${canonical(value)}`)
      .join(",")}}`;
  }
  return JSON.stringify(x ?? null);
}

/** Whether two stored values are equal, whatever their keys' order. */
export function sameValue(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

/**
 * Sums the mic's latest closed nights into its summary row and its short line
 * (at most {@link NUMBERS_NIGHTS} nights read), writing only what changed.
 * Called when one of its closed nights changes, and when the mic goes.
 */
export async function refreshSummary(
  ctx: MutationCtx,
  micId: Id<"sceneItems">,
  // The mic as the caller already read it (null: it is gone), so it is not read again.
  known?: Doc<"sceneItems"> | null,
): Promise<void> {
  const [mic, row, nights] = await Promise.all([
    known !== undefined ? known : ctx.db.get("sceneItems", micId),
    summaryRow(ctx, micId),
    latestClosedNights(ctx, micId),
  ]);
  if (mic === null || nights.length === 0) {
    if (row !== null) await ctx.db.delete("micNumberSummaries", row._id);
    if (mic?.numbersLine !== undefined) await ctx.db.patch("sceneItems", micId, { numbersLine: undefined });
    return;
  }
  const next = { micId, ...summariseNights(nights) };
  if (row === null) await ctx.db.insert("micNumberSummaries", next);
  else {
    const { _id, _creationTime, ...stored } = row;
    if (!sameValue(stored, next)) await ctx.db.replace("micNumberSummaries", _id, next);
  }
  const line = lineOf(next);
  if (!sameValue(mic.numbersLine, line)) await ctx.db.patch("sceneItems", micId, { numbersLine: line });
}

/**
 * The host confirmed (or took back) these nights of the mic: their rows say
 * so, and the summary follows when one of them is closed. Returns whether it did.
 */
export async function followConfirmedDates(
  ctx: MutationCtx,
  mic: Doc<"sceneItems">,
  dates: string[],
): Promise<boolean> {
  const kept = new Set(mic.confirmedDates ?? []);
  let closedChanged = false;
  for (const date of dates) {
    const rows = await Promise.all(
      [true, false].map((closed) =>
        ctx.db
          .query("micNights")
          .withIndex("by_mic_and_closed_and_date", (q) => q.eq("micId", mic._id).eq("closed", closed).eq("date", date))
          .first(),
      ),
    );
    for (const row of rows) {
      if (row === null) continue;
      const hostConfirmed = kept.has(date);
      if ((row.hostConfirmed ?? false) === hostConfirmed) continue;
      await ctx.db.patch("micNights", row._id, { hostConfirmed });
      closedChanged ||= row.closed;
    }
  }
  if (closedChanged) await refreshSummary(ctx, mic._id, mic);
  return closedChanged;
}

/**
 * The mic's numbers from its summary row (one document), with the viewer's
 * own draws over the counted lotteries (one indexed read each, at most
 * {@link NUMBERS_NIGHTS}) when signed in.
 */
export async function micNumbers(
  ctx: QueryCtx,
  { micId, viewer }: { micId: Id<"sceneItems">; viewer: Id<"users"> | null },
): Promise<MicNumbers> {
  const row = await summaryRow(ctx, micId);
  if (row === null) {
    const { drawnListIds: _none, ...empty } = summariseNights([]);
    return { ...empty, myLottery: null };
  }
  const { _id, _creationTime, micId: _mic, drawnListIds, ...summary } = row;
  const myLottery = viewer !== null && drawnListIds.length > 0 ? await myDraws(ctx, viewer, drawnListIds) : null;
  return { ...summary, myLottery };
}

/** The viewer's own record in these drawn lotteries (one indexed read per night), or null if never in one. */
async function myDraws(
  ctx: QueryCtx,
  viewer: Id<"users">,
  drawn: Id<"nightLists">[],
): Promise<{ drawn: number; entered: number } | null> {
  const mine = await Promise.all(
    drawn.map((listId) =>
      ctx.db
        .query("listSpots")
        .withIndex("by_list_and_user", (q) => q.eq("listId", listId).eq("userId", viewer))
        .first(),
    ),
  );
  const entered = mine.filter((s): s is Spot => s !== null && s.drawIndex !== undefined);
  if (entered.length === 0) return null;
  const won = entered.filter((s) => s.section === "list" || s.bumped || s.state !== "waiting").length;
  return { drawn: won, entered: entered.length };
}
