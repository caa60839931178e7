/** The limits of a logged set, shared by the server and the forms so both say the same thing. */
import { tooLongMessage } from "./textRules";

/** A set is 1 to 600 minutes: 0 is no set at all, and 10 hours covers the longest show. */
export const MIN_SET_MINUTES = 1;
export const MAX_SET_MINUTES = 600;
export const SET_MINUTES_MESSAGE = `Minutes must be a whole number from ${MIN_SET_MINUTES} to ${MAX_SET_MINUTES}`;
export const MAX_NOTES_LENGTH = 2000;
export const NOTES_TOO_LONG_MESSAGE = tooLongMessage("Notes", MAX_NOTES_LENGTH);

/** Whether `minutes` is a set length the server takes. */
export function isSetMinutes(minutes: number): boolean {
  return Number.isInteger(minutes) && minutes >= MIN_SET_MINUTES && minutes <= MAX_SET_MINUTES;
}
