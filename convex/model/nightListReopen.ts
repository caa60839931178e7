/**
 * A host who closed tonight's list by mistake opens it again: the same night
 * only (tonight in the mic's zone, or until 6 AM after a late show), never a
 * list closed because the night was cancelled (restoring the night does that).
 */
import type { Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { appError, ErrorCode } from "../errors";
import { addDaysToDate, DEFAULT_TIME_ZONE, HOUR_MS, localDateString } from "../lib/time";
import { requireHostedList } from "./nightLists";

/** A night's list can be reopened until this many hours after the mic's local midnight. */
export const REOPEN_UNTIL_HOURS_AFTER_MIDNIGHT = 6;

export const NOT_CLOSED_MESSAGE = "The list is already open";
export const CANCELLED_NIGHT_MESSAGE = "Tonight was cancelled: restore the night to reopen its list";
export const ANOTHER_NIGHT_MESSAGE = "Only tonight's list can be reopened";

/** Whether the night `date` ("YYYY-MM-DD" at the mic) is still tonight at `nowMs`. */
export function isSameNight(date: string, nowMs: number, timeZone: string): boolean {
  const today = localDateString(nowMs, timeZone);
  if (date === today) return true;
  const earlyMorning = localDateString(nowMs - REOPEN_UNTIL_HOURS_AFTER_MIDNIGHT * HOUR_MS, timeZone) !== today;
  return earlyMorning && date === addDaysToDate(today, -1);
}

/** The host reopens tonight's list they closed; everyone on it keeps their place. */
export async function reopenList(
  ctx: MutationCtx,
  { userId, listId, nowMs }: { userId: Id<"users">; listId: Id<"nightLists">; nowMs: number },
): Promise<null> {
  const { list, item } = await requireHostedList(ctx, userId, listId);
  if (list.status === "open") throw appError(ErrorCode.INVALID_INPUT, NOT_CLOSED_MESSAGE);
  if (list.closedReason === "cancelled") throw appError(ErrorCode.LIST_CLOSED, CANCELLED_NIGHT_MESSAGE);
  if (!isSameNight(list.date, nowMs, item.timeZone || DEFAULT_TIME_ZONE)) {
    throw appError(ErrorCode.LIST_CLOSED, ANOTHER_NIGHT_MESSAGE);
  }
  await ctx.db.patch("nightLists", list._id, { status: "open", closedReason: undefined, version: list.version + 1 });
  return null;
}
