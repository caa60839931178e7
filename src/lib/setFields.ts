import { z } from "zod";
import {
  MAX_NOTES_LENGTH,
  MAX_SET_MINUTES,
  MIN_SET_MINUTES,
  NOTES_TOO_LONG_MESSAGE,
  SET_MINUTES_MESSAGE,
} from "@convex/lib/setRules";
import { withoutControlCharacters } from "./textSchema";

/** Minutes as typed: a number, or NaN for an empty or unreadable field (refused, never counted as 0). */
export function typedMinutes(value: unknown): number {
  if (typeof value === "number") return value;
  if (typeof value === "string" && value.trim() !== "") return Number(value.trim());
  return Number.NaN;
}

/** A set's minutes in a form: a whole number from 1 to 600, with the server's own message. */
export const setMinutesField = z.preprocess(
  typedMinutes,
  z
    .number({ error: SET_MINUTES_MESSAGE })
    .int(SET_MINUTES_MESSAGE)
    .min(MIN_SET_MINUTES, SET_MINUTES_MESSAGE)
    .max(MAX_SET_MINUTES, SET_MINUTES_MESSAGE),
);

/** A set's notes in a form: at most 2,000 characters, no control characters, with the server's own messages. */
export const setNotesField = withoutControlCharacters(
  z.string().max(MAX_NOTES_LENGTH, NOTES_TOO_LONG_MESSAGE),
  "Notes",
  {
    multiline: true,
  },
);

/** A set's tag as the server takes it: no control characters. */
export const setTagField = withoutControlCharacters(z.string(), "Tags");
