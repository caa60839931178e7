/**
 * The rules of a mic night's live list, in one place: its limits, the messages
 * comedians and hosts see, and the checks on what a host types. Every write
 * path in model/nightLists*.ts uses these.
 */
import { invalid, requiredText } from "./textRules";

export const MAX_SPOTS = 100;
export const MAX_WAITLIST_SPOTS = 100;
export const DEFAULT_WAITLIST_SPOTS = 10;
export const MAX_LIST_SET_MINUTES = 60;
export const DEFAULT_SET_MINUTES = 5;
export const MAX_LIGHT_MINUTES = 10;
export const MAX_NAME_LENGTH = 60;
/** Rows a list can hold: spots plus waitlist. */
export const MAX_LIST_ROWS = MAX_SPOTS + MAX_WAITLIST_SPOTS;
/**
 * Names a lottery's pool holds before its draw, whatever the spots: a pool as
 * small as the list let a handful of throwaway accounts fill it.
 */
export const MAX_POOL = MAX_LIST_ROWS;
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
export const REMOVED_FROM_LIST_MESSAGE = "The host took your name off tonight's list.";
export const NEW_ACCOUNT_MESSAGE =
  "New accounts can sign up online a day after they're made. Ask the host to add you as a walk-in tonight.";

/** A whole number within [min, max], or a clear error naming the field. */
export function wholeNumber(value: number, { label, min, max }: { label: string; min: number; max: number }): number {
  if (!Number.isInteger(value) || value < min || value > max)
    invalid(`${label} must be a whole number from ${min} to ${max}`);
  return value;
}

/** A walk-in's name as the host typed it: trimmed, not blank, at most MAX_NAME_LENGTH characters. */
export function walkInName(raw: string): string {
  return requiredText(raw, { label: "Names", max: MAX_NAME_LENGTH, emptyMessage: "Please enter the comedian's name" });
}
