/**
 * Each mic's numbers from its own lists: one `micNights` row per night list
 * (counts only) rewritten by a trigger whenever the list document changes
 * (every host action bumps it; sign-ups never write it, so they never
 * conflict here), and a read of the latest closed nights only, never a mic's
 * whole history. A figure shows only over enough nights and comedians.
 */
import { v, type Infer } from "convex/values";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { zonedEpoch } from "../lib/time";

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
  };
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
    if (row !== null) await ctx.db.delete("micNights", row._id);
    return;
  }
  const [spots, mic] = await Promise.all([
    ctx.db
      .query("listSpots")
      .withIndex("by_list_and_section", (q) => q.eq("listId", listId))
      .take(NIGHT_SPOTS_LIMIT),
    ctx.db.get("sceneItems", list.micId),
  ]);
  const next = summarise(list, spots, mic, row);
  if (row === null) await ctx.db.insert("micNights", next);
  else await ctx.db.replace("micNights", row._id, next);
}

export const micNumbersValidator = v.object({
  /** Closed nights looked at (held and cancelled). */
  nights: v.number(),
  held: v.number(),
  cancelled: v.number(),
  /** False below the thresholds: the page says "not enough nights yet". */
  enough: v.boolean(),
  typicalSignUps: v.union(v.number(), v.null()),
  busiestSignUps: v.union(v.number(), v.null()),
  typicalSpots: v.union(v.number(), v.null()),
  /** Held first-come nights whose spots all went, and how fast they typically went. */
  fillRate: v.union(v.number(), v.null()),
  typicalFillMinutes: v.union(v.number(), v.null()),
  /** Percent chance of being drawn, over drawn lotteries. */
  lotteryChance: v.union(v.number(), v.null()),
  lotteries: v.number(),
  /** The viewer's own draws at this mic over these nights. */
  myLottery: v.union(v.object({ drawn: v.number(), entered: v.number() }), v.null()),
  typicalWaitMinutes: v.union(v.number(), v.null()),
  typicalLateMinutes: v.union(v.number(), v.null()),
});
export type MicNumbers = Infer<typeof micNumbersValidator>;

/** The mic's numbers over its latest closed nights (at most {@link NUMBERS_NIGHTS} rows read). */
export async function micNumbers(
  ctx: QueryCtx,
  { micId, viewer }: { micId: Id<"sceneItems">; viewer: Id<"users"> | null },
): Promise<MicNumbers> {
  const nights = await ctx.db
    .query("micNights")
    .withIndex("by_mic_and_closed_and_date", (q) => q.eq("micId", micId).eq("closed", true))
    .order("desc")
    .take(NUMBERS_NIGHTS);
  const held = nights.filter((n) => !n.cancelled);
  const comedians = held.reduce((sum, n) => sum + n.comedians, 0);
  const enough = held.length >= MIN_NIGHTS && comedians >= MIN_COMEDIANS;
  const base = { nights: nights.length, held: held.length, cancelled: nights.length - held.length, enough };
  const none = {
    typicalSignUps: null,
    busiestSignUps: null,
    typicalSpots: null,
    fillRate: null,
    typicalFillMinutes: null,
    lotteryChance: null,
    lotteries: 0,
    myLottery: null,
    typicalWaitMinutes: null,
    typicalLateMinutes: null,
  };
  if (!enough) return { ...base, ...none };
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
    myLottery: lotteryOk && viewer !== null ? await myDraws(ctx, viewer, drawn) : null,
    typicalWaitMinutes: sets >= MIN_SETS ? Math.round(waits / sets) : null,
    typicalLateMinutes: late.length >= MIN_NIGHTS ? median(late) : null,
  };
}

/** The viewer's own record in these drawn lotteries (one indexed read per night), or null if never in one. */
async function myDraws(
  ctx: QueryCtx,
  viewer: Id<"users">,
  drawn: Doc<"micNights">[],
): Promise<{ drawn: number; entered: number } | null> {
  const mine = await Promise.all(
    drawn.map((n) =>
      ctx.db
        .query("listSpots")
        .withIndex("by_list_and_user", (q) => q.eq("listId", n.listId).eq("userId", viewer))
        .first(),
    ),
  );
  const entered = mine.filter((s): s is Spot => s !== null && s.drawIndex !== undefined);
  if (entered.length === 0) return null;
  const won = entered.filter((s) => s.section === "list" || s.bumped || s.state !== "waiting").length;
  return { drawn: won, entered: entered.length };
}
