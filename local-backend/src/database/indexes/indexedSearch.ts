/**
 * IndexedDatabase's full-text search (see indexedDatabase.ts and
 * searchIndex.ts for matching and ranking): an inverted index per schema
 * search index, built on first use, and Convex's query rules around it
 * (crates/search/src/lib.rs `compile`, crates/database/src/query/search_query.rs):
 *
 * - the search filter expression is checked with Convex's errors: one
 *   `.search` on the index's search field, `.eq` only on its filter fields,
 *   at most {@link MAX_FILTER_CONDITIONS} of them;
 * - a search yields its best {@link MAX_CANDIDATE_REVISIONS} candidates; asking
 *   for one more (a `.collect()`, a `.take(n)` or a `.filter` reading past
 *   them) throws Convex's "Search query scanned too many documents" error;
 * - a page's cursor only narrows those candidates, so paging ends after the
 *   1,024th result, a page never peeks past its last row (isDone comes on
 *   the page after), and `maximumRowsRead` / `maximumBytesRead` do not apply;
 * - the read set holds, as Convex's `QueryReads`, the query's words and
 *   filter-field values (a write to a document matching them conflicts or
 *   re-runs the query) and the documents read.
 */
import { compareValues, getDocumentSize, type Value } from "convex/values";
import { type QuerySource, queryOperators, type QueryStep, type SerializedQuery } from "../convexTestTypes.js";
import { type ConvexTestInternals, type Doc, fieldHelpers, type PageResult, type PaginateArgs } from "./indexKeys.js";
import type { IndexQueriesClass } from "./indexQueries.js";
import {
  compareRank,
  InvertedIndex,
  MAX_CANDIDATE_REVISIONS,
  MAX_FILTER_CONDITIONS,
  parseSearchQuery,
  SCANNED_TOO_MANY_MESSAGE,
  textOverlaps,
  type RankKey,
  type Ranked,
} from "./searchIndex.js";

/** Set on a `.collect()`'s results that stopped at the candidate limit: reading past them throws. */
const SCANNED_TOO_MANY = Symbol("scannedTooMany");

/** Convex's soft limits for a page: past them the page status is SplitRecommended. */
const SOFT_ROWS = (MAX_CANDIDATE_REVISIONS * 3) / 4;
const SOFT_BYTES = ((1 << 24) * 3) / 4;

type SearchSource = Extract<QuerySource, { type: "Search" }>;

/** Adds search queries to `Base` (indexQueries.ts). */
export function withSearch(Base: IndexQueriesClass, ct: ConvexTestInternals) {
  const { evaluateFilter, evaluateQueryValue } = ct;
  const { trackDropped, getter } = fieldHelpers(ct);

  return class IndexedSearch extends Base {
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

    _searchPlan(source: SearchSource) {
      const [table, indexName] = String(source.indexName).split(".");
      const definition = this._schema?.tables
        .get(table)
        ?.searchIndexes?.find(({ indexDescriptor }) => indexDescriptor === indexName);
      if (definition === undefined) {
        throw new Error(
          `Cannot use search index "${indexName}" for table "${table}" because it is not declared in the schema.`,
        );
      }
      const printable = `${table}.${indexName}`;
      const searchField: string = definition.searchField;
      let text: string | null = null;
      const eqs: { get: (doc: Doc) => unknown; value: unknown }[] = [];
      for (const filter of source.filters) {
        if (filter.type === "Search") {
          if (filter.fieldPath !== searchField) {
            throw new Error(
              `Search query against ${printable} contains a search filter against "${filter.fieldPath}", which doesn't match the indexed \`searchField\` "${searchField}".`,
            );
          }
          if (text !== null) {
            throw new Error(
              `Search query against ${printable} contains multiple search filters against "${filter.fieldPath}". Only one is allowed.`,
            );
          }
          text = String(filter.value);
        } else {
          if (!definition.filterFields.includes(filter.fieldPath)) {
            throw new Error(
              `Search query against ${printable} contains an equality filter on "${filter.fieldPath}" but that field isn't indexed for filtering in \`filterFields\`.`,
            );
          }
          eqs.push({ get: getter(filter.fieldPath), value: evaluateQueryValue(filter.value) });
        }
      }
      if (text === null) {
        // Convex prints the field path quoted inside quotes.
        throw new Error(
          `Search query against ${printable} does not contain any search filters. You must include a search filter like \`q.search(""${searchField}"", searchText)\`.`,
        );
      }
      if (eqs.length > MAX_FILTER_CONDITIONS) {
        throw new Error(
          `Search query against ${printable} has too many filter conditions. Max: ${MAX_FILTER_CONDITIONS} Actual: ${eqs.length}`,
        );
      }
      const keep = (doc: Doc) => eqs.every(({ get, value }) => compareValues(get(doc) as Value, value as Value) === 0);
      const terms = parseSearchQuery(text);
      const getText = getter(searchField);
      return {
        table,
        index: this._searchIndex(table, indexName, searchField),
        terms,
        keep,
        // Convex's QueryReads: a write overlaps when it matches the filter fields and a query word.
        overlaps: (doc: Doc) => keep(doc) && textOverlaps(terms, getText(doc)),
      };
    }

    /** A search's candidates, ranked (at most MAX_CANDIDATE_REVISIONS), recording the search in the read set. */
    _search(source: SearchSource): { table: string; ranked: Ranked[] } {
      const plan = this._searchPlan(source);
      if (this.onReadRange) this.onReadRange(plan.table, plan.overlaps);
      else this.onRead?.(plan.table);
      return { table: plan.table, ranked: plan.index.search(plan.terms, plan.keep, this._pending(plan.table)) };
    }

    /** Records a search result as read by id (Convex loads each candidate by id). */
    _readResult(table: string, doc: Doc): void {
      if (this.onReadId) this.onReadId(table, doc._id);
    }

    _evaluateSearch(query: SerializedQuery): Doc[] {
      const { filters, limit } = queryOperators(query);
      const bounded = limit !== null && Number.isInteger(limit) && limit >= 0;
      const { table, ranked } = this._search(query.source as SearchSource);
      const docs: Doc[] = [];
      // As Convex's query stream: the limit stops before reading on; reading past the last candidate throws.
      let i = 0;
      for (;;) {
        if (bounded && docs.length >= limit!) break;
        if (i === MAX_CANDIDATE_REVISIONS) {
          if (bounded) throw new Error(SCANNED_TOO_MANY_MESSAGE);
          // An unbounded stream throws when the caller asks for the next document.
          (docs as Doc[] & { [SCANNED_TOO_MANY]?: boolean })[SCANNED_TOO_MANY] = true;
          break;
        }
        if (i >= ranked.length) break;
        const { doc } = ranked[i++];
        this._readResult(table, doc);
        if (filters.every((f: unknown) => evaluateFilter(doc, f))) docs.push(doc);
        else trackDropped(doc);
      }
      return docs;
    }

    queryNext(queryId: number): QueryStep {
      const results = this._queryResults?.[queryId];
      if (results !== undefined && results.length === 0 && results[SCANNED_TOO_MANY]) {
        throw new Error(SCANNED_TOO_MANY_MESSAGE);
      }
      return super.queryNext(queryId);
    }

    /** paginate for a search: the cursor is a row's rank key, narrowing the candidates. */
    _paginateSearch(args: PaginateArgs): PageResult {
      const { query, cursor, endCursor, pageSize } = args;
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
          value.length !== 4 ||
          value[0] !== "search" ||
          typeof value[1] !== "number" ||
          typeof value[2] !== "number" ||
          typeof value[3] !== "string"
        ) {
          throw new Error(`Invalid search cursor: ${c}`);
        }
        return value.slice(1) as RankKey;
      };
      const start = cursor && cursor !== "_end_cursor" ? parse(cursor) : null;
      const end = endCursor && endCursor !== "_end_cursor" ? parse(endCursor) : null;
      const { table, ranked } = this._search(query.source as SearchSource);
      // The candidates inside (cursor, endCursor]; past the end cursor nothing is.
      const inRange =
        cursor === "_end_cursor"
          ? []
          : ranked.filter(
              ({ key }) =>
                (start === null || compareRank(key, start) > 0) && (end === null || compareRank(key, end) <= 0),
            );
      const { filters } = queryOperators(query);
      const page: Doc[] = [];
      let lastKey: RankKey | null = null;
      let rowsRead = 0;
      let bytesRead = 0;
      let exhausted = false;
      while (endCursor || page.length < pageSize) {
        if (rowsRead === MAX_CANDIDATE_REVISIONS) throw new Error(SCANNED_TOO_MANY_MESSAGE);
        if (rowsRead >= inRange.length) {
          exhausted = true;
          break;
        }
        const { doc, key } = inRange[rowsRead++];
        bytesRead += getDocumentSize(doc);
        lastKey = key;
        this._readResult(table, doc);
        if (filters.every((f: unknown) => evaluateFilter(doc, f))) page.push(doc);
        else trackDropped(doc);
      }
      // With an end cursor the page ends there; else at the last row read, or the end once exhausted.
      const continueCursor = endCursor ? endCursor : exhausted || lastKey === null ? "_end_cursor" : encode(lastKey);
      const approaching = rowsRead > SOFT_ROWS || bytesRead > SOFT_BYTES;
      return {
        page,
        isDone: continueCursor === "_end_cursor",
        continueCursor,
        splitCursor: null,
        pageStatus: approaching ? "SplitRecommended" : null,
      };
    }
  };
}
