/**
 * The engine: convex-test running the bundled functions over a persistent
 * database. Everything the servers need goes through this class: running
 * functions as a caller, HTTP actions, file storage, commits (persisted and
 * announced to listeners), hot reload, the scheduler after a restart and crons.
 * Its parts: functionModules.ts (the bundle), functionContext.ts (what a
 * running function carries), syscalls.ts, actionHost.ts (actions in worker
 * threads), scheduledJobs.ts, fileStorage.ts, persistence.ts, reload.ts,
 * schemaValidation.ts and snapshotIO.ts.
 */
import fs from "node:fs";
import { pathToFileURL } from "node:url";
import type { AuthConfig } from "convex/server";
import {
  FUNCTION_ENV_GLOBAL,
  hooks,
  loadConvexTest,
  CronRunner,
  installUserTimeLimits,
  setActionThreadActivity,
  installFunctionRandom,
  withFunctionRandom,
  ActionPool,
  actionWorkerCount,
  ConcurrentMutations,
  canonicalPath,
  type Caller,
  type FunctionInfo,
  installConsoleCapture,
  type Journal,
  type MutationTag,
  mutationTag,
  outsideLogs,
  readTracker,
  FunctionModules,
  loadSchema,
  ScheduledJobs,
  wrapSyscalls,
  invokeActionInWorker,
  invokeHttpActionInWorker,
} from "../runtime/index.js";
import {
  ComponentStore,
  type ConvexGlobal,
  type ConvexTestModule,
  type FunctionModule,
  type TestAccessor,
  type IndexedDatabase,
  indexedDatabaseClass,
  MutationResults,
  type ReadSet,
  ContentionMonitor,
  contentionThreshold,
  schemaPushError,
  validateData,
  fingerprint,
} from "../database/index.js";
import { type CompactionStats, DataStore } from "../storage/index.js";
import { setCurrentTableNumbers, TableNumbers } from "../common/index.js";
import { type CommitListener, Commits, readSet } from "./commits.js";
import { FileStorage } from "./fileStorage.js";
import { Persistence } from "./persistence.js";
import { exportSnapshot, importSnapshot, importSnapshotStream } from "./snapshotIO.js";
import type { SnapshotReadStats } from "./snapshotStream.js";
import { reloadFunctions } from "./reload.js";

export type { Caller, FunctionInfo, FunctionKind, Journal } from "../runtime/index.js";
export { UPLOAD_URL_TTL_MS } from "./fileStorage.js";

export type { CommitListener } from "./commits.js";

let activeEngine: Engine | null = null;

export type EngineOptions = {
  functionsDir: string;
  /** Dev tools loaded on top of functionsDir (seeding, test fixtures): see devFunctions.ts. */
  devFunctionsDir?: string | null;
  dataDir: string;
  apiUrl: string;
  siteUrl: string;
  log?: (line: string) => void;
  errorLog?: (line: string) => void;
};

export class Engine {
  readonly store: DataStore;
  /** Table numbers of the data directory (inside every document id). */
  readonly tables: TableNumbers;
  readonly opts: EngineOptions;
  // Set by start(), before anything uses them.
  ct!: ConvexTestModule;
  t!: TestAccessor;
  g!: ConvexGlobal;
  db!: IndexedDatabase;
  /** The bundle of the functions folder and its loaded modules. */
  readonly functions: FunctionModules;
  authConfig: AuthConfig | null = null;
  private authConfigVersion = 0;
  lastCommitTs = 0n;
  /** Incremented on every commit that wrote something. */
  commitSeq = 0;
  /**
   * Hot documents (contention.ts). The threshold (transactions per second
   * writing one document) comes from LOCAL_BACKEND_CONTENTION_THRESHOLD of the
   * backend's own environment; 0 turns it off.
   */
  readonly contention = new ContentionMonitor(
    // The backend's own log, not the log lines of the function that committed.
    (line) => outsideLogs(() => this.logError(line)),
    contentionThreshold(),
  );
  /** Results of client mutations by `${sessionId}:${requestId}`. */
  readonly mutationResults = new MutationResults();
  private accessors = new Map<string, TestAccessor>();
  readonly crons: CronRunner;
  /** Set by close(): no job, action thread or compaction starts after it. */
  closed = false;
  /** Uploads and stored files. */
  readonly files = new FileStorage(this);
  /** Scheduled functions' executor. */
  readonly jobs = new ScheduledJobs(this);
  /** What every commit does, and the snapshot hold (commits.ts). */
  readonly commits: Commits = new Commits(this, () => activeEngine === this);
  /** Mutations run concurrently under optimistic concurrency control (concurrentMutations.ts). */
  readonly occ: ConcurrentMutations = new ConcurrentMutations(this);
  /** Loading and compacting the data directory. */
  readonly persistence = new Persistence(this);
  /** Worker threads that run actions (actionPool.ts), or null to run them on this thread. */
  readonly actionPool: ActionPool | null;
  /** The installed components' databases (see componentStore.ts). */
  readonly components: ComponentStore = new ComponentStore({
    ct: null,
    g: null,
    loadModule: (modulePath, componentPath) => this.loadModule(modulePath, componentPath),
    onRead: (key) => readSet()?.addTable(key),
    onReadRange: (key, contains) => readSet()?.addRange(key, contains),
    onReadId: (key, id) => readSet()?.addId(key, id),
    beforeApply: (ts, layers) => {
      if (activeEngine === this) this.commits.logCommit(ts, layers);
    },
    onCommit: (ts, app, components) => {
      if (activeEngine === this) this.commits.afterCommit(this.db, ts, app, components);
    },
  });

  constructor(opts: EngineOptions) {
    this.opts = opts;
    this.store = new DataStore(opts.dataDir);
    this.tables = new TableNumbers(this.store.dir);
    this.functions = new FunctionModules(opts.functionsDir, opts.devFunctionsDir ?? null, opts.dataDir);
    this.crons = new CronRunner(this);
    const workers = actionWorkerCount();
    this.actionPool = workers > 0 ? new ActionPool(workers, FUNCTION_ENV_GLOBAL, (line) => this.logError(line)) : null;
  }

  log(line: string): void {
    (this.opts.log ?? console.log)(line);
  }
  logError(line: string): void {
    (this.opts.errorLog ?? console.error)(line);
  }

  /** Figures for `/_local/stats` (tests and benchmarks). */
  stats(): Record<string, unknown> {
    return {
      commits: this.commitSeq,
      contention: this.contention.stats(),
      occ: this.occ.stats(),
      logWaits: this.occ.logWaits,
      mutationResults: this.mutationResults.size,
      documents: this.db.documentCount() + this.components.documentCount(),
      unparsedDocuments: this.db.unparsedDocuments(),
      storage: this.store.storageStats(),
    };
  }

  /** Bundles, loads and restores. Throws (with a clear message) if it cannot start. */
  async init(options: { startBackground?: boolean } = {}): Promise<void> {
    await this.store.lock();
    setCurrentTableNumbers(this.tables);
    this.applyEnv(this.store.readEnv());
    // Read while the functions are bundled (restore() below takes what was read).
    this.persistence.startReading();
    // Bundled from now on, in esbuild's own process, while convex-test loads here.
    const building = this.functions.build();
    building.catch(() => undefined); // awaited below
    this.ct = await loadConvexTest();
    installConsoleCapture();
    hooks.__localBackendSiteUrl = this.opts.siteUrl;
    const bundle = await building;
    const schema = await loadSchema(bundle);
    const refused = schemaPushError(schema);
    if (refused) throw new Error(`Convex would refuse the schema in ${this.opts.functionsDir}: ${refused}`);
    const placeholderModules = { "./_generated/api.js": async () => ({}) };
    this.t = this.ct.convexTest({ schema, modules: placeholderModules, transactionLimits: true });
    let found: ConvexGlobal | undefined;
    activeEngine = null; // the probe below commits nothing worth recording
    await this.t.run(async () => {
      found = this.ct.convexGlobalStorage.getStore();
    });
    if (!found) throw new Error("convex-test ran a function without its global state");
    const g = found;
    this.g = g;
    // Per-table storage and ordered indexes instead of convex-test's one
    // object of all documents (see indexedDatabase.ts), swapped in between
    // transactions; convex-test finds the database through this object.
    const IndexedDatabase = indexedDatabaseClass(this.ct);
    this.db = new IndexedDatabase(schema ?? null, "");
    g.components[""].db = this.db;
    g.components[""].modules = (modulePath: string) => this.loadModule(modulePath);
    this.functions.swap(bundle);
    await this.components.install(bundle, this.ct, g);
    wrapSyscalls(this);
    this.commits.install();
    this.occ.install();
    installUserTimeLimits(g);
    // Every run convex-test starts passes this hook: each gets a Math.random of its own.
    installFunctionRandom();
    const timed = hooks.__localBackendUserTime!;
    hooks.__localBackendUserTime = (kind, isNested, run) => timed(kind, isNested, () => withFunctionRandom(run));
    hooks.__localBackendBeforeCommit = (isNested: boolean) => activeEngine?.jobs.beforeCommit(isNested);
    hooks.__localBackendBeforeMutation = () => activeEngine?.commits.beforeMutation();
    hooks.__localBackendJobFinished = (at: number) => activeEngine?.jobs.jobFinished(at);
    hooks.__localBackendMutationAttempts = (
      isNested: boolean,
      attempt: () => Promise<unknown>,
      functionPath: { udfPath: string },
    ) => (activeEngine ? activeEngine.occ.run(isNested, attempt, functionPath) : attempt());
    hooks.__localBackendCommitTurn = (isNested: boolean) => activeEngine?.occ.commitTurn(isNested);
    hooks.__localBackendInvokeAction = (
      functionPath: { udfPath: string; componentPath: string },
      requestId: string,
      args: string,
    ) =>
      activeEngine
        ? invokeActionInWorker(activeEngine, activeEngine.actionPool, functionPath, requestId, args)
        : undefined;
    hooks.__localBackendInvokeHttpAction = (url: string, init: RequestInit | undefined, requestId: string) =>
      activeEngine ? invokeHttpActionInWorker(activeEngine, activeEngine.actionPool, url, init, requestId) : undefined;
    const pool = this.actionPool;
    setActionThreadActivity(pool ? () => ({ running: pool.running, started: pool.started }) : null);
    hooks.__localBackendRunScheduledFunction = (job) =>
      activeEngine?.jobs.runJob(job.db, job.jobId, job.componentPath, job.functionPath.udfPath, job.args);
    await this.persistence.restore();
    this.persistence.schemaFingerprint = fingerprint(schema);
    // The segments were compacted under a schema (manifest.json): under the same
    // one, only documents the log brought since need checking; every write was
    // checked when it committed, and a new schema checks everything on reload.
    const sameSchema = this.store.validatedSchema === this.persistence.schemaFingerprint;
    const problems = validateData(this.ct, this.db, this.db._schema, sameSchema ? this.store.changedKeys() : undefined);
    if (problems.length > 0) {
      throw new Error(`The schema in ${this.opts.functionsDir} rejects existing data:\n  ${problems.join("\n  ")}`);
    }
    // Everything passed under this schema: the next start need not check the segments again.
    if (!sameSchema) this.store.recordValidatedSchema(this.persistence.schemaFingerprint);
    this.persistence.compactAfterRestore();
    // User tables not read yet are parsed between requests (any use parses its table first).
    this.persistence.loadInBackground();
    // The DatabaseFake hooks report commits to the one engine of this process.
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    activeEngine = this;
    await this.loadAuthConfig();
    if (options.startBackground !== false) {
      this.jobs.rescheduleRestored();
      await this.crons.reload();
    }
  }

  loadModule(modulePath: string, componentPath = ""): Promise<FunctionModule> {
    return this.functions.loadModule(modulePath, componentPath);
  }

  /** Module paths of the current bundle ("messages", "lib/x"). */
  moduleNames(): string[] {
    return this.functions.moduleNames();
  }

  /** What kind of function a path names, or null if there is none. */
  describe(udfPath: string): Promise<FunctionInfo | null> {
    return this.functions.describe(udfPath);
  }

  // --- running functions ---------------------------------------------------

  private accessor(caller: Caller): TestAccessor {
    if (caller.kind !== "user") return this.t;
    let acc = this.accessors.get(caller.key);
    if (!acc) {
      acc = this.t.withIdentity(caller.identity);
      if (this.accessors.size > 1000) this.accessors.clear();
      this.accessors.set(caller.key, acc);
    }
    return acc;
  }

  /**
   * Runs a query; `reads` collects the tables it read, and `journal` pins the
   * end of a paginated query's page on re-runs, so pages neither overlap nor
   * leave gaps when rows are inserted or deleted.
   */
  async query(
    udfPath: string,
    args: Record<string, unknown>,
    caller: Caller,
    reads?: ReadSet,
    journal?: Journal,
  ): Promise<unknown> {
    const fp = { udfPath: canonicalPath(udfPath), componentPath: "" };
    const acc = this.accessor(caller);
    const run = () => acc.queryFromPath(fp, args);
    return await this.persistence.serve(() =>
      reads ? readTracker.run({ reads, journal }, run) : readTracker.exit(run),
    );
  }

  /** Runs a mutation; resolves once its writes are on disk, with its commit ts. */
  async mutation(
    udfPath: string,
    args: Record<string, unknown>,
    caller: Caller,
    request?: { sessionId: string; requestId: number },
  ): Promise<{ value: unknown; ts: bigint }> {
    const fp = { udfPath: canonicalPath(udfPath), componentPath: "" };
    const acc = this.accessor(caller);
    const tag: MutationTag = { s: request?.sessionId, r: request?.requestId, used: false };
    const value = await this.persistence.serve(() =>
      readTracker.exit(() => mutationTag.run(tag, () => acc.mutationFromPath(fp, args))),
    );
    return { value, ts: tag.ts ?? this.lastCommitTs };
  }

  async action(udfPath: string, args: Record<string, unknown>, caller: Caller): Promise<unknown> {
    const fp = { udfPath: canonicalPath(udfPath), componentPath: "" };
    const acc = this.accessor(caller);
    const value = await readTracker.exit(() => mutationTag.exit(() => acc.actionFromPath(fp, args)));
    await this.durable();
    return value;
  }

  /**
   * Null when every commit so far is on disk, else a promise of that: the
   * data log fsyncs commits in groups (dataLog.ts), so whatever answers a
   * caller with what a commit wrote (a mutation's result, a query's, a
   * Transition) waits for this first. Rejects once an fsync failed.
   */
  durable(): Promise<void> | null {
    return this.store.durable();
  }

  /** Runs any function by its kind (CLI `run`, crons). */
  async runAny(udfPath: string, args: Record<string, unknown>, caller: Caller = { kind: "admin" }): Promise<unknown> {
    const info = await this.describe(udfPath);
    if (!info) throw new Error(`Could not find function for '${canonicalPath(udfPath)}'`);
    if (info.kind === "query") return await this.query(udfPath, args, caller);
    if (info.kind === "mutation") return (await this.mutation(udfPath, args, caller)).value;
    return await this.action(udfPath, args, caller);
  }

  /** Serves an HTTP action route of convex/http.ts. */
  async httpAction(pathAndQuery: string, init: RequestInit, caller: Caller): Promise<Response> {
    if (!this.functions.bundle?.modules.has("http")) {
      return new Response(`No HttpAction routed for ${pathAndQuery.split("?")[0]}`, { status: 404 });
    }
    const acc = this.accessor(caller);
    const response = await readTracker.exit(() => mutationTag.exit(() => acc.fetch(pathAndQuery, init)));
    await this.durable();
    return response;
  }

  /** See Commits.runSnapshot. */
  runSnapshot<T>(fn: () => Promise<T>): Promise<T> {
    return this.commits.runSnapshot(fn);
  }

  onCommit(listener: CommitListener): void {
    this.commits.listeners.push(listener);
  }

  // --- env, auth config, reload ------------------------------------------------

  /**
   * The deployment's variables, which function code reads as `process.env`
   * (the bundler points it here); the backend's own process.env is untouched.
   */
  applyEnv(env: Record<string, string>): void {
    const g = globalThis as unknown as Record<string, Record<string, string> | undefined>;
    const target: Record<string, string> = (g[FUNCTION_ENV_GLOBAL] ??= {});
    for (const key of Object.keys(target)) delete target[key];
    Object.assign(target, env);
    target.CONVEX_CLOUD_URL ??= this.opts.apiUrl;
    target.CONVEX_SITE_URL ??= this.opts.siteUrl;
  }

  async reloadEnv(): Promise<void> {
    this.applyEnv(this.store.readEnv());
    // Module code that read the variables when it loaded runs again, here and in fresh action threads.
    this.functions.refresh();
    this.actionPool?.recycle();
    await this.loadAuthConfig();
  }

  async loadAuthConfig(): Promise<void> {
    const file = this.functions.bundle?.authConfigFile;
    if (!file) {
      this.authConfig = null;
      return;
    }
    // A fresh evaluation, since auth.config.ts reads process.env when loaded.
    const mod = await import(`${pathToFileURL(file).href}?v=${++this.authConfigVersion}`);
    this.authConfig = mod.default ?? null;
    this.onAuthConfigChange?.();
  }

  onAuthConfigChange: (() => void) | null = null;

  /** Called once a reload has swapped in new functions (sync.ts re-runs every live query with them). */
  readonly reloadListeners: (() => void)[] = [];

  /**
   * Rebundles the functions folder and swaps it in, keeping the data. If the
   * build fails or the new schema rejects existing data, the old functions stay.
   */
  reload(): Promise<boolean> {
    return reloadFunctions(this);
  }

  // --- import/export -------------------------------------------------------------

  exportSnapshot(): unknown {
    return exportSnapshot(this);
  }

  /** Replaces the whole database with a snapshot, as one commit. */
  async importSnapshot(snapshot: unknown): Promise<{ documents: number; files: number }> {
    const imported = await importSnapshot(this, snapshot);
    await this.durable();
    return imported;
  }

  /** The same from the snapshot's bytes, read a chunk at a time (never one string). */
  async importSnapshotStream(
    chunks: AsyncIterable<Uint8Array>,
    stats?: SnapshotReadStats,
  ): Promise<{ documents: number; files: number }> {
    const imported = await importSnapshotStream(this, chunks, stats);
    await this.durable();
    return imported;
  }

  /** The same from a snapshot file, read 1 MiB at a time (a national snapshot is longer than V8's longest string). */
  async importSnapshotFile(file: string): Promise<{ documents: number; files: number }> {
    return await this.importSnapshotStream(fs.createReadStream(file, { highWaterMark: 1 << 20 }));
  }

  /** Writes what changed since the last compaction into the data directory's segments and empties the log. */
  compact(): CompactionStats {
    return this.persistence.compact();
  }

  /** Number of documents in user tables (seeding runs on an empty database). */
  isEmpty(): boolean {
    return this.db.documentCount() === 0;
  }

  close(): void {
    this.closed = true;
    this.crons.stop();
    this.actionPool?.close();
    this.jobs.stop();
    this.store.closeLog();
    this.store.unlock();
    if (activeEngine === this) activeEngine = null;
    this.functions.close();
  }
}
