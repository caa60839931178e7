/**
 * Commits: every top-level commit is written to the data log before
 * convex-test applies it, under the transaction lock (logCommit), and fsync'd
 * in a group soon after (answers wait for that: Engine.durable); a
 * failed write throws from there, so nothing of the commit is applied or
 * announced, the caller rolls it back and hears why, and from then on every
 * mutation is refused before it begins until a restart (reads go on). What a
 * commit does once applied (retried mutations' results, stored files'
 * reference counts, contention, the listeners that re-run subscriptions):
 * afterCommit. And the hold that lets sync.ts run a Transition's queries at
 * one committed state.
 */
import {
  committedJson,
  componentReadKey,
  type ComponentStore,
  type ContentionMonitor,
  type MutationResults,
  type Change,
  type Doc as ReadDoc,
  type ReadSet,
  currentTransaction,
  type ConvexGlobal,
  type ConvexTestModule,
  type IndexedDatabase,
} from "../database/index.js";
import {
  type ConcurrentMutations,
  canonicalPath,
  mutationTag,
  readTracker,
  tableFromId,
  hooks,
} from "../runtime/index.js";
import type { DataStore, JsonDoc } from "../storage/index.js";
import type { FileStorage } from "./fileStorage.js";
import type { Persistence } from "./persistence.js";

/** The read set being recorded: a subscription's query's, or a concurrent mutation's. */
export function readSet(): ReadSet | undefined {
  return readTracker.getStore()?.reads ?? currentTransaction()?.reads;
}

/** A client mutation's result, logged with its writes (a retried mutation gets it instead of running again). */
type MutationRecord = { s: string; r: number; res: unknown };

/** Tables written, the commit timestamp and each document write (before and after). */
export type CommitListener = (tables: Set<string>, ts: bigint, changes: Change[]) => void;

/** What a commit touches of the engine: its log, databases, files, counters and the parts told of it. */
export type CommitHost = {
  readonly ct: ConvexTestModule;
  readonly g: ConvexGlobal;
  readonly db: IndexedDatabase;
  lastCommitTs: bigint;
  commitSeq: number;
  readonly store: Pick<DataStore, "append" | "refuseIfLogFailed">;
  readonly components: Pick<ComponentStore, "collect" | "logWrites" | "written">;
  readonly contention: Pick<ContentionMonitor, "record">;
  readonly mutationResults: Pick<MutationResults, "set">;
  readonly files: Pick<FileStorage, "trackStorage">;
  readonly occ: Pick<ConcurrentMutations, "recordCommit">;
  readonly persistence: Pick<Persistence, "compactSoon">;
  logError(line: string): void;
};

export class Commits {
  /** Set while sync.ts re-runs subscriptions: other transactions wait to begin. */
  private commitHold: Promise<void> | null = null;
  /** The function whose transaction wrote first since the current top-level transaction began. */
  private writer: string | null = null;
  /** The app database's written documents before the commit being reported (set by its onCommit). */
  private previousValues: Map<string, ReadDoc | null> | null = null;
  /** The client mutation result logged with the commit being applied (see logCommit). */
  private logged: { ts: bigint; m: MutationRecord | undefined } | null = null;
  readonly listeners: CommitListener[] = [];

  /** `isActive`: whether the engine is the one this process's convex-test reports commits to. */
  constructor(
    private readonly engine: CommitHost,
    private readonly isActive: () => boolean,
  ) {}

  /** Hooks into the engine's database and transaction manager (once, at start). */
  install(): void {
    const engine = this.engine;
    const db = engine.db;
    // What a subscription's query reads (sync.ts re-runs it when a commit touches that).
    // And what a concurrent mutation reads (checked at its commit, occ.ts).
    db.onRead = (table: string) => readSet()?.addTable(table);
    db.onReadRange = (table: string, contains: (doc: ReadDoc) => boolean) => readSet()?.addRange(table, contains);
    db.onReadId = (table: string, id: string) => readSet()?.addId(table, id);
    db.onCommit = (writes: Record<string, unknown>, commitTs: bigint, previous: Map<string, ReadDoc | null>) => {
      // The written documents' values before this commit, for read-set invalidation (afterCommit).
      this.previousValues = previous;
      // Gathered with the components' writes of the same commit (componentStore.ts).
      if (engine.components.collect("", writes)) return;
      // The DatabaseFake reports commits to the one active engine of this process.
      if (this.isActive()) this.afterCommit(db, commitTs, writes);
    };
    // Which function writes, for the contention warnings.
    const addWrite = db._addWrite.bind(db);
    db._addWrite = (id: string, value: ReadDoc | null) => {
      const tx = currentTransaction();
      if (tx) tx.writer ??= engine.ct.executionContextStorage.getStore()?.udfPath ?? null;
      else if (this.writer === null) this.writer = engine.ct.executionContextStorage.getStore()?.udfPath ?? null;
      addWrite(id, value);
    };
    this.gateTransactions();
  }

  /** Before a mutation begins (convexTestLoader.ts): refused once a write to the data log failed. */
  beforeMutation(): void {
    this.engine.store.refuseIfLogFailed();
  }

  /**
   * Called by tm.commit for a top-level commit, with the timestamp it will get
   * and every database's pending writes, before anything is applied: writes
   * the commit to the data log (fsync'd in a group). If that fails it throws (a
   * LogWriteError naming the cause) and nothing is applied; the caller rolls
   * the transaction back.
   */
  logCommit(commitTs: bigint, layers: Map<string, Record<string, unknown>>): void {
    this.logged = null;
    const engine = this.engine;
    const w: [string, JsonDoc][] = [];
    const app = layers.get("");
    if (app) {
      for (const [id, write] of Object.entries(app)) {
        if (tableFromId(id) === null) continue; // never applied (IndexedTables.commit)
        w.push([id, committedJson(engine.ct, write, commitTs)]);
      }
    }
    for (const entry of engine.components.logWrites(layers, commitTs)) w.push(entry);
    if (w.length === 0) return;
    const m = this.mutationRecord();
    engine.store.append({ ts: commitTs.toString(), w, ...(m ? { m } : {}) });
    this.logged = { ts: commitTs, m };
  }

  /** The result of the client mutation whose transaction is committing, if it is one (not yet marked as used). */
  private mutationRecord(): MutationRecord | undefined {
    const tag = mutationTag.getStore();
    const raw = hooks.__localBackendMutationResult;
    if (!tag || tag.used || tag.s === undefined || tag.r === undefined || typeof raw !== "string") return undefined;
    return { s: tag.s, r: tag.r, res: JSON.parse(raw) };
  }

  /**
   * Top-level transactions (mutations, queries, scheduled functions, imports)
   * wait to begin while a snapshot read holds commits back, except the
   * snapshot's own queries (run with a read set, see query()).
   */
  private gateTransactions(): void {
    const tm = this.engine.g.transactionManager;
    const begin = tm.begin.bind(tm);
    tm.begin = async (isNested: boolean, limits?: unknown) => {
      if (!isNested && !readTracker.getStore()) {
        // Checked right before the original begin takes the lock, with no await in
        // between, so nothing commits once runSnapshot has seen the lock free.
        while (this.commitHold) await this.commitHold;
      }
      const started = await begin(isNested, limits);
      if (!isNested) this.writer = null;
      return started;
    };
  }

  /**
   * Waits until no query, snapshot read or serialised transaction runs; a
   * concurrent mutation then commits with no await in between (occ.ts).
   */
  async commitTurn(): Promise<void> {
    const tm = this.engine.g.transactionManager;
    while (this.commitHold || tm._waitOnCurrentFunction) await (this.commitHold ?? tm._waitOnCurrentFunction);
  }

  /**
   * Runs `fn` with new transactions held back, so the queries it runs (with a
   * read set) read one committed state; Convex runs all of a Transition's
   * queries at one timestamp, and sync.ts does through this. A transaction
   * that was already waiting for the lock when the hold began may still
   * commit during `fn`: callers compare `commitSeq` before and after and redo
   * what such a commit touched (there are finitely many such stragglers).
   */
  async runSnapshot<T>(fn: () => Promise<T>): Promise<T> {
    while (this.commitHold) await this.commitHold;
    let release!: () => void;
    this.commitHold = new Promise<void>((resolve) => (release = resolve));
    try {
      const tm = this.engine.g.transactionManager;
      // Let a transaction already running finish (it may commit).
      while (tm._waitOnCurrentFunction) await tm._waitOnCurrentFunction;
      return await fn();
    } finally {
      this.commitHold = null;
      release();
    }
  }

  /**
   * Called synchronously from tm.commit once a top-level commit is applied
   * (logCommit wrote it first; answers wait for its fsync). Nothing here may fail the
   * commit: an error is logged.
   */
  afterCommit(
    db: Pick<IndexedDatabase, "committed">,
    commitTs: bigint,
    writes: Record<string, unknown> | null,
    componentWrites: Map<string, Record<string, unknown>> = new Map(),
  ): void {
    const logged = this.logged?.ts === commitTs ? this.logged : null;
    this.logged = null;
    try {
      this.announce(db, commitTs, writes, componentWrites, logged?.m);
    } catch (error) {
      this.engine.logError(`after commit ${commitTs}: ${String(error)}`);
    }
  }

  private announce(
    db: Pick<IndexedDatabase, "committed">,
    commitTs: bigint,
    writes: Record<string, unknown> | null,
    componentWrites: Map<string, Record<string, unknown>>,
    m: MutationRecord | undefined,
  ): void {
    const engine = this.engine;
    if (commitTs > engine.lastCommitTs) engine.lastCommitTs = commitTs;
    const previous = this.previousValues ?? new Map<string, ReadDoc | null>();
    this.previousValues = null;
    const tag = mutationTag.getStore();
    if (tag && !tag.used) {
      tag.used = true;
      tag.ts = commitTs;
    }
    const ids = writes ? Object.keys(writes) : [];
    const inComponents = engine.components.written(componentWrites);
    if (ids.length === 0 && inComponents.length === 0) return;
    engine.persistence.compactSoon();
    engine.files.trackStorage(ids);
    if (m) engine.mutationResults.set(`${m.s}:${m.r}`, { ts: commitTs, result: m.res });
    engine.commitSeq++;
    const tables = new Set<string>();
    const changes: Change[] = [];
    for (const id of ids) {
      const table = tableFromId(id);
      if (!table) continue;
      tables.add(table);
      changes.push({ table, id, before: previous.get(id) ?? null, after: db.committed(id) ?? null });
    }
    const tx = currentTransaction();
    const writer = tx ? tx.writer : this.writer;
    if (!tx) this.writer = null;
    engine.contention.record(changes, writer ? canonicalPath(writer) : "an internal write");
    for (const entry of inComponents) {
      // Component reads are recorded by range and id too (componentStore.ts), under the component's key.
      const table = componentReadKey(entry.path, entry.table);
      tables.add(table);
      changes.push({ table, id: entry.id, before: entry.before, after: entry.after });
    }
    engine.occ.recordCommit(commitTs, changes);
    for (const listener of this.listeners) {
      try {
        listener(tables, commitTs, changes);
      } catch (error) {
        engine.logError(`commit listener failed: ${String(error)}`);
      }
    }
  }
}
