/**
 * IndexedDatabase's full-text search (see indexedDatabase.ts and
 * searchIndex.ts for the rules): an inverted index per schema search index,
 * built on first use, ranked results, and paginate by rank key.
 */
import { compareValues, getDocumentSize } from "convex/values";
import { type ConvexTestInternals, type Doc, fieldHelpers, finishPage, type PaginateArgs } from "./indexKeys.js";
import {
  compareRank,
  InvertedIndex,
  parseSearchQuery,
  SEARCH_RESULT_LIMIT,
  type RankKey,
  type Ranked,
} from "./searchIndex.js";

/** Adds search queries to `Base` (indexQueries.ts). */
export function withSearch(Base: any, ct: ConvexTestInternals): any {
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
  };
}
