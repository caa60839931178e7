/**
 * Limits of the non-text arguments queries take from the client: a time in
 * milliseconds and Convex's pagination options. Each refuses hostile values
 * (non-finite, absurd, megabyte cursors) with INVALID_INPUT before any
 * reading is done with them.
 */
import { invalid } from "./textRules";

/** The earliest and latest time accepted: 0 means "since the beginning" to some queries. */
export const MIN_TIME_MS = 0;
export const MAX_TIME_MS = Date.UTC(2200, 0, 1);
/** Longest pagination cursor accepted (Convex's are well under 1 KB). */
export const MAX_CURSOR_LENGTH = 10_000;
/** Largest page a client may ask for. */
export const MAX_PAGE_ITEMS = 1000;

/** A time from the client: finite and between 1970 and 2200. */
export function assertTimeMs(ms: number, message = "The time is not valid"): void {
  if (!Number.isFinite(ms) || ms < MIN_TIME_MS || ms > MAX_TIME_MS) invalid(message);
}

type PageOpts = {
  numItems: number;
  cursor: string | null;
  endCursor?: string | null;
  id?: number;
  maximumRowsRead?: number;
  maximumBytesRead?: number;
};

/** Pagination options from the client: finite numbers in range, cursors of a sane length. */
export function assertPageOpts(opts: PageOpts): void {
  if (!Number.isFinite(opts.numItems) || opts.numItems < 0 || opts.numItems > MAX_PAGE_ITEMS) {
    invalid(`Page size must be a number from 0 to ${MAX_PAGE_ITEMS}`);
  }
  for (const cursor of [opts.cursor, opts.endCursor]) {
    if (typeof cursor === "string" && cursor.length > MAX_CURSOR_LENGTH) invalid("The page cursor is not valid");
  }
  for (const n of [opts.id, opts.maximumRowsRead, opts.maximumBytesRead]) {
    if (n !== undefined && (!Number.isFinite(n) || n < 0 || n > Number.MAX_SAFE_INTEGER))
      invalid("The page options are not valid");
  }
}
