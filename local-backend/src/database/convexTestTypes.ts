/**
 * The shapes the backend reads of convex-test's internals (loaded and edited by
 * runtime/convexTestLoader.ts): its module exports, its global state, its
 * transaction manager, and the serialized queries its database receives.
 * convex-test ships no types for them; these list only what the backend uses.
 */
import type { ContextSlot } from "../common/index.js";
import type { UserIdentity } from "convex/server";
import type { Value } from "convex/values";

/** A stored document: Convex values under its fields, with its id and creation time. */
export type Doc = Record<string, Value> & { _id: string; _creationTime: number };

/** One transaction's pending writes by document id (null: deleted). */
export type Layer = Record<string, Doc | null>;

/** A schema index as a table definition's `export()` lists it. */
type ExportedIndex = { indexDescriptor: string; fields: string[] };
type ExportedSearchIndex = { indexDescriptor: string; searchField: string; filterFields: string[] };
type ExportedVectorIndex = {
  indexDescriptor: string;
  vectorField: string;
  dimensions: number;
  filterFields: string[];
};

/** A table definition's `export()`. */
type ExportedTable = {
  indexes?: ExportedIndex[];
  stagedDbIndexes?: ExportedIndex[];
  searchIndexes?: ExportedSearchIndex[];
  stagedSearchIndexes?: ExportedSearchIndex[];
  vectorIndexes?: ExportedVectorIndex[];
  stagedVectorIndexes?: ExportedVectorIndex[];
  documentType?: unknown;
};

/** A `schema.ts` default export (convex/server's SchemaDefinition, whose `export()` methods are internal). */
export type LoadedSchema = {
  schemaValidation: boolean;
  tables: Record<string, { export(): ExportedTable }>;
  export(): string;
};

/** A schema as convex-test's database holds it (`_schema`). */
export type DbSchema = { schemaValidation: boolean; tables: Map<string, ExportedTable> };

/** A serialized query as convex-test's database receives it (convex's query_impl). */
export type QuerySource =
  | { type: "FullTableScan"; tableName: string; order?: "asc" | "desc" | null }
  | {
      type: "IndexRange";
      indexName: string;
      range: { type: string; fieldPath: string; value: unknown }[];
      order?: "asc" | "desc" | null;
    }
  | {
      type: "Search";
      indexName: string;
      filters: { type: "Search" | "Eq"; fieldPath: string; value: unknown }[];
    };
type QueryOperator = { filter: unknown } | { limit: number };
export type SerializedQuery = { source: QuerySource; operators: QueryOperator[] };

/** The filters and the limit of a query's operators. */
export function queryOperators(query: SerializedQuery): { filters: unknown[]; limit: number | null } {
  const filters: unknown[] = [];
  let limit: number | null = null;
  for (const op of query.operators) {
    if ("filter" in op) filters.push(op.filter);
    else if ("limit" in op && limit === null) limit = op.limit;
  }
  return { filters, limit };
}

/** A transaction's read and write counters (convex-test's TransactionMetricsTracker). */
export type MetricsTracker = { trackRead(bytes: number): void; startTransaction?(limits: unknown): void };

/** convex-test's TransactionManager, with the fields the backend wraps or reads. */
export type TransactionManager = {
  begin(isNested: boolean, limits?: unknown): Promise<void>;
  commit(isNested: boolean): bigint | null;
  rollback(isNested: boolean): void;
  isInTransaction(): boolean;
  getSnapshotTs(): bigint;
  getMetricsTracker(): MetricsTracker | null;
  _endTransaction(isNested: boolean): void;
  _lastCommitTs: bigint;
  _metricsTracker: MetricsTracker | null;
  _limitsConfig: unknown;
  _waitOnCurrentFunction: Promise<unknown> | null;
  /** Set by componentStore.ts: called by `commit` before a top-level commit applies anything. */
  _localBackendBeforeApply?: (commitTs: bigint) => void;
};

/** One step of a query stream (`queryNext`). */
export type QueryStep = { value: Doc | null; done: boolean };

/** The database surface convex-test's global and the backend's services use (IndexedDatabase). */
export type DatabaseHandle = {
  get(tableName: string | undefined, id: string): Doc | null;
  insert(table: string, value: Record<string, Value>): string;
  patch(tableName: string | undefined, id: string, value: Record<string, unknown>): void;
  delete(tableName: string | undefined, id: string): void;
  storeFile(storageId: string, blob: Blob): void;
  queryNext(queryId: number): QueryStep;
  /** convex-test's stored files by storage id. */
  _storage: Record<string, Blob>;
  committed(id: string): Doc | null;
  tableDocuments(table: string): ReadonlyMap<string, Doc>;
  allDocuments(): Iterable<[string, Doc]>;
  documentCount(): number;
  startTransaction(): void;
  _addWrite(id: string, value: Doc | null): void;
  _writes: Layer[];
  _schema: DbSchema | null;
  _lastCreationTime: number;
};

/** A loaded function module's exports. */
export type FunctionModule = Record<string, unknown>;

/** A component's entry in convex-test's global: its database and module loader. */
type ComponentEntry = { db: DatabaseHandle; modules: (modulePath: string) => Promise<FunctionModule> };

/** convex-test's global state for one test instance (`convexGlobalStorage`'s store). */
export type ConvexGlobal = {
  transactionManager: TransactionManager;
  components: Record<string, ComponentEntry>;
  syscall: (op: string, jsonArgs: string) => string;
  asyncSyscall: (op: string, jsonArgs: string) => Promise<string>;
  jsSyscall: (op: string, args: Record<string, unknown>) => Promise<unknown>;
};

/** A function by its path in a component ("" for the app). */
export type FunctionPath = { udfPath: string; componentPath: string };

/** convex-test's `withAuth()` accessor: runs functions, with or without an identity. */
export type TestAccessor = {
  run<T>(fn: (ctx: unknown) => Promise<T>): Promise<T>;
  fun(functionPath: unknown, args: unknown): Promise<unknown>;
  runInComponent<T>(componentPath: string, fn: () => Promise<T>): Promise<T>;
  withIdentity(identity: Record<string, unknown>): TestAccessor;
  queryFromPath(functionPath: FunctionPath, args: unknown): Promise<unknown>;
  mutationFromPath(functionPath: FunctionPath, args: unknown): Promise<unknown>;
  actionFromPath(functionPath: FunctionPath, args: unknown): Promise<unknown>;
  query(fn: unknown, args?: unknown): Promise<unknown>;
  mutation(fn: unknown, args?: unknown): Promise<unknown>;
  action(fn: unknown, args?: unknown): Promise<unknown>;
  fetch(path: string, init?: RequestInit): Promise<Response>;
};

/** The convex-test internals the database needs (exported by convexTestLoader). */
export type ConvexTestInternals = {
  DatabaseFake: DatabaseFakeClass;
  evaluateFieldPath: (fieldPath: string, doc: unknown) => unknown;
  evaluateFilter: (doc: unknown, filter: unknown) => unknown;
  evaluateRangeFilter: (doc: unknown, expr: unknown) => boolean;
  evaluateQueryValue: (value: unknown) => unknown;
  validateIndexRangeExpression: (source: unknown, fields: string[]) => void;
  resolveCommittedValues: (value: unknown, commitTs: bigint) => unknown;
  tableNameFromId: (id: string) => string | null;
  getTransactionManager: () => { getMetricsTracker(): MetricsTracker | null };
};

/** The whole loaded convex-test module (runtime/convexTestLoader.ts EXPORTS). */
export type ConvexTestModule = ConvexTestInternals & {
  convexTest(options: {
    schema: unknown;
    modules: Record<string, () => Promise<unknown>>;
    transactionLimits: boolean;
  }): TestAccessor;
  convexGlobalStorage: ContextSlot<ConvexGlobal>;
  executionContextStorage: ContextSlot<{ componentPath?: string; udfPath?: string }>;
  requestMetadataStorage: ContextSlot<unknown>;
  authStorage: ContextSlot<{ getUserIdentity(): Promise<UserIdentity | null> }>;
  AuthFake: new () => { getUserIdentity(): Promise<UserIdentity | null> };
  withAuth(): TestAccessor;
  newRequestId(): string;
  resolveFunction(functionPath: unknown, kind: string): Promise<{ func: unknown }>;
  getFunctionPathFromAddress(address: { name?: string; reference?: string; functionHandle?: string }): FunctionPath;
  TransactionMetricsTracker: new (limits: unknown) => MetricsTracker;
  /** convex-test's check of a value against a validator's JSON (throws when it does not match). */
  validateValidator(validator: unknown, value: unknown): void;
};

/** convex-test's DatabaseFake, as the IndexedDatabase layers extend it. */
type DatabaseFakeClass = new (schema: unknown, componentPath: string) => DatabaseFakeBase;

/** The members of DatabaseFake the IndexedDatabase layers use or override. */
type DatabaseFakeBase = {
  _schema: DbSchema | null;
  get _writes(): Layer[];
  set _writes(layers: Layer[]);
  _lastCreationTime: number;
  /** Stock DatabaseFake's documents (IndexedDatabase keeps them per table and throws on this). */
  _documents: Record<string, Doc>;
  _storage: Record<string, Blob>;
  _queryResults: Record<number, Doc[] & { [key: symbol]: unknown }>;
  _validateId(tableName: string | undefined, id: string): void;
  _validate(tableName: string, doc: Record<string, Value>): void;
  _addWrite(id: string, value: Doc | null): void;
  _encodeCursor(doc: Doc, fieldPaths: string[]): string;
  _docIsAfterCursor(doc: Doc, cursorKeys: unknown[], fieldPaths: string[], order: "asc" | "desc"): number;
  get(tableName: string | undefined, id: string): Doc | null;
  insert(table: string, value: Record<string, Value>): string;
  patch(tableName: string | undefined, id: string, value: Record<string, unknown>): void;
  delete(tableName: string | undefined, id: string): void;
  storeFile(storageId: string, blob: Blob): void;
  startTransaction(): void;
  commit(commitTs?: bigint | null): void;
  queryNext(queryId: number): QueryStep;
  startQuery(query: SerializedQuery): number;
  _iterateDocs(tableName: string, callback: (doc: Doc) => void): void;
  _evaluateQuery(query: SerializedQuery): Doc[];
  paginate(args: unknown): unknown;
};
