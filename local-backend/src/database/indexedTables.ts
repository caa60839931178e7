/**
 * IndexedDatabase's committed documents and transactions (see
 * indexedDatabase.ts): one Map per table (user tables parsed when first used,
 * documentLoader.ts), ordered indexes built on first use and kept by every
 * commit, and the transaction's pending writes by table.
 */
import { currentTableNumbers } from "../common/index.js";
import { checkUserDocument } from "./documentLimits.js";
import type { LazyTable } from "./documentLoader.js";
import { sortByKeys } from "./indexes/indexBuild.js";
import {
  type ConvexTestInternals,
  type Doc,
  fieldHelpers,
  type Index,
  type Layer,
  type Table,
} from "./indexes/indexKeys.js";
import { DEFAULT_CHUNK_LOAD } from "./indexes/sortedList.js";
import { currentTransaction } from "./occ.js";

/** Committed-value writes of a table larger than this fraction rebuild its indexes instead. */
const REBUILD_FRACTION = 0.25;
const REBUILD_MIN = 2000;

export type TablesClass = ReturnType<typeof tablesClass>;

/** DatabaseFake with per-table storage and ordered indexes (the queries and search are added on top). */
export function tablesClass(ct: ConvexTestInternals) {
  const { resolveCommittedValues, tableNameFromId } = ct;
  const { makeIndex } = fieldHelpers(ct);
  const layerTables = new WeakMap<Layer, Map<string, Set<string>>>();

  return class IndexedTables extends ct.DatabaseFake {
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
    /** The pending write layers of whatever runs outside a concurrent mutation (queries, internal writes). */
    _ownWrites: Layer[] = [];

    /** A concurrent mutation's own pending write layers (occ.ts), else the database's. */
    get _writes(): Layer[] {
      return (currentTransaction()?.writesOf(this) as Layer[] | undefined) ?? this._ownWrites;
    }

    set _writes(layers: Layer[]) {
      const tx = currentTransaction();
      if (tx) tx.layers.set(this, layers);
      else this._ownWrites = layers;
    }
    _indexedSchema: unknown = undefined;

    constructor(schema: unknown, componentPath: string) {
      super(schema, componentPath);
      // Pending writes belong to the running transaction (the accessor below), not to the database.
      this._ownWrites = this._writes;
      delete (this as { _writes?: unknown })._writes;
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
        // The deltas' and the log's documents (and deletes) are known without reading the table
        // (the start's data check reads them).
        const overlaid = this._lazy.get(table)?.overlaid(id);
        if (overlaid !== undefined) return overlaid as Doc | null;
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
        index = makeIndex(fields, (this.constructor as unknown as { chunkLoad: number }).chunkLoad);
        // Ranked field by field (indexBuild.ts): the comparator's order without a comparator call per pair.
        index.list.loadSorted(sortByKeys([...table.docs.values()], index.getters));
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
  };
}
