/**
 * IndexedDatabase's index queries (see indexedDatabase.ts): a query source
 * mapped onto one index, its range found by binary search and walked in query
 * order with the transaction's pending writes merged in; convex-test's
 * paginate over it, seeking to the cursor.
 */
import { getDocumentSize, jsonToConvex } from "convex/values";
import {
  compareKeys,
  type ConvexTestInternals,
  type Doc,
  fieldHelpers,
  finishPage,
  type PageResult,
  type PaginateArgs,
  type SerializedQuery,
  type Plan,
} from "./indexKeys.js";
import { type QuerySource, queryOperators } from "../convexTestTypes.js";
import type { TablesClass } from "../indexedTables.js";
import { ChunkedSortedList } from "./sortedList.js";

/** A query source over an index or a whole table (search sources go to indexedSearch.ts). */
type IndexSource = Exclude<QuerySource, { type: "Search" }>;

export type IndexQueriesClass = ReturnType<typeof withIndexQueries>;

/** Adds index queries and pagination to `Base` (indexedTables.ts). */
export function withIndexQueries(Base: TablesClass, ct: ConvexTestInternals) {
  const { evaluateFilter, evaluateRangeFilter, evaluateQueryValue, validateIndexRangeExpression } = ct;
  const { trackDropped } = fieldHelpers(ct);

  return class IndexQueries extends Base {
    /** Search queries and their pages: the layer above overrides these (indexedSearch.ts). */
    _evaluateSearch(_query: SerializedQuery): Doc[] {
      throw new Error("Search queries need the search layer (indexedSearch.ts)");
    }

    _paginateSearch(_args: PaginateArgs): PageResult {
      throw new Error("Search queries need the search layer (indexedSearch.ts)");
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

    _plan(source: IndexSource): Plan {
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
        const index = indexes?.find(({ indexDescriptor }) => indexDescriptor === indexName);
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
    *_stream(plan: Plan, isAfter?: (doc: Doc) => boolean, readUpTo?: { last: Doc | null }): Generator<Doc> {
      const { list, cmp } = plan.index;
      const asc = plan.order !== "desc";
      // A read that stopped early (`readUpTo.last` set by the caller) read the range up to that document only.
      const sign = asc ? 1 : -1;
      const read = (doc: Doc) =>
        !plan.before(doc) && !plan.after(doc) && (!readUpTo?.last || sign * cmp(doc, readUpTo.last) <= 0);
      if (this.onReadRange) this.onReadRange(plan.table, read);
      else this.onRead?.(plan.table);
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

    _evaluateQuery(query: SerializedQuery): Doc[] {
      if (query.source.type === "Search") return this._evaluateSearch(query);
      const plan = this._plan(query.source);
      const { filters, limit } = queryOperators(query);
      const bounded = limit !== null && Number.isInteger(limit) && limit >= 0;
      const results: Doc[] = [];
      if (bounded && limit === 0) return results;
      const readUpTo: { last: Doc | null } = { last: null };
      for (const doc of this._stream(plan, undefined, readUpTo)) {
        if (!filters.every((f: unknown) => evaluateFilter(doc, f))) {
          trackDropped(doc);
          continue;
        }
        results.push(doc);
        if (bounded && results.length >= limit) {
          // As Convex's read set: a `.take(n)` / `.first()` read its range up to the last document it returned.
          readUpTo.last = doc;
          break;
        }
      }
      return limit !== null && !bounded ? results.slice(0, limit) : results;
    }

    /** convex-test's paginate over {@link _stream}, seeking to the cursor. */
    paginate(args: PaginateArgs): PageResult {
      const { query, cursor, endCursor, pageSize, maximumRowsRead, maximumBytesRead } = args;
      if (query.source.type === "Search") return this._paginateSearch(args);
      const plan = this._plan(query.source);
      const order = plan.order;
      const { filters } = queryOperators(query);
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
              bytesRead += getDocumentSize(doc);
              readDocCursors.push(this._encodeCursor(doc, cursorFields));
              if (filterFn(doc)) page.push(doc);
              continueCursor = this._encodeCursor(doc, cursorFields);
            }
            break;
          }
        }
        rowsRead += 1;
        bytesRead += getDocumentSize(doc);
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
