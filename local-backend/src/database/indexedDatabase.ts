/**
 * convex-test's DatabaseFake with storage per table and ordered indexes, so an
 * index range costs what it reads, as on Convex.
 *
 * Stock DatabaseFake keeps every document of every table in one object; each
 * query walks all of its keys, filters the range and sorts it, and `paginate`
 * walks from the start of the range to the cursor. Here:
 *
 * - committed documents live in one `Map` per table (`_documents` is gone);
 * - each index of a table (schema indexes, `by_creation_time`, `by_id`) is a
 *   {@link ChunkedSortedList} of the committed documents ordered by
 *   (index fields..., _creationTime, _id) with convex's `compareValues`. An
 *   index is built (one sort) the first time a query uses it and from then on
 *   maintained by every commit: a write moves one entry (or none when the key
 *   did not change);
 * - an index range is found by binary search from the range expression, a
 *   cursor by binary search from its key; the transaction's pending writes are
 *   overlaid (a pending document replaces or removes the committed one with
 *   its id, and joins the range if it matches), so a mutation reads its own
 *   writes;
 * - a `.take(n)` / `.first()` / `.unique()` stops after n matching documents.
 *
 * Results are those of stock DatabaseFake: same order, filters, limits, page
 * boundaries, cursors, split cursors and page status
 * (tests/local-backend/indexedDatabase.test.ts compares both on random work).
 * Search queries (`withSearchIndex`) read an inverted index per search index
 * and return results by relevance (see searchIndex.ts for the rules), not
 * convex-test's scan in insertion order; vector search keeps convex-test's
 * scan, over its own table.
 *
 * The class is built in layers over convex-test's DatabaseFake: tables,
 * indexes and transactions (indexedTables.ts), index queries and pagination
 * (indexQueries.ts), search (indexedSearch.ts); what they share is in
 * indexKeys.ts.
 */
import { withIndexQueries } from "./indexes/indexQueries.js";
import type { ConvexTestInternals } from "./indexes/indexKeys.js";
import { tablesClass } from "./indexedTables.js";
import { withSearch } from "./indexes/indexedSearch.js";

function buildClass(ct: ConvexTestInternals) {
  return class IndexedDatabase extends withSearch(withIndexQueries(tablesClass(ct), ct), ct) {};
}

/** The IndexedDatabase class of a loaded convex-test module, and one of its databases. */
type IndexedDatabaseClass = ReturnType<typeof buildClass>;
export type IndexedDatabase = InstanceType<IndexedDatabaseClass>;

const classes = new WeakMap<object, IndexedDatabaseClass>();

/** The IndexedDatabase class for a loaded convex-test module (one per module). */
export function indexedDatabaseClass(ct: ConvexTestInternals): IndexedDatabaseClass {
  let cls = classes.get(ct);
  if (!cls) {
    cls = buildClass(ct);
    classes.set(ct, cls);
  }
  return cls;
}
