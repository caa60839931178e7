/**
 * The scheduler's executor: runs each due scheduled function exactly once on
 * the real clock (convex-test calls runJob through convexTestLoader.ts), and
 * picks up the jobs left pending or running by a previous process.
 */
import { ContextSlot, knob } from "../common/index.js";
import { LogWriteError } from "../storage/index.js";
import {
  type ComponentStore,
  type ConvexGlobal,
  type ConvexTestModule,
  type DatabaseHandle,
  type Doc,
  afterSchedulingTransaction,
  outsideTransaction,
} from "../database/index.js";

/** The scheduled job whose mutation is running: its status commits with the mutation (runJob). */
const scheduledMutation = new ContextSlot<{ db: DatabaseHandle; jobId: string; done: boolean }>();
/**
 * The scheduled mutation about to run another attempt (concurrentMutations.ts), or null:
 * its job status is written again by the new attempt's commit.
 */
export function scheduledMutationAttempt(): { newAttempt(): void } | null {
  const job = scheduledMutation.getStore();
  return job ? { newAttempt: () => (job.done = false) } : null;
}
/** Thrown from the commit hook when a job was canceled while its mutation ran: nothing commits. */
const JOB_CANCELED = Symbol("job canceled");

/** A failed job's `error`, as Convex words an uncaught error. */
function errorText(error: unknown): string {
  return `Uncaught ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
}

/** A `_scheduled_functions` row, as the executor reads it. */
type JobRow = {
  _creationTime: number;
  name: string;
  args?: unknown[];
  scheduledTime: number;
  state?: { kind: string };
  completedTime?: unknown;
};

function jobRow(doc: Doc): JobRow;
function jobRow(doc: Doc | null): JobRow | null;
function jobRow(doc: Doc | null): JobRow | null {
  return doc as unknown as JobRow | null;
}

/** The app's database, then each component's (each has its own `_scheduled_functions`). */
function databases(engine: SchedulerHost): [string, DatabaseHandle][] {
  return [["", engine.db], ...engine.components.dbs];
}

/** Convex's scheduled job garbage collector: at most this many rows per transaction, then a pause. */
const GC_BATCH = 1000;
const GC_DELAY_MS = 10_000;
const FINISHED = new Set(["success", "failed", "canceled"]);

/** What the scheduler uses of the engine: convex-test, its globals, the databases and the error log. */
export type SchedulerHost = {
  readonly ct: ConvexTestModule;
  readonly g: ConvexGlobal;
  readonly db: DatabaseHandle;
  readonly components: Pick<ComponentStore, "dbs">;
  /** Null once every commit is on disk, else a promise of that (Engine.durable). */
  durable(): Promise<void> | null;
  logError(line: string): void;
};

export class ScheduledJobs {
  private pendingTimers = new Set<NodeJS.Timeout>();
  private stopped = false;
  /** How long a finished job's row is kept: Convex's SCHEDULED_JOB_RETENTION knob (seconds, one week). */
  private readonly retentionMs = knob("SCHEDULED_JOB_RETENTION", 7 * 24 * 3600) * 1000;
  private gcTimer: NodeJS.Timeout | null = null;
  private gcAt = Infinity;
  private lastSweep = -Infinity;

  constructor(private readonly engine: SchedulerHost) {}

  /** A job finished (succeeded, failed, was canceled) at `completedTime`: its row goes once the retention has passed. */
  jobFinished(completedTime: number): void {
    this.sweepAt(completedTime + this.retentionMs);
  }

  private sweepAt(at: number): void {
    // Sweeps are at least GC_DELAY_MS apart, so many expiring rows cost one scan per delay.
    at = Math.max(at, this.lastSweep + GC_DELAY_MS);
    if (this.stopped || at >= this.gcAt) return;
    if (this.gcTimer) clearTimeout(this.gcTimer);
    this.gcAt = at;
    this.gcTimer = setTimeout(
      () => {
        this.gcTimer = null;
        this.gcAt = Infinity;
        if (Date.now() < at) return this.sweepAt(at); // past setTimeout's range: wait on
        // The timer may be set inside a job or a mutation: the sweep is a transaction of its own.
        scheduledMutation
          .exit(() => outsideTransaction(() => this.sweep()))
          .catch((error: unknown) => this.engine.logError(`scheduled jobs cleanup: ${String(error)}`));
      },
      Math.min(Math.max(0, at - Date.now()), 2 ** 31 - 1),
    );
  }

  /**
   * Deletes finished jobs older than the retention, as Convex's
   * ScheduledJobGarbageCollector does (oldest first, one batch per
   * transaction), and waits for the next one to expire.
   */
  private async sweep(): Promise<void> {
    if (this.stopped) return;
    this.lastSweep = Date.now();
    const engine = this.engine;
    let next = Infinity;
    for (const [componentPath, db] of databases(engine)) {
      const expired: [string, number][] = [];
      for (const [id, row] of db.tableDocuments("_scheduled_functions")) {
        const doc = jobRow(row);
        if (!FINISHED.has(doc.state?.kind ?? "")) continue;
        // A row finished before completion times were kept counts from its creation.
        const expires =
          (typeof doc.completedTime === "number" ? doc.completedTime : doc._creationTime) + this.retentionMs;
        if (expires <= this.lastSweep) expired.push([id, expires]);
        else if (expires < next) next = expires;
      }
      expired.sort((a, b) => a[1] - b[1]);
      if (expired.length > GC_BATCH) next = 0; // the rest after the pause
      const batch = expired.slice(0, GC_BATCH);
      if (batch.length === 0) continue;
      await engine.ct.convexGlobalStorage.run(engine.g, () =>
        engine.ct.withAuth().runInComponent(componentPath, async () => {
          for (const [id] of batch) {
            if (FINISHED.has(jobRow(db.get("_scheduled_functions", id))?.state?.kind ?? "")) {
              db.delete("_scheduled_functions", id);
            }
          }
        }),
      );
    }
    if (next < Infinity) this.sweepAt(next);
  }

  /** Pending scheduled functions from before a restart (or an import) run on their own clock. */
  rescheduleRestored(skip: Set<string> = new Set()): void {
    if (this.stopped) return;
    const engine = this.engine;
    // The app's jobs, then each component's (in its own `_scheduled_functions`).
    for (const [componentPath, db] of databases(engine)) {
      for (const [id, row] of [...db.tableDocuments("_scheduled_functions")]) {
        const doc = jobRow(row);
        if (skip.has(componentPath ? `@${componentPath}|${id}` : id)) continue;
        const kind = doc.state?.kind;
        if (kind === "inProgress") {
          // Only an action's job is ever committed as inProgress: it was running when
          // the backend stopped. Convex runs actions at most once and fails the job.
          void this.completeJob(db, id, componentPath, {
            kind: "failed",
            error: "Transient error while executing action",
          }).catch((error: unknown) => engine.logError(`scheduled function ${doc.name}: ${String(error)}`));
          continue;
        }
        if (FINISHED.has(kind ?? "")) {
          this.jobFinished(typeof doc.completedTime === "number" ? doc.completedTime : doc._creationTime);
          continue;
        }
        if (kind !== "pending") continue;
        this.scheduleJob(id, doc.name, doc.args?.[0] ?? {}, doc.scheduledTime, db, componentPath);
      }
    }
  }

  /** Sets a job's final state in a transaction of its own. */
  private async completeJob(
    db: DatabaseHandle,
    jobId: string,
    componentPath: string,
    state: Record<string, unknown>,
  ): Promise<void> {
    await this.engine.ct.convexGlobalStorage.run(this.engine.g, () =>
      this.engine.ct.withAuth().runInComponent(componentPath, async () => {
        const job = db.get("_scheduled_functions", jobId);
        if (job) db.patch("_scheduled_functions", jobId, { state, completedTime: Date.now() });
      }),
    );
    this.jobFinished(Date.now());
  }

  /**
   * Runs a due job exactly once, as Convex's scheduled job executor does. A
   * mutation and its job's `success` commit in one transaction (one log entry),
   * so a crash leaves either both or neither; if it throws, nothing of it
   * commits and the job is marked failed. An action's job is committed
   * `inProgress` before it starts, so a crash while it runs fails it on restart
   * instead of running it again.
   */
  async runJob(db: DatabaseHandle, jobId: string, componentPath: string, name: string, args: unknown): Promise<void> {
    try {
      await afterSchedulingTransaction();
      // The timer was set inside the scheduling mutation: none of its context carries over.
      await scheduledMutation.exit(() =>
        outsideTransaction(() => this.runJobOnce(db, jobId, componentPath, name, args)),
      );
    } catch (error) {
      // convex-test's timer does not catch: a job whose commit the data log refused stays pending
      // (on disk too) and runs again after the restart that writes need.
      if (!(error instanceof LogWriteError)) throw error;
      this.engine.logError(`Scheduled function ${name} did not run: ${error.message}`);
    }
  }

  private async runJobOnce(
    db: DatabaseHandle,
    jobId: string,
    componentPath: string,
    name: string,
    args: unknown,
  ): Promise<void> {
    const ct = this.engine.ct;
    const functionPath = { udfPath: name, componentPath };
    const { func } = await ct.resolveFunction(functionPath, "any");
    const requestMetadata = {
      ip: null,
      userAgent: null,
      requestId: ct.newRequestId(),
      scheduledFunctionId: jobId,
      authToken: null,
    };
    const auth = new ct.AuthFake();
    await ct.requestMetadataStorage.run(requestMetadata, () =>
      ct.authStorage.run(auth, async () => {
        if ((func as { isMutation?: boolean }).isMutation) {
          const job = jobRow(db.get("_scheduled_functions", jobId));
          if (job?.state?.kind !== "pending") return;
          try {
            await scheduledMutation.run({ db, jobId, done: false }, () => ct.withAuth().fun(functionPath, args));
          } catch (error) {
            if (error === JOB_CANCELED) return;
            // Nothing of it committed, and no write can until a restart (which runs the job again).
            if (error instanceof LogWriteError) throw error;
            this.engine.logError(`Error when running scheduled function ${name}: ${String(error)}`);
            await this.completeJob(db, jobId, componentPath, { kind: "failed", error: errorText(error) });
          }
          return;
        }
        const started = await ct.withAuth().runInComponent(componentPath, async () => {
          const job = jobRow(db.get("_scheduled_functions", jobId));
          if (job?.state?.kind !== "pending") return false;
          db.patch("_scheduled_functions", jobId, { state: { kind: "inProgress" } });
          return true;
        });
        if (!started) return;
        // `inProgress` on disk before the action does anything: a crash then fails it, never runs it twice.
        await this.engine.durable();
        let state: Record<string, unknown> = { kind: "success" };
        try {
          await ct.withAuth().fun(functionPath, args);
        } catch (error) {
          this.engine.logError(`Error when running scheduled function ${name}: ${String(error)}`);
          state = { kind: "failed", error: errorText(error) };
        }
        await this.completeJob(db, jobId, componentPath, state);
      }),
    );
  }

  /** Called by convex-test right before a mutation commits (convexTestLoader.ts). */
  beforeCommit(isNested: boolean): void {
    const job = scheduledMutation.getStore();
    if (isNested || !job || job.done) return;
    job.done = true;
    const doc = jobRow(job.db.get("_scheduled_functions", job.jobId));
    if (doc?.state?.kind !== "pending") throw JOB_CANCELED;
    job.db.patch("_scheduled_functions", job.jobId, { state: { kind: "success" }, completedTime: Date.now() });
    this.jobFinished(Date.now());
  }

  private scheduleJob(
    jobId: string,
    name: string,
    args: unknown,
    scheduledTime: number,
    db: DatabaseHandle,
    componentPath: string,
  ) {
    const fire = () => {
      this.pendingTimers.delete(timer);
      if (this.stopped) return;
      const delay = scheduledTime - Date.now();
      if (delay > 0) {
        timer = setTimeout(fire, Math.min(delay, 2 ** 31 - 1));
        this.pendingTimers.add(timer);
        return;
      }
      void this.engine.ct.convexGlobalStorage
        .run(this.engine.g, () => this.runJob(db, jobId, componentPath, name, args))
        .catch((error: unknown) => this.engine.logError(`scheduled function ${name} failed: ${String(error)}`));
    };
    let timer = setTimeout(fire, Math.max(0, Math.min(scheduledTime - Date.now(), 2 ** 31 - 1)));
    this.pendingTimers.add(timer);
  }

  /** No job starts from now on (the engine is closing). */
  stop(): void {
    this.stopped = true;
    for (const timer of this.pendingTimers) clearTimeout(timer);
    if (this.gcTimer) clearTimeout(this.gcTimer);
  }
}
