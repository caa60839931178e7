/** Opening a mic night's live list: its settings, validated against the list rules. */
import { v } from "convex/values";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { appError, ErrorCode } from "../errors";

import { addDaysToDate, DAY_MS, isValidTimeZone, localDateString, zonedEpoch } from "../lib/time";

import { isLocalDate } from "./claims";

import { requireActiveItem } from "./scene";
import {
  DEFAULT_SET_MINUTES,
  DEFAULT_WAITLIST_SPOTS,
  invalid,
  LIST_CANCELLED_MESSAGE,
  MAX_LIGHT_MINUTES,
  MAX_LIST_SET_MINUTES,
  MAX_SPOTS,
  MAX_WAITLIST_SPOTS,
  NOT_HOST_MESSAGE,
  wholeNumber,
} from "../lib/nightListRules";
import { canHost } from "./nightLists";

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

export function micTimeZone(item: Doc<"sceneItems">): string {
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
