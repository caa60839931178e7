/**
 * Runs mutations concurrently under optimistic concurrency control (occ.ts):
 * hooks convex-test's transaction manager so that a top-level mutation takes
 * no lock, keeps its pending writes and limits to itself, is checked against
 * the commits since it began when it commits, and is run again (or fails
 * with Convex's error) when it conflicts.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { LogWriteError } from "../storage/index.js";
import { canonicalPath, dropLogLinesAfter, logLinesMark } from "./functionContext.js";
import {
  backoffMs,
  ConflictLog,
  currentTransaction,
  OccError,
  occEnabled,
  occSettings,
  runInTransaction,
  Transaction,
  type Change,
  type ConvexGlobal,
  type ConvexTestModule,
  type MetricsTracker,
} from "../database/index.js";
import { scheduledMutationAttempt } from "./scheduledJobs.js";

/** What concurrent mutations use of the engine: convex-test, its globals, the commit turn, the data log's durability, the error log. */
export type MutationHost = {
  readonly ct: ConvexTestModule;
  readonly g: ConvexGlobal;
  readonly commits: { commitTurn(): Promise<void> };
  durable(): Promise<void> | null;
  logError(line: string): void;
};

export class ConcurrentMutations {
  readonly log = new ConflictLog();
  /** Top-level mutations that waited for the data log's fsync after committing, and how long in all. */
  readonly logWaits = { mutations: 0, totalMs: 0 };
  readonly enabled = occEnabled();
  readonly settings = occSettings();

  constructor(private readonly engine: MutationHost) {}

  stats(): Record<string, unknown> {
    const { conflicts, retries, failures, conflictsByTable } = this.log;
    return {
      enabled: this.enabled,
      maxRetries: this.settings.maxRetries,
      conflicts,
      retries,
      failures,
      byTable: Object.fromEntries(conflictsByTable),
    };
  }

  /** Hooks the transaction manager (once, at start, after the components' and commits' hooks). */
  install(): void {
    if (!this.enabled) return;
    const engine = this.engine;
    const tm = engine.g.transactionManager;
    const Metrics = engine.ct.TransactionMetricsTracker;
    let ownMetrics = tm._metricsTracker;
    Object.defineProperty(tm, "_metricsTracker", {
      configurable: true,
      get: () => {
        const tx = currentTransaction();
        return tx ? tx.metrics : ownMetrics;
      },
      set: (value: unknown) => {
        const tx = currentTransaction();
        if (tx) tx.metrics = value;
        else ownMetrics = value as MetricsTracker | null;
      },
    });
    const begin = tm.begin.bind(tm);
    tm.begin = async (isNested: boolean, limits?: unknown) => {
      const tx = currentTransaction();
      if (!tx) return await begin(isNested, limits);
      // No lock: a concurrent mutation begins at once, at the latest commit.
      if (!isNested && !tx.begun) {
        tx.metrics = new Metrics(tm._limitsConfig);
        this.log.begin(tx, tm._lastCommitTs);
      }
      for (const component of Object.values(engine.g.components)) component.db.startTransaction();
      tm._metricsTracker?.startTransaction?.(limits);
    };
    const isInTransaction = tm.isInTransaction.bind(tm);
    tm.isInTransaction = () => currentTransaction() !== null || isInTransaction();
    const getSnapshotTs = tm.getSnapshotTs.bind(tm);
    tm.getSnapshotTs = () => currentTransaction()?.beginTs ?? getSnapshotTs();
    const endTransaction = tm._endTransaction.bind(tm);
    tm._endTransaction = (isNested: boolean) => {
      const tx = currentTransaction();
      if (!tx) return endTransaction(isNested);
      if (!isNested) tx.metrics = null;
    };
    const commit = tm.commit.bind(tm);
    tm.commit = (isNested: boolean) => {
      const tx = currentTransaction();
      if (tx && !isNested) {
        // Synchronous from the check to the apply: nothing commits in between.
        const conflict = this.log.check(tx);
        if (conflict) throw new OccError(conflict, tx.udfPath);
      }
      return commit(isNested);
    };
  }

  /** A commit was applied (commits.ts): kept for the running transactions' checks. */
  recordCommit(ts: bigint, changes: Change[]): void {
    if (!this.enabled) return;
    this.log.record(ts, changes, currentTransaction()?.udfPath ?? null);
  }

  /**
   * Runs a top-level mutation's attempts (convex-test calls this around
   * begin..commit, convexTestLoader.ts): each in a transaction of its own;
   * on a conflict it waits Convex's backoff and runs again, up to
   * UDF_EXECUTOR_OCC_MAX_RETRIES retries (a scheduled mutation without end).
   */
  async run<T>(isNested: boolean, attempt: () => Promise<T>, functionPath: { udfPath: string }): Promise<T> {
    if (isNested || currentTransaction()) return await attempt();
    const result = await this.attempts(attempt, functionPath);
    // Group commit: the result goes back (to a client, an action, the scheduler) once the commit is on disk.
    const durable = this.engine.durable();
    if (durable) {
      const started = performance.now();
      await durable;
      this.logWaits.mutations++;
      this.logWaits.totalMs += performance.now() - started;
    }
    return result;
  }

  private async attempts<T>(attempt: () => Promise<T>, functionPath: { udfPath: string }): Promise<T> {
    if (!this.enabled) return await attempt();
    const udfPath = canonicalPath(functionPath.udfPath);
    const scheduled = scheduledMutationAttempt();
    const { maxRetries, initialBackoffMs, maxBackoffMs, schedulerInitialBackoffMs, schedulerMaxBackoffMs } =
      this.settings;
    const logMark = logLinesMark();
    for (let failures = 0; ; failures++) {
      const tx = new Transaction(udfPath);
      scheduled?.newAttempt();
      let conflict;
      try {
        const result = await runInTransaction(tx, attempt);
        this.log.end(tx);
        return result;
      } catch (error) {
        conflict = error instanceof OccError ? error.conflict : null;
        // An error of its own after reading what changed since it began: that run may have seen two states.
        if (!conflict && tx.begun && !(error instanceof LogWriteError)) conflict = this.log.check(tx);
        this.log.end(tx);
        if (!conflict) throw error;
        this.log.noteConflict(conflict);
        if (!scheduled && failures >= maxRetries) {
          this.log.failures++;
          const occ = error instanceof OccError ? error : new OccError(conflict, udfPath);
          this.engine.logError(`${udfPath}: ${occ.message}`);
          throw occ;
        }
      }
      this.log.retries++;
      dropLogLinesAfter(logMark);
      await sleep(
        scheduled
          ? backoffMs(failures, schedulerInitialBackoffMs, schedulerMaxBackoffMs)
          : backoffMs(failures, initialBackoffMs, maxBackoffMs),
      );
    }
  }

  /**
   * Called right before a concurrent mutation commits (convexTestLoader.ts):
   * waits while a query or a snapshot read runs, so each reads one committed state.
   */
  async commitTurn(isNested: boolean): Promise<void> {
    if (isNested || !currentTransaction()) return;
    await this.engine.commits.commitTurn();
  }
}
