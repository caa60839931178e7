/**
 * The databases of installed Convex components (see components.ts for how they
 * are found and bundler.ts for how their functions are bundled).
 *
 * Each component gets its own `IndexedDatabase` registered in convex-test's
 * global under its component path, exactly where `t.registerComponent` puts
 * one: convex-test then runs a component's functions with that database, its
 * own `_scheduled_functions`, and no auth (auth does not cross component
 * boundaries), and begins, commits and rolls back every component's writes
 * together with the app's.
 *
 * Persistence: a transaction's writes in all components are one log entry,
 * written before any of them is applied: `tm.commit` calls `beforeApply` with
 * every database's pending writes once it has the commit timestamp and before
 * it applies anything (convexTestLoader.ts), and a failed log write throws
 * from there, so the caller rolls back a commit no one saw. Once applied, the
 * app's and the components' writes are gathered (`tm.commit` is wrapped) and
 * reported at once. A component document is stored under the key
 * `@<componentPath>|<id>`, which no app id can collide with; subscriptions
 * track component tables as `@<componentPath>|<table>`.
 */
import { pathToFileURL } from "node:url";
import { convexToJson, type JSONValue, jsonToConvex, type Value } from "convex/values";
import { tableNameFromId } from "../common/index.js";
import type { ConvexGlobal, ConvexTestModule, Doc, FunctionModule, LoadedSchema } from "./convexTestTypes.js";
import { type IndexedDatabase, indexedDatabaseClass } from "./indexedDatabase.js";
import { schemaForDb } from "./schemaValidation.js";
import type { JsonDoc } from "../storage/index.js";

/** Where a component's document lives in the data log and snapshot. */
export function componentDocKey(componentPath: string, id: string): string {
  return `@${componentPath}|${id}`;
}

/** The key a read or write of a component's table is tracked under. */
export function componentReadKey(componentPath: string, table: string): string {
  return `@${componentPath}|${table}`;
}

export function parseComponentDocKey(key: string): { path: string; id: string } | null {
  if (!key.startsWith("@")) return null;
  const bar = key.indexOf("|");
  if (bar < 0) return null;
  return { path: key.slice(1, bar), id: key.slice(bar + 1) };
}

/** A pending write as the data log stores it: its committed value (commit timestamps resolved) as Convex JSON. */
export function committedJson(
  ct: Pick<ConvexTestModule, "resolveCommittedValues">,
  write: unknown,
  commitTs: bigint,
): JsonDoc {
  return write === null || write === undefined
    ? null
    : (convexToJson(ct.resolveCommittedValues(write, commitTs) as Value) as Record<string, unknown>);
}

/** A snapshot document's `_creationTime` (0 when it has none). */
export function creationTime(doc: unknown): number {
  const value = (doc as { _creationTime?: unknown } | null)?._creationTime;
  return typeof value === "number" ? value : 0;
}

/** A component's ids are minted like the app's (ids.ts): the table number names the table. */
function tableOf(id: string): string | null {
  return tableNameFromId(id);
}

/** What the store needs from the engine. */
export type ComponentHost = {
  /** Set by `install` once convex-test is loaded. */
  ct: ConvexTestModule | null;
  g: ConvexGlobal | null;
  loadModule(modulePath: string, componentPath: string): Promise<FunctionModule>;
  /** A component table was read (subscription tracking). */
  onRead(key: string): void;
  /** An index range or a document of a component table was read (read sets, readSet.ts). */
  onReadRange(key: string, contains: (doc: Doc) => boolean): void;
  onReadId(key: string, id: string): void;
  /**
   * One top-level commit about to be applied, with every database's pending
   * writes by component path ("" for the app): makes it durable, or throws.
   */
  beforeApply(commitTs: bigint, layers: Map<string, Record<string, unknown>>): void;
  /** One top-level commit, applied: the app's writes and each component's. */
  onCommit(
    commitTs: bigint,
    appWrites: Record<string, unknown> | null,
    components: Map<string, Record<string, unknown>>,
  ): void;
};

export type ComponentWrite = { path: string; id: string; table: string; before: Doc | null; after: Doc | null };

/** What the store reads of a bundle: each component's schema file, by component path. */
export type BundleComponents = { components: ReadonlyMap<string, { schemaFile: string | null }> };

export class ComponentStore {
  /** Component path -> its database. */
  readonly dbs = new Map<string, IndexedDatabase>();
  /** Documents on disk of components that are not installed (kept, never dropped). */
  private orphans = new Map<string, Record<string, unknown>>();
  private buffer: Map<string, Record<string, unknown>> | null = null;
  /** Each component's written documents before the commit being gathered. */
  private previous = new Map<string, Map<string, Doc | null>>();
  private wrapped = false;

  constructor(private readonly host: ComponentHost) {}

  /**
   * Gathers a database's top-level commit while `tm.commit` runs; returns false
   * when no wrapped commit is in progress (the caller then reports it itself).
   */
  collect(componentPath: string, writes: Record<string, unknown>): boolean {
    if (!this.buffer) return false;
    this.buffer.set(componentPath, writes);
    return true;
  }

  private wrapCommit(): void {
    if (this.wrapped) return;
    this.wrapped = true;
    const tm = this.host.g!.transactionManager;
    // Called by tm.commit for a top-level commit before it applies anything (convexTestLoader.ts).
    tm._localBackendBeforeApply = (commitTs: bigint) => this.host.beforeApply(commitTs, this.pendingLayers());
    const commit = tm.commit.bind(tm);
    tm.commit = (isNested: boolean) => {
      if (isNested) return commit(isNested);
      const buffer = new Map<string, Record<string, unknown>>();
      this.buffer = buffer;
      this.previous = new Map();
      let ts: bigint | null;
      try {
        ts = commit(isNested);
      } finally {
        this.buffer = null;
      }
      if (ts !== null) {
        const app = buffer.get("") ?? null;
        buffer.delete("");
        this.host.onCommit(ts, app, buffer);
      }
      return ts;
    };
  }

  /**
   * Creates a database for each component of the bundle that has none yet (and
   * updates the schema of the others). `inTransaction`: called between
   * `tm.begin` and `tm.rollback` (hot reload), so a new database joins it.
   */
  async install(bundle: BundleComponents, ct: ConvexTestModule, g: ConvexGlobal): Promise<void> {
    this.host.ct = ct;
    this.host.g = g;
    this.attach(bundle, await this.loadSchemas(bundle), false);
  }

  /** Each component's schema (evaluated from its bundle). */
  async loadSchemas(bundle: BundleComponents): Promise<Map<string, LoadedSchema | undefined>> {
    const schemas = new Map<string, LoadedSchema | undefined>();
    for (const [path, comp] of bundle.components) {
      schemas.set(path, comp.schemaFile ? (await import(pathToFileURL(comp.schemaFile).href)).default : undefined);
    }
    return schemas;
  }

  attach(bundle: BundleComponents, schemas: Map<string, LoadedSchema | undefined>, inTransaction: boolean): void {
    this.wrapCommit();
    const IndexedDatabase = indexedDatabaseClass(this.host.ct!);
    for (const path of bundle.components.keys()) {
      const schema = schemas.get(path);
      let db = this.dbs.get(path);
      if (db) {
        db._schema = schemaForDb(schema);
      } else {
        db = new IndexedDatabase(schema ?? null, path);
        db.onRead = (table: string) => this.host.onRead(componentReadKey(path, table));
        db.onReadRange = (table: string, contains: (doc: Doc) => boolean) =>
          this.host.onReadRange(componentReadKey(path, table), contains);
        db.onReadId = (table: string, id: string) => this.host.onReadId(componentReadKey(path, table), id);
        db.onCommit = (writes: Record<string, unknown>, _ts: bigint, previous: Map<string, Doc | null>) => {
          this.collect(path, writes);
          this.previous.set(path, previous);
        };
        this.dbs.set(path, db);
        this.load(path, db);
        if (inTransaction) db.startTransaction();
      }
      this.host.g!.components[path] = {
        db,
        modules: (modulePath: string) => this.host.loadModule(modulePath, path),
      };
    }
  }

  /** The database of the component whose function is running (the app's outside components). */
  currentDb<D>(appDb: D): D | IndexedDatabase {
    const componentPath = this.host.ct?.executionContextStorage.getStore()?.componentPath;
    return componentPath ? (this.dbs.get(componentPath) ?? appDb) : appDb;
  }

  /** Takes the component documents out of a loaded data directory (before the app's are restored). */
  restore(docs: Map<string, Record<string, unknown>>): void {
    for (const [key, json] of docs) {
      if (!key.startsWith("@")) continue;
      docs.delete(key);
      this.orphans.set(key, json);
    }
    for (const [path, db] of this.dbs) this.load(path, db);
  }

  /** Moves the orphans of one component into its database. */
  private load(path: string, db: IndexedDatabase): void {
    const mine: [string, Doc][] = [];
    for (const [key, json] of this.orphans) {
      const parsed = parseComponentDocKey(key);
      if (!parsed || parsed.path !== path) continue;
      this.orphans.delete(key);
      mine.push([parsed.id, jsonToConvex(json as JSONValue) as Doc]);
    }
    if (mine.length === 0) return;
    let maxCreation = 0;
    for (const [, doc] of mine) if (doc._creationTime > maxCreation) maxCreation = doc._creationTime;
    db.loadDocuments([...db.allDocuments(), ...mine]);
    db._lastCreationTime = Math.max(db._lastCreationTime, maxCreation);
  }

  /** Every database's writes about to commit (a top-level commit: one layer each), by component path. */
  private pendingLayers(): Map<string, Record<string, unknown>> {
    const layers = new Map<string, Record<string, unknown>>();
    for (const [path, component] of Object.entries(this.host.g!.components)) {
      const writes: Record<string, unknown>[] = component.db._writes;
      if (writes.length > 0) layers.set(path, writes[writes.length - 1]);
    }
    return layers;
  }

  /** The data-log form of a commit's component writes, before they are applied (their values at `commitTs`). */
  logWrites(layers: Map<string, Record<string, unknown>>, commitTs: bigint): [string, JsonDoc][] {
    const out: [string, JsonDoc][] = [];
    for (const [path, layer] of layers) {
      if (path === "" || !this.dbs.has(path)) continue;
      for (const [id, write] of Object.entries(layer)) {
        if (tableOf(id) === null) continue; // never applied (IndexedTables.commit)
        out.push([componentDocKey(path, id), committedJson(this.host.ct!, write, commitTs)]);
      }
    }
    return out;
  }

  /** Which component documents a commit wrote (for subscriptions). */
  written(writes: Map<string, Record<string, unknown>>): ComponentWrite[] {
    const out: ComponentWrite[] = [];
    for (const [path, layer] of writes) {
      if (!this.dbs.has(path)) continue;
      const db = this.dbs.get(path)!;
      const previous = this.previous.get(path);
      for (const id of Object.keys(layer)) {
        out.push({ path, id, table: tableOf(id) ?? "", before: previous?.get(id) ?? null, after: db.committed(id) });
      }
    }
    return out;
  }

  /** The committed component document under a data-log key, as Convex JSON, or null (compaction). */
  docJson(key: string): JsonDoc {
    const parsed = parseComponentDocKey(key);
    if (!parsed) return null;
    const db = this.dbs.get(parsed.path);
    if (!db) return this.orphans.get(key) ?? null;
    const doc = db.committed(parsed.id);
    return doc ? (convexToJson(doc) as Record<string, unknown>) : null;
  }

  /** How many component documents there are (orphans included). */
  documentCount(): number {
    let count = this.orphans.size;
    for (const db of this.dbs.values()) count += db.documentCount();
    return count;
  }

  /** Every component document under its data-log key (compaction). */
  *allDocsJson(): Iterable<[string, JsonDoc]> {
    for (const [path, db] of this.dbs) {
      for (const [id, doc] of db.allDocuments()) {
        yield [componentDocKey(path, id), convexToJson(doc) as Record<string, unknown>];
      }
    }
    yield* this.orphans;
  }

  /** `{ [componentPath]: { [table]: documents } }` for a snapshot export. */
  exportTables(): Record<string, Record<string, unknown[]>> {
    const out: Record<string, Record<string, unknown[]>> = {};
    for (const [path, db] of this.dbs) {
      const tables: Record<string, unknown[]> = {};
      for (const [id, doc] of db.allDocuments()) {
        (tables[tableOf(id) ?? "unknown"] ??= []).push(convexToJson(doc));
      }
      out[path] = tables;
    }
    // Documents of components the current functions do not install are kept too.
    for (const [key, json] of this.orphans) {
      const parsed = parseComponentDocKey(key);
      if (!parsed) continue;
      ((out[parsed.path] ??= {})[tableOf(parsed.id) ?? "unknown"] ??= []).push(json);
    }
    for (const tables of Object.values(out)) {
      for (const docs of Object.values(tables)) docs.sort((a, b) => creationTime(a) - creationTime(b));
    }
    return out;
  }

  /**
   * Inside an import's transaction: replaces every installed component's
   * documents with the snapshot's (a snapshot without a component empties it).
   */
  importTables(snapshotComponents: unknown): number {
    const given = (snapshotComponents ?? {}) as Record<string, Record<string, { _id?: unknown }[]>>;
    if (typeof given !== "object") throw new Error("Snapshot `components` must be an object");
    for (const path of Object.keys(given)) {
      if (!this.dbs.has(path)) throw new Error(`Snapshot holds component "${path}", which is not installed`);
    }
    let count = 0;
    for (const [path, db] of this.dbs) {
      const incoming = new Map<string, Doc>();
      for (const [table, docs] of Object.entries(given[path] ?? {})) {
        for (const json of docs) {
          if (typeof json?._id !== "string" || tableOf(json._id) !== table) {
            throw new Error(
              `Snapshot table "${table}" of component "${path}" holds a document whose _id does not belong to it: ${json?._id}`,
            );
          }
          incoming.set(json._id, jsonToConvex(json as JSONValue) as Doc);
        }
      }
      for (const [id] of [...db.allDocuments()]) if (!incoming.has(id)) db._addWrite(id, null);
      for (const [id, doc] of incoming) db._addWrite(id, doc);
      count += incoming.size;
    }
    return count;
  }
}
