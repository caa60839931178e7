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
 */
import { currentTableNumbers } from "./ids.js";
import { compareValues, getDocumentSize, jsonToConvex } from "convex/values";
import {
  compareRank,
  InvertedIndex,
  parseSearchQuery,
  SEARCH_RESULT_LIMIT,
  type RankKey,
  type Ranked,
} from "./searchIndex.js";
import { checkUserDocument } from "./documentLimits.js";
import { ChunkedSortedList, DEFAULT_CHUNK_LOAD } from "./sortedList.js";
import type { LazyTable } from "./documentLoader.js";

type Doc = Record<string, any> & { _id: string; _creationTime: number };
type Layer = Record<string, Doc | null>;

type Index = {
  fields: string[];
  getters: ((doc: Doc) => unknown)[];
  cmp: (a: Doc, b: Doc) => number;
  list: ChunkedSortedList<Doc>;
};

type Table = { docs: Map<string, Doc>; indexes: Map<string, Index>; searches: Map<string, InvertedIndex> };

/** How a query source maps onto one index. */
type Plan = {
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
function finishPage(
  page: Doc[],
  continueCursor: string,
  status: string | null,
  rowsRead: number,
  pageSize: number,
  readCursors: string[],
) {
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
type PaginateArgs = {
  query: any;
  cursor: string | null;
  endCursor?: string | null;
  pageSize: number;
  maximumRowsRead?: number;
  maximumBytesRead?: number;
};

/** The convex-test internals this class needs (exported by convexTestLoader). */
export type ConvexTestInternals = {
  DatabaseFake: any;
  evaluateFieldPath: (fieldPath: string, doc: unknown) => unknown;
  evaluateFilter: (doc: unknown, filter: unknown) => unknown;
  evaluateRangeFilter: (doc: unknown, expr: unknown) => boolean;
  evaluateQueryValue: (value: unknown) => unknown;
  validateIndexRangeExpression: (source: unknown, fields: string[]) => void;
  resolveCommittedValues: (value: unknown, commitTs: bigint) => unknown;
  tableNameFromId: (id: string) => string | null;
  getTransactionManager: () => { getMetricsTracker(): { trackRead(bytes: number): void } | null };
};

/** compareValues, with shortcuts for the common number and equal-string cases. */
function compareKeys(a: unknown, b: unknown): number {
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
  return compareValues(a as any, b as any);
}

/** Committed-value writes of a table larger than this fraction rebuild its indexes instead. */
const REBUILD_FRACTION = 0.25;
const REBUILD_MIN = 2000;

const classes = new WeakMap<object, any>();

/** The IndexedDatabase class for a loaded convex-test module (one per module). */
export function indexedDatabaseClass(ct: ConvexTestInternals): any {
  let cls = classes.get(ct);
  if (!cls) {
    cls = makeClass(ct);
    classes.set(ct, cls);
  }
  return cls;
}

function makeClass(ct: ConvexTestInternals): any {
  const {
    evaluateFieldPath,
    evaluateFilter,
    evaluateRangeFilter,
    evaluateQueryValue,
    validateIndexRangeExpression,
    resolveCommittedValues,
    tableNameFromId,
    getTransactionManager,
  } = ct;

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
    tracker?.trackRead(getDocumentSize(doc as any));
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

  const layerTables = new WeakMap<Layer, Map<string, Set<string>>>();

  return class IndexedDatabase extends ct.DatabaseFake {
    /** Index chunk size (tests make it tiny to exercise chunk splits). */
    static chunkLoad = DEFAULT_CHUNK_LOAD;
    /** Called with the table of every document read and every query (read tracking). */
    onRead: ((table: string) => void) | null = null;
    /**
     * Called after a top-level commit with a timestamp, with that commit's
     * writes and (for read-set invalidation) each written document's committed
     * value before the commit.
     */
    onCommit: ((writes: Layer, commitTs: bigint, previous: Map<string, Doc | null>) => void) | null = null;
    // --- read-set recording (sync.ts invalidates subscriptions by what they read; see readSet.ts) ---
    /** Called for each index range a query streams, with a test of whether a document is within its bounds. */
    onReadRange: ((table: string, contains: (doc: Doc) => boolean) => void) | null = null;
    /** Called for each document read by id. */
    onReadId: ((table: string, id: string) => void) | null = null;
    _tables = new Map<string, Table>();
    _indexedSchema: unknown = undefined;

    constructor(schema: unknown, componentPath: string) {
      super(schema, componentPath);
      Object.defineProperty(this, "_documents", {
        get() {
          throw new Error(
            "IndexedDatabase keeps documents per table: use committed(), tableDocuments(), allDocuments()",
          );
        },
      });
    }

    // --- committed documents -------------------------------------------------

    _table(name: string): Table {
      let table = this._loaded(name);
      if (!table) this._tables.set(name, (table = { docs: new Map(), indexes: new Map(), searches: new Map() }));
      return table;
    }

    /**
     * User tables whose documents are still JSON text (documentLoader.ts): a
     * table is parsed whole the first time anything reads or writes it.
     */
    _lazy = new Map<string, LazyTable>();

    /** A table, its documents parsed first if they were not yet; undefined if it has none. */
    _loaded(name: string): Table | undefined {
      if (this._lazy.size > 0) {
        const lazy = this._lazy.get(name);
        if (lazy) {
          lazy.drain();
          this._lazy.delete(name);
          this._tables.set(name, { docs: lazy.docs as Map<string, Doc>, indexes: new Map(), searches: new Map() });
        }
      }
      return this._tables.get(name);
    }

    /** Parses up to `limit` documents of a table not parsed yet; false once every table is. */
    loadSome(limit: number): boolean {
      for (const [name, lazy] of this._lazy) {
        if (lazy.drain(limit)) this._loaded(name);
        return this._lazy.size > 0;
      }
      return false;
    }

    /** How many documents are still JSON text. */
    unparsedDocuments(): number {
      let count = 0;
      for (const lazy of this._lazy.values()) count += lazy.unparsed;
      return count;
    }

    /** The committed document with this id, or null. */
    committed(id: string): Doc | null {
      const table = tableNameFromId(id);
      if (table === null) return null;
      if (this._lazy.size > 0) {
        // The deltas' and the log's documents are parsed already (the start's data check reads them).
        const parsed = this._lazy.get(table)?.parsed.get(id);
        if (parsed) return parsed as Doc;
      }
      return this._loaded(table)?.docs.get(id) || null;
    }

    /** The committed documents of one table, by id (do not modify). */
    tableDocuments(table: string): ReadonlyMap<string, Doc> {
      return this._loaded(table)?.docs ?? new Map();
    }

    *allDocuments(): Generator<[string, Doc]> {
      for (const name of [...this._lazy.keys()]) this._loaded(name);
      for (const table of this._tables.values()) yield* table.docs;
    }

    documentCount(): number {
      let count = 0;
      for (const table of this._tables.values()) count += table.docs.size;
      for (const lazy of this._lazy.values()) count += lazy.size;
      return count;
    }

    /** Replaces every committed document (restore); indexes are rebuilt when next used. */
    loadDocuments(docs: Iterable<[string, Doc]>): void {
      this._tables = new Map();
      this._lazy = new Map();
      for (const [id, doc] of docs) {
        const table = tableNameFromId(id);
        if (table !== null) this._table(table).docs.set(id, doc);
      }
    }

    /** Replaces every committed document with parsed tables and tables parsed when first used (restore). */
    loadTables(parsed: Map<string, Map<string, Doc>>, lazy: Map<string, LazyTable>): void {
      this._tables = new Map();
      for (const [name, docs] of parsed) this._tables.set(name, { docs, indexes: new Map(), searches: new Map() });
      this._lazy = lazy;
    }

    /** Writes one committed document directly (no transaction), keeping the indexes. */
    putCommitted(id: string, doc: Doc | null): void {
      const table = tableNameFromId(id);
      if (table !== null) this._apply(this._table(table), id, doc);
    }

    _apply(table: Table, id: string, doc: Doc | null): void {
      const old = table.docs.get(id);
      if (doc === null) table.docs.delete(id);
      else table.docs.set(id, doc);
      for (const index of table.indexes.values()) {
        if (old && doc) {
          if (index.cmp(old, doc) === 0) index.list.replace(doc);
          else {
            index.list.remove(old);
            index.list.insert(doc);
          }
        } else if (old) index.list.remove(old);
        else if (doc) index.list.insert(doc);
      }
      for (const search of table.searches.values()) search.apply(old, doc);
    }

    /** Drops every index when the schema changed (hot reload may define them differently). */
    _checkSchema(): void {
      if (this._indexedSchema !== this._schema) {
        for (const table of this._tables.values()) {
          table.indexes.clear();
          table.searches.clear();
        }
        this._indexedSchema = this._schema;
      }
    }

    /** The index, built from the committed documents on first use. */
    _index(tableName: string, indexName: string, fields: string[]): Index {
      this._checkSchema();
      const table = this._table(tableName);
      let index = table.indexes.get(indexName);
      if (!index) {
        index = makeIndex(fields, (this.constructor as any).chunkLoad);
        const docs = [...table.docs.values()];
        // Sort on precomputed keys: one getter call per field and document.
        const keyed = docs.map((doc) => ({ doc, key: index!.getters.map((get) => get(doc)) }));
        keyed.sort((a, b) => {
          for (let i = 0; i < a.key.length; i++) {
            const c = compareKeys(a.key[i], b.key[i]);
            if (c !== 0) return c;
          }
          return 0;
        });
        index.list.loadSorted(keyed.map((k) => k.doc));
        table.indexes.set(indexName, index);
      }
      return index;
    }

    /**
     * Document ids are Convex's: random, with the table number inside (see ids.ts).
     */
    _generateId(table: string): string {
      for (;;) {
        const id = currentTableNumbers().newId(table);
        if (!this._writes.some((layer: Layer) => id in layer) && this.committed(id) === null) return id;
      }
    }

    // --- transactions ----------------------------------------------------------

    _addWrite(id: string, value: Doc | null): void {
      // Convex's document limits (size, nesting, array length, field names) on every user write.
      if (value !== null && !id.endsWith("_storage") && !(tableNameFromId(id) ?? "_").startsWith("_")) {
        checkUserDocument(value);
      }
      super._addWrite(id, value);
      const layer: Layer = this._writes[this._writes.length - 1];
      let tables = layerTables.get(layer);
      if (!tables) layerTables.set(layer, (tables = new Map()));
      const table = tableNameFromId(id) ?? "";
      let ids = tables.get(table);
      if (!ids) tables.set(table, (ids = new Set()));
      ids.add(id);
    }

    /** The transaction's pending writes to a table, top layer winning, in first-write order. */
    _pending(tableName: string): Map<string, Doc | null> {
      const pending = new Map<string, Doc | null>();
      for (const layer of this._writes as Layer[]) {
        const tables = layerTables.get(layer);
        const ids = tables
          ? tables.get(tableName)
          : Object.keys(layer).filter((id) => tableNameFromId(id) === tableName);
        if (ids) for (const id of ids) pending.set(id, layer[id]);
      }
      return pending;
    }

    get(tableName: string | undefined, id: string): Doc | null {
      this._validateId(tableName, id);
      if (this.onRead && typeof id === "string") {
        const table = tableName ?? tableNameFromId(id);
        if (table) {
          if (this.onReadId) this.onReadId(table, id);
          else this.onRead(table);
        }
      }
      const writes: Layer[] = this._writes;
      for (let i = writes.length - 1; i >= 0; i--) {
        const write = writes[i][id];
        if (write !== undefined) return write;
      }
      return this.committed(id);
    }

    commit(commitTs: bigint | null = null): void {
      const lastWrites: Layer | undefined = this._writes.pop();
      if (!lastWrites) throw new Error("Transaction already committed or rolled back");
      if (this._writes.length > 0) {
        for (const [id, write] of Object.entries(lastWrites)) this._addWrite(id, write);
        return;
      }
      const byTable = new Map<string, [string, Doc | null][]>();
      for (const [id, write] of Object.entries(lastWrites)) {
        const table = tableNameFromId(id);
        if (table === null) continue;
        let list = byTable.get(table);
        if (!list) byTable.set(table, (list = []));
        list.push([id, write === null || commitTs === null ? write : (resolveCommittedValues(write, commitTs) as Doc)]);
      }
      const previous = new Map<string, Doc | null>();
      for (const [name, writes] of byTable) {
        const table = this._table(name);
        for (const [id] of writes) previous.set(id, table.docs.get(id) ?? null);
        // A bulk write (an import) rebuilds the table's indexes when next used.
        if (writes.length > REBUILD_MIN && writes.length > table.docs.size * REBUILD_FRACTION) {
          table.indexes.clear();
          table.searches.clear();
        }
        for (const [id, doc] of writes) this._apply(table, id, doc);
      }
      if (commitTs !== null) this.onCommit?.(lastWrites, commitTs, previous);
    }

    // --- queries -----------------------------------------------------------------

    _iterateDocs(tableName: string, callback: (doc: Doc) => void): void {
      this.onRead?.(tableName);
      const committed = this._loaded(tableName)?.docs;
      const pending = this._pending(tableName);
      if (committed) {
        for (const [id, doc] of committed) {
          if (!pending.has(id)) callback(doc);
          else {
            const write = pending.get(id)!;
            if (write !== null) callback(write);
          }
        }
      }
      for (const [id, write] of pending) if (write !== null && !committed?.has(id)) callback(write);
    }

    _plan(source: any): Plan {
      if (source.type === "FullTableScan") {
        const table = source.tableName;
        const fields = ["_creationTime", "_id"];
        return {
          table,
          index: this._index(table, "by_creation_time", fields),
          order: source.order ?? "asc",
          fieldPathsToSortBy: ["_creationTime"],
          before: () => false,
          after: () => false,
          inRange: () => true,
        };
      }
      const [table, indexName] = String(source.indexName).split(".");
      let fields: string[];
      if (indexName === "by_creation_time") fields = ["_creationTime", "_id"];
      else if (indexName === "by_id") fields = ["_id"];
      else {
        const indexes = this._schema?.tables.get(table)?.indexes;
        const index = indexes?.find(({ indexDescriptor }: any) => indexDescriptor === indexName);
        if (index === undefined) {
          throw new Error(
            `Cannot use index "${indexName}" for table "${table}" because ` + `it is not declared in the schema.`,
          );
        }
        fields = index.fields.concat(["_creationTime", "_id"]);
      }
      validateIndexRangeExpression(source, fields);
      const index = this._index(table, indexName, fields);
      // A valid range is .eq on a prefix of the fields, then at most one lower
      // and one upper bound on the next field: a contiguous run of the index.
      const eqs: unknown[] = [];
      let lower: { value: unknown; strict: boolean } | null = null;
      let upper: { value: unknown; strict: boolean } | null = null;
      for (const expr of source.range) {
        const value = evaluateQueryValue(expr.value);
        if (expr.type === "Eq") eqs.push(value);
        else if (expr.type === "Gt" || expr.type === "Gte") lower = { value, strict: expr.type === "Gt" };
        else upper = { value, strict: expr.type === "Lt" };
      }
      const k = eqs.length;
      const getters = index.getters;
      const before = (doc: Doc) => {
        for (let j = 0; j < k; j++) {
          const c = compareKeys(getters[j](doc), eqs[j]);
          if (c !== 0) return c < 0;
        }
        if (lower) {
          const c = compareKeys(getters[k](doc), lower.value);
          return lower.strict ? c <= 0 : c < 0;
        }
        return false;
      };
      const after = (doc: Doc) => {
        for (let j = 0; j < k; j++) {
          const c = compareKeys(getters[j](doc), eqs[j]);
          if (c !== 0) return c > 0;
        }
        if (upper) {
          const c = compareKeys(getters[k](doc), upper.value);
          return upper.strict ? c >= 0 : c > 0;
        }
        return false;
      };
      const inRange = (doc: Doc) => source.range.every((expr: unknown) => evaluateRangeFilter(doc, expr));
      return { table, index, order: source.order ?? "asc", fieldPathsToSortBy: fields, before, after, inRange };
    }

    /**
     * The documents of a plan's range in query order: the committed index run
     * found by binary search, with the transaction's pending writes merged in.
     * `isAfter`, when given, starts the run after a cursor (it must be
     * monotonic in query order, as cursor comparisons are).
     */
    *_stream(plan: Plan, isAfter?: (doc: Doc) => boolean): Generator<Doc> {
      if (this.onReadRange) this.onReadRange(plan.table, (doc) => !plan.before(doc) && !plan.after(doc));
      else this.onRead?.(plan.table);
      const { list, cmp } = plan.index;
      const asc = plan.order !== "desc";
      let lo = list.partition(plan.before);
      let hi = list.partition((doc) => !plan.after(doc));
      if (isAfter) {
        if (asc) {
          const start = list.partition((doc) => !isAfter(doc));
          if (ChunkedSortedList.comparePos(start, lo) > 0) lo = start;
        } else {
          const end = list.partition(isAfter);
          if (ChunkedSortedList.comparePos(end, hi) < 0) hi = end;
        }
      }
      if (ChunkedSortedList.comparePos(lo, hi) >= 0) lo = hi;
      const committed = asc ? list.forward(lo, hi) : list.backward(hi, lo);
      const pending = this._pending(plan.table);
      if (pending.size === 0) {
        for (const doc of committed) if (plan.inRange(doc)) yield doc;
        return;
      }
      const sign = asc ? 1 : -1;
      const added: Doc[] = [];
      for (const doc of pending.values()) {
        if (doc !== null && plan.inRange(doc) && (!isAfter || isAfter(doc))) added.push(doc);
      }
      added.sort((a, b) => sign * cmp(a, b));
      let next = 0;
      for (const doc of committed) {
        if (pending.has(doc._id) || !plan.inRange(doc)) continue;
        while (next < added.length && sign * cmp(added[next], doc) < 0) yield added[next++];
        yield doc;
      }
      while (next < added.length) yield added[next++];
    }

    // --- search ------------------------------------------------------------------

    /** The inverted index of a schema search index, built from the committed documents on first use. */
    _searchIndex(tableName: string, indexName: string, searchField: string): InvertedIndex {
      this._checkSchema();
      const table = this._table(tableName);
      let index = table.searches.get(indexName);
      if (!index) {
        const get = getter(searchField);
        index = new InvertedIndex(get as (doc: Doc) => unknown);
        index.load(table.docs.values());
        table.searches.set(indexName, index);
      }
      return index;
    }

    _searchPlan(source: any) {
      const [table, indexName] = String(source.indexName).split(".");
      const definition = this._schema?.tables
        .get(table)
        ?.searchIndexes?.find(({ indexDescriptor }: any) => indexDescriptor === indexName);
      if (definition === undefined) {
        throw new Error(
          `Cannot use search index "${indexName}" for table "${table}" because it is not declared in the schema.`,
        );
      }
      let text: string | null = null;
      const eqs: { get: (doc: Doc) => unknown; value: unknown }[] = [];
      for (const filter of source.filters) {
        if (filter.type === "Search") {
          if (filter.fieldPath !== definition.searchField) {
            throw new Error(
              `Search index "${table}.${indexName}" searches "${definition.searchField}", not "${filter.fieldPath}".`,
            );
          }
          text = String(filter.value);
        } else {
          if (!definition.filterFields.includes(filter.fieldPath)) {
            throw new Error(
              `Search index "${table}.${indexName}" has no filter field "${filter.fieldPath}" (filter fields: ${definition.filterFields.join(", ")}).`,
            );
          }
          eqs.push({ get: getter(filter.fieldPath), value: evaluateQueryValue(filter.value) });
        }
      }
      const keep = (doc: Doc) => eqs.every(({ get, value }) => compareValues(get(doc) as any, value as any) === 0);
      return {
        table,
        index: this._searchIndex(table, indexName, definition.searchField),
        terms: parseSearchQuery(text ?? ""),
        keep,
      };
    }

    /** A search's ranked results after `after`, at most `limit` (and never over Convex's 1024). */
    _search(source: any, after: RankKey | null, limit: number): Ranked[] {
      const plan = this._searchPlan(source);
      this.onRead?.(plan.table);
      return plan.index.search(
        plan.terms,
        plan.keep,
        this._pending(plan.table),
        after,
        Math.min(limit, SEARCH_RESULT_LIMIT),
      );
    }

    _evaluateSearch(query: any): Doc[] {
      const filters = query.operators.filter((op: any) => "filter" in op).map((op: any) => op.filter);
      const limitOp = query.operators.filter((op: any) => "limit" in op)[0] ?? null;
      const limit: number | null = limitOp?.limit ?? null;
      const bounded = limit !== null && Number.isInteger(limit) && limit >= 0;
      const ranked = this._search(query.source, null, bounded && filters.length === 0 ? limit : SEARCH_RESULT_LIMIT);
      const docs: Doc[] = [];
      for (const { doc } of ranked) {
        if (bounded && docs.length >= (limit ?? 0)) break;
        if (filters.every((f: unknown) => evaluateFilter(doc, f))) docs.push(doc);
        else trackDropped(doc);
      }
      return limit !== null ? docs.slice(0, limit) : docs;
    }

    /** paginate for a search: the cursor is the last row's rank key, so pages follow the ranked order. */
    _paginateSearch(args: PaginateArgs): any {
      const { query, cursor, endCursor, pageSize, maximumRowsRead, maximumBytesRead } = args;
      const encode = (key: RankKey) => JSON.stringify(["search", ...key]);
      const parse = (c: string): RankKey => {
        let value: unknown;
        try {
          value = JSON.parse(c);
        } catch {
          value = null;
        }
        if (
          !Array.isArray(value) ||
          value.length !== 5 ||
          value[0] !== "search" ||
          typeof value[1] !== "number" ||
          typeof value[2] !== "number" ||
          typeof value[3] !== "number" ||
          typeof value[4] !== "string"
        ) {
          throw new Error(`Invalid search cursor: ${c}`);
        }
        return value.slice(1) as RankKey;
      };
      const page: Doc[] = [];
      if (cursor === "_end_cursor") {
        this.onRead?.(String(query.source.indexName).split(".")[0]);
        return { page, isDone: true, continueCursor: "_end_cursor", splitCursor: null, pageStatus: null };
      }
      const filters = query.operators.filter((op: any) => "filter" in op).map((op: any) => op.filter);
      const filterFn = (doc: Doc) => {
        const keep = filters.every((f: unknown) => evaluateFilter(doc, f));
        if (!keep) trackDropped(doc);
        return keep;
      };
      const end = endCursor && endCursor !== "_end_cursor" ? parse(endCursor) : null;
      // Without `.filter` or an end cursor a page needs only pageSize rows and one to know there are more.
      const want =
        !end && filters.length === 0 ? Math.min(Math.max(pageSize, 0) + 1, SEARCH_RESULT_LIMIT) : SEARCH_RESULT_LIMIT;
      const ranked = this._search(query.source, cursor ? parse(cursor) : null, want);
      const capped = ranked.length === SEARCH_RESULT_LIMIT;
      let continueCursor = "_end_cursor";
      let pageStatus: string | null = null;
      let rowsRead = 0;
      let bytesRead = 0;
      const readCursors: string[] = [];
      for (let i = 0; i < ranked.length; i++) {
        const { doc, key } = ranked[i];
        if (end) {
          const c = compareRank(key, end);
          if (c >= 0) {
            if (c === 0) {
              rowsRead += 1;
              readCursors.push(encode(key));
              if (filterFn(doc)) page.push(doc);
              continueCursor = encode(key);
            }
            break;
          }
        }
        rowsRead += 1;
        bytesRead += getDocumentSize(doc as any);
        readCursors.push(encode(key));
        let hitLimit = false;
        if (maximumRowsRead && rowsRead >= maximumRowsRead) hitLimit = true;
        if (maximumBytesRead && bytesRead >= maximumBytesRead) hitLimit = true;
        if (filterFn(doc)) page.push(doc);
        if (hitLimit) {
          pageStatus = "SplitRequired";
          continueCursor = encode(key);
          break;
        }
        if (!endCursor && page.length >= pageSize) {
          if (i < ranked.length - 1 || capped) continueCursor = encode(key);
          break;
        }
        // This call read its 1024 ranked rows without filling the page: the next page goes on from here.
        if (capped && i === ranked.length - 1 && !end) continueCursor = encode(key);
      }
      return finishPage(page, continueCursor, pageStatus, rowsRead, pageSize, readCursors);
    }

    _evaluateQuery(query: any): Doc[] {
      if (query.source.type === "Search") return this._evaluateSearch(query);
      const plan = this._plan(query.source);
      const filters = query.operators.filter((op: any) => "filter" in op).map((op: any) => op.filter);
      const limitOp = query.operators.filter((op: any) => "limit" in op)[0] ?? null;
      const limit: number | null = limitOp?.limit ?? null;
      const bounded = limit !== null && Number.isInteger(limit) && limit >= 0;
      const results: Doc[] = [];
      if (bounded && limit === 0) return results;
      for (const doc of this._stream(plan)) {
        if (!filters.every((f: unknown) => evaluateFilter(doc, f))) {
          trackDropped(doc);
          continue;
        }
        results.push(doc);
        if (bounded && results.length >= limit) break;
      }
      return limit !== null && !bounded ? results.slice(0, limit) : results;
    }

    /** convex-test's paginate over {@link _stream}, seeking to the cursor. */
    paginate(args: PaginateArgs): any {
      const { query, cursor, endCursor, pageSize, maximumRowsRead, maximumBytesRead } = args;
      if (query.source.type === "Search") return this._paginateSearch(args);
      const plan = this._plan(query.source);
      const order = plan.order;
      const filters = query.operators.filter((op: any) => "filter" in op).map((op: any) => op.filter);
      const filterFn = (doc: Doc) => {
        const keep = filters.every((f: unknown) => evaluateFilter(doc, f));
        if (!keep) trackDropped(doc);
        return keep;
      };
      const fieldPathsToSortBy = plan.fieldPathsToSortBy;
      const cursorFields = fieldPathsToSortBy.includes("_id") ? fieldPathsToSortBy : [...fieldPathsToSortBy, "_id"];
      const parseCursor = (c: string | null | undefined): unknown[] | null => {
        if (!c) return null;
        return JSON.parse(c).map((k: string | null) => (k === null ? undefined : jsonToConvex(JSON.parse(k))));
      };
      const cursorKeys = cursor !== "_end_cursor" ? parseCursor(cursor) : null;
      const hasEndBoundary = !!endCursor && endCursor !== "_end_cursor";
      const endCursorKeys = hasEndBoundary ? parseCursor(endCursor) : null;
      const page: Doc[] = [];
      let continueCursor = "_end_cursor";
      let pageStatus: string | null = null;
      let rowsRead = 0;
      let bytesRead = 0;
      const readDocCursors: string[] = [];
      if (cursor === "_end_cursor") {
        // Past the end: nothing is after the end cursor.
        this.onRead?.(plan.table);
        return { page, isDone: true, continueCursor, splitCursor: null, pageStatus };
      }
      const isAfter = cursorKeys
        ? (doc: Doc) => this._docIsAfterCursor(doc, cursorKeys, cursorFields, order) > 0
        : undefined;
      const stream = this._stream(plan, isAfter);
      let current = stream.next();
      while (!current.done) {
        const doc = current.value;
        const following = stream.next();
        const isLastDoc = following.done;
        current = following;
        if (hasEndBoundary && endCursorKeys) {
          const cmp = this._docIsAfterCursor(doc, endCursorKeys, cursorFields, order);
          if (cmp >= 0) {
            if (cmp === 0) {
              rowsRead += 1;
              bytesRead += getDocumentSize(doc as any);
              readDocCursors.push(this._encodeCursor(doc, cursorFields));
              if (filterFn(doc)) page.push(doc);
              continueCursor = this._encodeCursor(doc, cursorFields);
            }
            break;
          }
        }
        rowsRead += 1;
        bytesRead += getDocumentSize(doc as any);
        readDocCursors.push(this._encodeCursor(doc, cursorFields));
        let hitLimit = false;
        if (maximumRowsRead && rowsRead >= maximumRowsRead) hitLimit = true;
        if (maximumBytesRead && bytesRead >= maximumBytesRead) hitLimit = true;
        if (filterFn(doc)) page.push(doc);
        if (hitLimit) {
          pageStatus = "SplitRequired";
          continueCursor = this._encodeCursor(doc, cursorFields);
          break;
        }
        if (!endCursor && page.length >= pageSize) {
          if (!isLastDoc) continueCursor = this._encodeCursor(doc, cursorFields);
          break;
        }
      }
      return finishPage(page, continueCursor, pageStatus, rowsRead, pageSize, readDocCursors);
    }
  };
}
