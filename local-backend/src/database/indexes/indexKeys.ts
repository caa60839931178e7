/**
 * What IndexedDatabase's parts share (indexedDatabase.ts): its types, the
 * order of index keys (convex's compareValues), a page's end as convex-test
 * reports it, and field getters and indexes over a loaded convex-test module.
 */
import { compareValues, getDocumentSize, type Value } from "convex/values";
import type { ConvexTestInternals, Doc, Layer, SerializedQuery } from "../convexTestTypes.js";
import type { InvertedIndex } from "./searchIndex.js";
import { ChunkedSortedList } from "./sortedList.js";

export type { ConvexTestInternals, Doc, Layer, SerializedQuery };

/** A page as convex-test's `paginate` returns it. */
export type PageResult = {
  page: Doc[];
  isDone: boolean;
  continueCursor: string;
  splitCursor: string | null;
  pageStatus: string | null;
};

export type Index = {
  fields: string[];
  getters: ((doc: Doc) => unknown)[];
  cmp: (a: Doc, b: Doc) => number;
  list: ChunkedSortedList<Doc>;
};

export type Table = { docs: Map<string, Doc>; indexes: Map<string, Index>; searches: Map<string, InvertedIndex> };

/** How a query source maps onto one index. */
export type Plan = {
  table: string;
  index: Index;
  order: "asc" | "desc";
  /** The sort fields convex-test reports for cursors. */
  fieldPathsToSortBy: string[];
  before: (doc: Doc) => boolean;
  after: (doc: Doc) => boolean;
  inRange: (doc: Doc) => boolean;
};

/**
 * The end of a paginate as convex-test reports it: done when no continue
 * cursor was set, and a split cursor at the middle of the rows read when the
 * limits stopped the page (SplitRequired) or it read far more rows than it
 * returned (SplitRecommended).
 */
export function finishPage(
  page: Doc[],
  continueCursor: string,
  status: string | null,
  rowsRead: number,
  pageSize: number,
  readCursors: string[],
): PageResult {
  let pageStatus = status;
  let splitCursor: string | null = null;
  if (pageStatus === "SplitRequired" && readCursors.length >= 2) {
    splitCursor = readCursors[Math.floor((readCursors.length - 1) / 2)];
  } else if (pageStatus === null && rowsRead > pageSize + 1 && readCursors.length >= 2) {
    pageStatus = "SplitRecommended";
    splitCursor = readCursors[Math.floor((readCursors.length - 1) / 2)];
  }
  return { page, isDone: continueCursor === "_end_cursor", continueCursor, splitCursor, pageStatus };
}

/** What convex-test's `DatabaseFake.paginate` receives. */
export type PaginateArgs = {
  query: SerializedQuery;
  cursor: string | null;
  endCursor?: string | null;
  pageSize: number;
  maximumRowsRead?: number;
  maximumBytesRead?: number;
};

/** compareValues, with shortcuts for the common number and equal-string cases. */
export function compareKeys(a: unknown, b: unknown): number {
  if (typeof a === "number" && typeof b === "number") {
    if (a < b) return -1;
    if (a > b) return 1;
    if (a === b && a !== 0) return 0;
  } else if (typeof a === "string" && typeof b === "string") {
    // UTF-8 byte order is code point order; below the surrogates a UTF-16 code
    // unit is the code point, so compare those directly.
    // Not Math.min: convex-test makes `Math` a global read through AsyncLocalStorage
    // (its per-function stubs), which cost more than the comparison itself.
    const n = a.length < b.length ? a.length : b.length;
    for (let i = 0; i < n; i++) {
      const x = a.charCodeAt(i);
      const y = b.charCodeAt(i);
      if (x !== y) return x < 0xd800 && y < 0xd800 ? x - y : compareValues(a, b);
    }
    return a.length - b.length;
  }
  return compareValues(a as Value, b as Value);
}

/** A loaded convex-test module's field getters, indexes and read tracking (one set per module). */
export function fieldHelpers(ct: ConvexTestInternals) {
  const { evaluateFieldPath, getTransactionManager } = ct;

  /**
   * Counts a document a query read but its `.filter` dropped against the
   * transaction's read limits (32,000 documents, 16 MiB), as Convex does: a
   * filter runs over the rows the index range yields, and each one is read.
   * convex-test counts only the documents a query returns (its syscalls do
   * that for the kept ones), so a filter over 40,000 rows keeping none would
   * otherwise pass here and fail on Convex.
   */
  function trackDropped(doc: Doc): void {
    let tracker: { trackRead(bytes: number): void } | null = null;
    try {
      tracker = getTransactionManager().getMetricsTracker();
    } catch {
      return; // outside any function execution
    }
    tracker?.trackRead(getDocumentSize(doc));
  }

  function getter(fieldPath: string): (doc: Doc) => unknown {
    if (fieldPath.includes(".")) return (doc) => evaluateFieldPath(fieldPath, doc);
    return (doc) => {
      const value = doc[fieldPath];
      // Objects may hold pending commit-timestamp placeholders: resolve as convex-test does.
      return typeof value === "object" && value !== null ? evaluateFieldPath(fieldPath, doc) : value;
    };
  }

  function makeIndex(fields: string[], load: number): Index {
    const getters = fields.map(getter);
    const cmp = (a: Doc, b: Doc) => {
      for (const get of getters) {
        const c = compareKeys(get(a), get(b));
        if (c !== 0) return c;
      }
      return 0;
    };
    return { fields, getters, cmp, list: new ChunkedSortedList(cmp, load) };
  }

  return { trackDropped, getter, makeIndex };
}
