/**
 * The rules of a comedian's material (bits, set lists, ratings): every limit
 * and message in one place, used by the server (model/bits, model/setLists,
 * model/bitRatings) and by the forms (src/features/bits).
 */
import { assertNoControlCharacters, invalid, optionalText, requiredText, tooLongMessage } from "./textRules";

export const BIT_STATUSES = ["new", "working", "tight", "retired"] as const;
export type BitStatus = (typeof BIT_STATUSES)[number];
export const BIT_STATUS_LABELS: Record<BitStatus, string> = {
  new: "New",
  working: "Working",
  tight: "Tight",
  retired: "Retired",
};

export const MAX_BIT_TITLE_LENGTH = 120;
export const MAX_BIT_NOTES_LENGTH = 5000;
export const MAX_BIT_TAGS = 20;
export const MAX_BIT_TAG_LENGTH = 40;
/** A bit runs from a few seconds (a one-liner) to half an hour. */
export const MIN_BIT_SECONDS = 1;
export const MAX_BIT_SECONDS = 1800;
export const MAX_BIT_SEARCH_LENGTH = 100;

export const BIT_TITLE_REQUIRED = "Please give the bit a title";
export const BIT_TITLE_TOO_LONG = tooLongMessage("Title", MAX_BIT_TITLE_LENGTH);
export const BIT_NOTES_TOO_LONG = tooLongMessage("Notes", MAX_BIT_NOTES_LENGTH);
export const BIT_TAG_TOO_LONG = `Tags must be ${MAX_BIT_TAG_LENGTH} characters or fewer`;
export const BIT_TOO_MANY_TAGS = `A bit can have at most ${MAX_BIT_TAGS} tags`;
export const BIT_SECONDS_MESSAGE = `Length must be a whole number of seconds from ${MIN_BIT_SECONDS} to ${MAX_BIT_SECONDS}`;
export const BIT_SEARCH_TOO_LONG = tooLongMessage("Search", MAX_BIT_SEARCH_LENGTH);
export const BIT_NOT_FOUND = "Bit not found";

/** The trimmed title; refuses an empty or over-long one. */
export function bitTitle(value: string): string {
  return requiredText(value, { label: "Title", max: MAX_BIT_TITLE_LENGTH, emptyMessage: BIT_TITLE_REQUIRED });
}

/** Trimmed notes (premise, tags lines), undefined when empty. */
export function bitNotes(value: string | undefined): string | undefined {
  return optionalText(value, { label: "Notes", max: MAX_BIT_NOTES_LENGTH, multiline: true });
}

/** Whether `seconds` is a bit length the server takes. */
export function isBitSeconds(seconds: number): boolean {
  return Number.isInteger(seconds) && seconds >= MIN_BIT_SECONDS && seconds <= MAX_BIT_SECONDS;
}

export function bitSeconds(value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!isBitSeconds(value)) invalid(BIT_SECONDS_MESSAGE);
  return value;
}

/** Trimmed tags with empties and repeats (in any case) dropped; at most 20 of 1..40 characters. */
export function bitTags(tags: readonly string[]): string[] {
  if (tags.length > MAX_BIT_TAGS * 4) invalid(BIT_TOO_MANY_TAGS);
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of tags) {
    if (raw.length > MAX_BIT_TAG_LENGTH * 4) invalid(BIT_TAG_TOO_LONG);
    const tag = raw.trim();
    if (tag === "") continue;
    if (tag.length > MAX_BIT_TAG_LENGTH) invalid(BIT_TAG_TOO_LONG);
    assertNoControlCharacters(tag, { label: "Tags" });
    const key = tagKey(tag);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(tag);
  }
  if (out.length > MAX_BIT_TAGS) invalid(BIT_TOO_MANY_TAGS);
  return out;
}

/** The form of a tag that filters match on. */
export function tagKey(tag: string): string {
  return tag.trim().toLowerCase();
}

/** A search typed in the library: trimmed, at most 100 characters. */
export function bitSearch(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value.length > MAX_BIT_SEARCH_LENGTH * 4) invalid(BIT_SEARCH_TOO_LONG);
  const text = value.trim();
  if (text.length > MAX_BIT_SEARCH_LENGTH) invalid(BIT_SEARCH_TOO_LONG);
  assertNoControlCharacters(text, { label: "Search" });
  return text === "" ? undefined : text;
}

/** "45s", "2:30", "12:05": a bit's or a set's length at a glance. */
export function formatBitLength(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return `${m}:${String(s).padStart(2, "0")}`;
}

export const MAX_SET_LIST_TITLE_LENGTH = 80;
/** Bits one set list holds: far past a headlining hour of one-liners. */
export const MAX_SET_LIST_BITS = 40;
export const MAX_RATING_NOTE_LENGTH = 500;

export const SET_LIST_TITLE_REQUIRED = "Please give the set list a name";
export const SET_LIST_TITLE_TOO_LONG = tooLongMessage("Name", MAX_SET_LIST_TITLE_LENGTH);
export const SET_LIST_TOO_MANY_BITS = `A set list can hold at most ${MAX_SET_LIST_BITS} bits`;
export const SET_LIST_NOT_FOUND = "Set list not found";
export const RATING_NOTE_TOO_LONG = tooLongMessage("Note", MAX_RATING_NOTE_LENGTH);
export const SET_NOT_FOUND = "Set not found";

export function setListTitle(value: string): string {
  return requiredText(value, {
    label: "Name",
    max: MAX_SET_LIST_TITLE_LENGTH,
    emptyMessage: SET_LIST_TITLE_REQUIRED,
  });
}

export function ratingNote(value: string | undefined): string | undefined {
  return optionalText(value, { label: "Note", max: MAX_RATING_NOTE_LENGTH });
}

/** A night's date, "YYYY-MM-DD", that exists on the calendar. */
export function isNightDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/** "How much landed" of a set: "2 of 3 landed". */
export function landedSummary({ landed, rated }: { landed: number; rated: number }): string {
  return `${landed} of ${rated} landed`;
}
