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
  LIST_CANCELLED_MESSAGE,
  MAX_LIGHT_MINUTES,
  MAX_LIST_SET_MINUTES,
  MAX_SPOTS,
  MAX_WAITLIST_SPOTS,
  NOT_HOST_MESSAGE,
  wholeNumber,
} from "../lib/nightListRules";
import { invalid } from "../lib/textRules";
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
  { userId, settings, nowMs }: { userId: Id<"users">; settings: OpenArgs; nowMs: number },
): Promise<Id<"nightLists">> {
  const item = await requireActiveItem(ctx, settings.micId);
  if (!(await canHost(ctx, userId, item))) throw appError(ErrorCode.FORBIDDEN, NOT_HOST_MESSAGE);
  const tz = micTimeZone(item);
  if (!isLocalDate(settings.date)) invalid("Date must be written YYYY-MM-DD");
  const today = localDateString(nowMs, tz);
  if (settings.date < addDaysToDate(today, -1) || settings.date > addDaysToDate(today, 1)) {
    invalid("A list can be opened for tonight (or tomorrow) only");
  }
  if ((item.cancelledDates ?? []).includes(settings.date))
    throw appError(ErrorCode.LIST_CLOSED, LIST_CANCELLED_MESSAGE);
  const existing = await ctx.db
    .query("nightLists")
    .withIndex("by_mic_and_date", (q) => q.eq("micId", settings.micId).eq("date", settings.date))
    .first();
  if (existing !== null) throw appError(ErrorCode.ALREADY_EXISTS, "Tonight's list is already open.");

  const spots = wholeNumber(settings.spots, { label: "Spots", min: 1, max: MAX_SPOTS });
  const waitlistSpots = wholeNumber(settings.waitlistSpots ?? DEFAULT_WAITLIST_SPOTS, {
    label: "Waitlist places",
    min: 0,
    max: MAX_WAITLIST_SPOTS,
  });
  const setMinutes = wholeNumber(
    settings.setMinutes ??
      Math.min(MAX_LIST_SET_MINUTES, Math.max(1, Math.round(item.performanceMinutes ?? DEFAULT_SET_MINUTES))),
    { label: "Set length", min: 1, max: MAX_LIST_SET_MINUTES },
  );
  const lightMinutes = wholeNumber(settings.lightMinutes, {
    label: "The light",
    min: 0,
    max: Math.min(MAX_LIGHT_MINUTES, setMinutes - 1),
  });
  const windowStart = nowMs - DAY_MS;
  const windowEnd = nowMs + 2 * DAY_MS;
  const inWindow = (ms: number) => Number.isFinite(ms) && ms >= windowStart && ms <= windowEnd;

  let drawAt: number | undefined;
  // Only a lottery uses the draw time, but a non-finite one is refused whatever the mode.
  if (settings.drawAt !== undefined && !inWindow(settings.drawAt)) invalid("The draw must be within a day of tonight");
  if (settings.mode === "lottery") {
    if (settings.drawAt === undefined) invalid("Please choose when the lottery is drawn");
    if (!inWindow(settings.drawAt)) invalid("The draw must be within a day of tonight");
    drawAt = settings.drawAt;
  }
  const time = item.listTimeLocal ?? item.startTimeLocal;
  let signupOpensAt: number;
  if (settings.signupOpensAt !== undefined) {
    if (!inWindow(settings.signupOpensAt)) invalid("Sign-up must open within a day of tonight");
    signupOpensAt = settings.signupOpensAt;
  } else {
    signupOpensAt = time ? zonedEpoch(settings.date, time, tz) : nowMs;
  }

  const listId = await ctx.db.insert("nightLists", {
    micId: settings.micId,
    date: settings.date,
    status: "open",
    openedBy: userId,
    spots,
    waitlistSpots,
    setMinutes,
    lightMinutes,
    mode: settings.mode,
    ...(drawAt !== undefined ? { drawAt } : {}),
    bucket: settings.mode === "lottery" && settings.bucket === true,
    signupOpensAt,
    version: 1,
  });
  return listId;
}
