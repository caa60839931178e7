/**
 * The engine's side of the data directory (store.ts): loading it into the
 * in-memory database on start, and compacting what changed into segments.
 */
import { convexToJson } from "convex/values";
import {
  type ComponentStore,
  type MutationResults,
  installDocuments,
  loadInBackground,
  type ReadDocuments,
  readDocuments,
  readDocumentsInSlices,
  type ConvexGlobal,
  type IndexedDatabase,
} from "../database/index.js";
import type { FileStorage } from "./fileStorage.js";
import { intKnob } from "../common/index.js";
import type { CompactionStats, DataStore, JsonDoc } from "../storage/index.js";

/** What loading and compaction use of the engine. */
export type PersistenceHost = {
  readonly closed: boolean;
  readonly db: IndexedDatabase;
  readonly g: ConvexGlobal;
  lastCommitTs: bigint;
  readonly store: DataStore;
  readonly components: Pick<ComponentStore, "docJson" | "documentCount" | "allDocsJson" | "restore">;
  readonly files: Pick<FileStorage, "restore">;
  readonly mutationResults: Pick<MutationResults, "set">;
  log(line: string): void;
  logError(line: string): void;
};

/** 0: user tables are read only when first used, never ahead or in the background (tests see tables unread). */
const BACKGROUND_LOAD = intKnob("LOCAL_BACKEND_BACKGROUND_LOAD", 1, { min: 0 }) !== 0;

export class Persistence {
  /** The current schema's fingerprint (recorded by compaction: see Engine.init). */
  schemaFingerprint = "";
  private compactionScheduled = false;
  private signedOutOnRestore = 0;

  constructor(private readonly engine: PersistenceHost) {}

  private reading: Promise<ReadDocuments> | null = null;

  /**
   * Starts reading the data directory a slice at a time (documentLoader.ts),
   * so the start's other work (bundling the functions) goes on meanwhile;
   * restore() takes what it read.
   */
  startReading(): void {
    const engine = this.engine;
    const state = engine.store.load();
    this.reading = readDocumentsInSlices(state, () => BACKGROUND_LOAD && this.reading !== null && !engine.closed);
    this.reading.catch(() => undefined); // restore() reports it
  }

  /** Loads the data directory into the (empty) in-memory database. */
  async restore(): Promise<void> {
    const engine = this.engine;
    const reading = this.reading;
    this.reading = null;
    const read = reading ? await reading : readDocuments(engine.store.load());
    const db = engine.db;
    // System tables and components now; user tables when first used (documentLoader.ts).
    const { componentDocs, files, refused } = installDocuments(db, read);
    const state = read.state;
    // Sessions and refresh tokens with old (guessable) ids: deleted, on disk too.
    for (const id of refused) engine.store.markDirty(id);
    const signedOut = refused.length;
    engine.components.restore(componentDocs);
    await engine.files.restore(files);
    const tm = engine.g.transactionManager;
    if (state.lastTs > tm._lastCommitTs) tm._lastCommitTs = state.lastTs;
    engine.lastCommitTs = tm._lastCommitTs;
    for (const [key, value] of state.mutations) engine.mutationResults.set(key, value);
    if (signedOut > 0)
      engine.log(`Deleted ${signedOut} sign-in sessions and refresh tokens with old ids: they sign in again.`);
    this.signedOutOnRestore = signedOut;
  }

  /** Queries and mutations being run for clients: background loading waits while there are any. */
  private serving = 0;

  /** Runs a client's query or mutation (counted in `serving`). */
  async serve<T>(run: () => Promise<T>): Promise<T> {
    this.serving++;
    try {
      return await run();
    } finally {
      this.serving--;
    }
  }

  /** Whether a client's query or mutation is being run. */
  busy(): boolean {
    return this.serving > 0;
  }

  /** Parses the user tables not used yet between requests, smallest first (documentLoader.ts). */
  loadInBackground(): void {
    const engine = this.engine;
    if (!BACKGROUND_LOAD) return;
    loadInBackground(
      engine.db,
      () => engine.closed,
      undefined,
      () => this.busy(),
    );
  }

  /** After a start's data check: compacts if the log is large, the directory old, or old-id rows were dropped. */
  compactAfterRestore(): void {
    if (this.engine.store.compactionDue() || this.signedOutOnRestore > 0) {
      const stats = this.compact();
      this.engine.log(
        `Compacted the data log (${stats.kind}: ${stats.changed} documents changed, ${stats.docs} written, ` +
          `${(stats.bytes / 2 ** 20).toFixed(1)} MiB in ${stats.files} segments, ${stats.ms.toFixed(0)} ms).`,
      );
    }
  }

  /** Writes what changed since the last compaction into the data directory's segments and empties the log. */
  compact(): CompactionStats {
    const engine = this.engine;
    return engine.store.compact(
      {
        get: (key) => {
          if (key.startsWith("@")) return engine.components.docJson(key);
          const doc = engine.db.committed(key);
          return doc ? (convexToJson(doc) as Record<string, unknown>) : null;
        },
        all: () => this.allDocsJson(),
        keys: () => this.allKeys(),
      },
      engine.lastCommitTs,
      this.schemaFingerprint,
    );
  }

  /** Compacts soon (between transactions) once the log has grown past its threshold. */
  compactSoon(): void {
    const store = this.engine.store;
    if (this.compactionScheduled || !store.compactionDue()) return;
    this.compactionScheduled = true;
    setImmediate(() => {
      this.compactionScheduled = false;
      if (this.engine.closed || !store.compactionDue()) return;
      try {
        this.compact();
      } catch (error) {
        this.engine.logError(`compaction failed (the log keeps everything): ${String(error)}`);
      }
    });
  }

  *allKeys(): Iterable<string> {
    for (const [id] of this.engine.db.allDocuments() as Iterable<[string, unknown]>) yield id;
    for (const [key] of this.engine.components.allDocsJson()) yield key;
  }

  *allDocsJson(): Iterable<[string, JsonDoc]> {
    for (const [id, doc] of this.engine.db.allDocuments()) {
      yield [id, convexToJson(doc) as Record<string, unknown>];
    }
    yield* this.engine.components.allDocsJson();
  }
}
