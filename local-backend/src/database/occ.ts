/**
 * Optimistic concurrency control, as Convex runs mutations: they run at the
 * same time, each reading the committed state; at commit, a transaction whose
 * read set (documents read by id, index ranges scanned, tables read whole)
 * holds a document that a transaction committed after it began wrote is not
 * applied but run again, after a jittered exponential backoff, up to
 * UDF_EXECUTOR_OCC_MAX_RETRIES times; past that it fails with Convex's
 * OptimisticConcurrencyControlFailure. A scheduled mutation retries until it
 * commits. Commits themselves are synchronous and wait for running queries
 * (commits.ts), so a query reads one committed state.
 *
 * Reads see the latest committed documents rather than a copy at the begin
 * timestamp: whatever a transaction read that changed after it began is a
 * conflict, so a transaction commits (or fails with its own error) only when
 * everything it read equals its snapshot. One that failed with its own error
 * after reading something that changed is run again instead, since that run
 * may have seen two states.
 *
 * LOCAL_BACKEND_OCC=0 in the backend's environment turns this off: every
 * transaction then runs alone, one after another, and never conflicts.
 */
import { ContextSlot, intKnob } from "../common/index.js";
import { type Change, ReadSet } from "./readSet.js";

/** Convex's error code (crates/errors/src/lib.rs OCC_ERROR). */
export const OCC_ERROR = "OptimisticConcurrencyControlFailure";

/** Whether mutations run concurrently (`LOCAL_BACKEND_OCC`, default 1; 0 serialises every transaction). */
export const occEnabled = () => intKnob("LOCAL_BACKEND_OCC", 1, { min: 0 }) !== 0;

/**
 * Convex's knobs (crates/common/src/knobs.rs), read from the same variable names:
 * UDF_EXECUTOR_OCC_MAX_RETRIES = 4, UDF_EXECUTOR_OCC_INITIAL_BACKOFF_MS = 100,
 * UDF_EXECUTOR_OCC_MAX_BACKOFF_MS = 2000; the scheduler's own
 * SCHEDULER_OCC_INITIAL_BACKOFF_MS = 100 and SCHEDULER_OCC_MAX_BACKOFF_MS = 60000.
 */
export function occSettings() {
  return {
    maxRetries: intKnob("UDF_EXECUTOR_OCC_MAX_RETRIES", 4, { min: 0 }),
    initialBackoffMs: intKnob("UDF_EXECUTOR_OCC_INITIAL_BACKOFF_MS", 100, { min: 0 }),
    maxBackoffMs: intKnob("UDF_EXECUTOR_OCC_MAX_BACKOFF_MS", 2000, { min: 0 }),
    schedulerInitialBackoffMs: intKnob("SCHEDULER_OCC_INITIAL_BACKOFF_MS", 100, { min: 0 }),
    schedulerMaxBackoffMs: intKnob("SCHEDULER_OCC_MAX_BACKOFF_MS", 60_000, { min: 0 }),
  };
}

/**
 * The wait before retry number `failures + 1`: Convex's Backoff::fail
 * (sync_types/src/backoff.rs), min(initial * 2^failures, max) times a uniform jitter.
 */
export function backoffMs(failures: number, initialMs: number, maxMs: number, random = Math.random): number {
  return Math.min(initialMs * 2 ** failures, maxMs) * random();
}

/** Where a conflict was found: the document and the function whose commit wrote it. */
export type Conflict = { table: string; id: string; writer: string | null; ts: bigint };

/** "counters:bump" -> "counters.js:bump", as Convex displays a write source. */
function displayPath(path: string): string {
  const colon = path.lastIndexOf(":");
  return colon < 0 ? path : `${path.slice(0, colon)}.js${path.slice(colon)}`;
}

/** A component table is tracked as `@<component>|<table>` (componentStore.ts); Convex names the table. */
function displayTable(table: string): string {
  return table.startsWith("@") && table.includes("|") ? table.slice(table.indexOf("|") + 1) : table;
}

/** Convex's ErrorMetadata::user_occ, with the write source as occ_write_source_string words it. */
export class OccError extends Error {
  readonly code = OCC_ERROR;
  constructor(
    readonly conflict: Conflict,
    currentWriter: string | null,
  ) {
    const source =
      conflict.writer === null
        ? ""
        : `${
            conflict.writer === currentWriter
              ? "Another call to this mutation"
              : `A call to "${displayPath(conflict.writer)}"`
          } changed the document with ID "${conflict.id}". `;
    super(
      `Documents read from or written to the "${displayTable(conflict.table)}" table changed while this ` +
        `mutation was being run and on every subsequent retry. ${source}See https://docs.convex.dev/error#1`,
    );
    this.name = OCC_ERROR;
  }
}

/** One running attempt of a mutation: what it read, its pending writes per database, its limits. */
export class Transaction {
  readonly reads = new ReadSet();
  /** Each database's stack of pending write layers (IndexedTables._writes while this runs). */
  readonly layers = new Map<object, Record<string, unknown>[]>();
  /** convex-test's TransactionMetricsTracker of this transaction. */
  metrics: unknown = null;
  /** The function whose code wrote first (named in warnings and conflicts). */
  writer: string | null = null;
  begun = false;
  done = false;
  beginTs = 0n;
  /** The schema generation it began under: a reload in between makes it run again under the new one. */
  schemaGeneration = 0;
  /** Resolves once the attempt committed or rolled back. */
  readonly settled: Promise<void>;
  settle!: () => void;

  constructor(readonly udfPath: string | null) {
    this.settled = new Promise((resolve) => (this.settle = resolve));
  }

  writesOf(db: object): Record<string, unknown>[] {
    let layers = this.layers.get(db);
    if (!layers) this.layers.set(db, (layers = []));
    return layers;
  }
}

const transactions = new ContextSlot<Transaction>();

/** The transaction the running code belongs to, if it is a concurrent mutation still running. */
export function currentTransaction(): Transaction | null {
  const tx = transactions.getStore();
  return tx && !tx.done ? tx : null;
}

export function runInTransaction<T>(tx: Transaction, fn: () => Promise<T>): Promise<T> {
  return transactions.run(tx, fn);
}

/**
 * A timer set by a mutation (a scheduled function due now) may fire before that mutation
 * commits: this waits until it committed or rolled back (then the job is there, or not).
 */
export async function afterSchedulingTransaction(): Promise<void> {
  const tx = transactions.getStore();
  if (tx && !tx.done) await tx.settled;
}

/** Runs `fn` outside any transaction (a timer set by a mutation must not inherit it). */
export function outsideTransaction<T>(fn: () => T): T {
  return transactions.exit(fn);
}

type Committed = { ts: bigint; changes: Change[]; writer: string | null };

/** The commits since the oldest running transaction began, to check read sets against. */
export class ConflictLog {
  private commits: Committed[] = [];
  private readonly running = new Set<Transaction>();
  /** Figures for `/_local/stats`: conflicts found, retries run, mutations failed past the budget. */
  conflicts = 0;
  retries = 0;
  failures = 0;
  /** Conflicts per table written under a reader (`@component|table` for a component's): where the hot rows are. */
  readonly conflictsByTable = new Map<string, number>();

  noteConflict(conflict: Conflict): void {
    this.conflicts++;
    this.conflictsByTable.set(conflict.table, (this.conflictsByTable.get(conflict.table) ?? 0) + 1);
  }

  /** Bumped by a hot reload's swap: like a write every running transaction read. */
  schemaGeneration = 0;

  begin(tx: Transaction, ts: bigint): void {
    tx.beginTs = ts;
    tx.schemaGeneration = this.schemaGeneration;
    tx.begun = true;
    this.running.add(tx);
  }

  end(tx: Transaction): void {
    tx.done = true;
    tx.settle();
    this.running.delete(tx);
    if (this.running.size === 0) {
      this.commits = [];
      return;
    }
    let oldest: bigint | null = null;
    for (const t of this.running) if (oldest === null || t.beginTs < oldest) oldest = t.beginTs;
    let drop = 0;
    while (drop < this.commits.length && this.commits[drop].ts <= oldest!) drop++;
    if (drop > 0) this.commits.splice(0, drop);
  }

  /** A commit was applied: kept while a transaction that began before it runs. */
  record(ts: bigint, changes: Change[], writer: string | null): void {
    if (this.running.size === 0 || changes.length === 0) return;
    this.commits.push({ ts, changes, writer });
  }

  /** The first write committed after `tx` began that falls in its read set, or null. */
  check(tx: Transaction): Conflict | null {
    if (tx.schemaGeneration !== this.schemaGeneration) return { table: "_schema", id: "", writer: null, ts: 0n };
    for (const commit of this.commits) {
      if (commit.ts <= tx.beginTs) continue;
      for (const change of commit.changes) {
        if (tx.reads.intersects(change)) {
          return { table: change.table, id: change.id, writer: commit.writer, ts: commit.ts };
        }
      }
    }
    return null;
  }

  get runningCount(): number {
    return this.running.size;
  }
}
