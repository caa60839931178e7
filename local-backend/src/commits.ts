/**
 * Commits: what every top-level commit does once convex-test has applied it
 * (durable in the log before anyone hears of it, retried mutations' results,
 * stored files' reference counts, contention, the listeners that re-run
 * subscriptions), and the hold that lets sync.ts run a Transition's queries
 * at one committed state.
 */
import { convexToJson } from "convex/values";
import { componentDocKey, componentReadKey } from "./componentStore.js";
import type { CommitListener, Engine } from "./engine.js";
import { canonicalPath, mutationTag, readTracker, tableFromId } from "./functionContext.js";
import type { Change, Doc as ReadDoc } from "./readSet.js";
import type { JsonDoc } from "./store.js";

export class Commits {
  /** Set while sync.ts re-runs subscriptions: other transactions wait to begin. */
  private commitHold: Promise<void> | null = null;
  /** The function whose transaction wrote first since the current top-level transaction began. */
  private writer: string | null = null;
  /** The app database's written documents before the commit being reported (set by its onCommit). */
  private previousValues: Map<string, any> | null = null;
  readonly listeners: CommitListener[] = [];

  /** `isActive`: whether the engine is the one this process's convex-test reports commits to. */
  constructor(
    private readonly engine: Engine,
    private readonly isActive: () => boolean,
  ) {}

  /** Hooks into the engine's database and transaction manager (once, at start). */
  install(): void {
    const engine = this.engine;
    const db = engine.db;
    // What a subscription's query reads (sync.ts re-runs it when a commit touches that).
    db.onRead = (table: string) => readTracker.getStore()?.reads.addTable(table);
    db.onReadRange = (table: string, contains: (doc: ReadDoc) => boolean) =>
      readTracker.getStore()?.reads.addRange(table, contains);
    db.onReadId = (table: string, id: string) => readTracker.getStore()?.reads.addId(table, id);
    db.onCommit = (writes: Record<string, unknown>, commitTs: bigint, previous: Map<string, any>) => {
      // The written documents' values before this commit, for read-set invalidation (afterCommit).
      this.previousValues = previous;
      // Gathered with the components' writes of the same commit (componentStore.ts).
      if (engine.components.collect("", writes)) return;
      // The DatabaseFake reports commits to the one active engine of this process.
      if (this.isActive()) this.afterCommit(db, commitTs, writes);
    };
    // Which function writes, for the contention warnings.
    const addWrite = db._addWrite.bind(db);
    db._addWrite = (id: string, value: unknown) => {
      if (this.writer === null) this.writer = engine.ct.executionContextStorage.getStore()?.udfPath ?? null;
      addWrite(id, value);
    };
    this.gateTransactions();
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

  /** Called synchronously from DatabaseFake.commit for top-level commits. */
  afterCommit(
    db: any,
    commitTs: bigint,
    writes: Record<string, unknown> | null,
    componentWrites: Map<string, Record<string, unknown>> = new Map(),
  ): void {
    const engine = this.engine;
    if (commitTs > engine.lastCommitTs) engine.lastCommitTs = commitTs;
    const previous = this.previousValues ?? new Map<string, any>();
    this.previousValues = null;
    const tag = mutationTag.getStore();
    let m: { s: string; r: number; res: unknown } | undefined;
    if (tag && !tag.used) {
      tag.used = true;
      tag.ts = commitTs;
      const raw = (globalThis as any).__localBackendMutationResult;
      if (tag.s !== undefined && tag.r !== undefined && typeof raw === "string") {
        m = { s: tag.s, r: tag.r, res: JSON.parse(raw) };
      }
    }
    const ids = writes ? Object.keys(writes) : [];
    const inComponents = engine.components.committedWrites(componentWrites);
    if (ids.length === 0 && inComponents.length === 0) return;
    const w: [string, JsonDoc][] = ids.map((id) => {
      const doc = db.committed(id);
      return [id, doc ? (convexToJson(doc) as Record<string, unknown>) : null];
    });
    for (const entry of inComponents) w.push([componentDocKey(entry.path, entry.id), entry.doc]);
    // Durable before anyone hears of it: a crash after this line loses nothing acknowledged.
    engine.store.append({ ts: commitTs.toString(), w, ...(m ? { m } : {}) });
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
    const writer = this.writer;
    this.writer = null;
    engine.contention.record(changes, writer ? canonicalPath(writer) : "an internal write");
    for (const entry of inComponents) {
      // Component reads are recorded by table (componentStore.ts), so any write to one re-runs its readers.
      const table = componentReadKey(entry.path, entry.table);
      tables.add(table);
      changes.push({ table, id: entry.id, before: null, after: null });
    }
    for (const listener of this.listeners) {
      try {
        listener(tables, commitTs, changes);
      } catch (error) {
        engine.logError(`commit listener failed: ${String(error)}`);
      }
    }
  }
}
