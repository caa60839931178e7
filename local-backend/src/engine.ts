/**
 * The engine: convex-test running the bundled functions over a persistent
 * database. Everything the servers need goes through this class: running
 * functions as a caller, HTTP actions, file storage, commits (persisted and
 * announced to listeners), hot reload, the scheduler after a restart and crons.
 */
import { AsyncLocalStorage, AsyncResource } from "node:async_hooks";
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { inspect } from "node:util";
import { convexToJson, getDocumentSize, jsonToConvex } from "convex/values";
import { Bundle, bundleFunctions, FUNCTION_ENV_GLOBAL } from "./bundler.js";
import { componentDocKey, componentReadKey, ComponentStore } from "./componentStore.js";
import { loadConvexTest } from "./convexTestLoader.js";
import { indexedDatabaseClass } from "./indexedDatabase.js";
import { CronRunner } from "./crons.js";
import { queryFingerprint, unwrapCursor, wrapCursor } from "./cursors.js";
import { installUserTimeLimits, onActionExpired, setActionThreadActivity } from "./userTime.js";
import { ActionPool, actionWorkerCount, type ActionHost } from "./actionPool.js";
import { type CompactionStats, DataStore, type JsonDoc } from "./store.js";
import { isRefusedLegacyId, setCurrentTableNumbers, tableNameFromId, TableNumbers } from "./ids.js";
import { MutationResults } from "./mutationResults.js";
import { ReadSet, type Change, type Doc as ReadDoc } from "./readSet.js";
import { ContentionMonitor, DEFAULT_CONTENTION_THRESHOLD } from "./contention.js";

/** Who calls a function. `user` identities come from a verified JWT. */
export type Caller =
  { kind: "none" } | { kind: "admin" } | { kind: "user"; identity: Record<string, unknown>; key: string };

export type FunctionKind = "query" | "mutation" | "action";
export type FunctionInfo = { kind: FunctionKind; visibility: "public" | "internal" };

/** Tables written, the commit timestamp and each document write (before and after). */
export type CommitListener = (tables: Set<string>, ts: bigint, changes: Change[]) => void;

type MutationTag = { s?: string; r?: number; used: boolean; ts?: bigint };

/** Pins a paginated query's page end across re-runs (Convex's "query journal"). */
export type Journal = { endCursor?: string | null };
type QueryContext = { reads: ReadSet; journal?: Journal };

const readTracker = new AsyncLocalStorage<QueryContext>();
const mutationTag = new AsyncLocalStorage<MutationTag>();
/** The scheduled job whose mutation is running: its status commits with the mutation (runJob). */
const scheduledMutation = new AsyncLocalStorage<{ db: any; jobId: string; done: boolean }>();
/** Thrown from the commit hook when a job was canceled while its mutation ran: nothing commits. */
const JOB_CANCELED = Symbol("job canceled");
const logSink = new AsyncLocalStorage<string[]>();
const MAX_LOG_LINES = 256;
/** How long an upload URL can be used (once). */
export const UPLOAD_URL_TTL_MS = 10 * 60 * 1000;

/** Runs `fn`, collecting what functions print with console.* as Convex log lines ("[LOG] 'text'"). */
export function captureLogs<T>(lines: string[], fn: () => Promise<T>): Promise<T> {
  return logSink.run(lines, fn);
}

/** The console methods as they were before the capture (the backend's own output). */
const originalConsole = new Map<string, (...args: unknown[]) => void>();

/**
 * A log line of a function running in an action worker thread (actionPool.ts),
 * called in the function's context: added to its log lines and printed, as
 * the console capture below does for functions on this thread.
 */
function emitFunctionLog(method: string, line: string, printed: string): void {
  const sink = logSink.getStore();
  if (sink && sink.length < MAX_LOG_LINES) sink.push(line);
  (originalConsole.get(method) ?? console.log)(printed);
}

let consoleCaptured = false;
function installConsoleCapture(): void {
  if (consoleCaptured) return;
  consoleCaptured = true;
  const levels: [keyof Console, string][] = [
    ["log", "LOG"],
    ["info", "INFO"],
    ["warn", "WARN"],
    ["error", "ERROR"],
    ["debug", "DEBUG"],
  ];
  for (const [method, level] of levels) {
    const original = (console[method] as (...args: unknown[]) => void).bind(console);
    originalConsole.set(method, original);
    (console as any)[method] = (...args: unknown[]) => {
      const sink = logSink.getStore();
      if (sink && sink.length < MAX_LOG_LINES) {
        const text = args
          .map((a) => (typeof a === "string" ? `'${a}'` : inspect(a, { depth: 4, breakLength: Infinity })))
          .join(" ");
        sink.push(`[${level}] ${text}`);
      }
      // Also on the backend's own output, as `convex dev` shows function logs.
      original(...args);
    };
  }
}

let activeEngine: Engine | null = null;
const docCache = new WeakMap<object, { json: string; size: number }>();

/** The table of a document id (see ids.ts), or null. */
/** A failed job's `error`, as Convex words an uncaught error. */
function errorText(error: unknown): string {
  return `Uncaught ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
}

export function tableFromId(id: string): string | null {
  return tableNameFromId(id);
}

/** "messages" -> "messages:default", "dir/mod.js:fn" -> "dir/mod:fn". */
export function canonicalPath(udfPath: string): string {
  const [mod, fn] = udfPath.includes(":") ? udfPath.split(":", 2) : [udfPath, "default"];
  return `${mod.replace(/\.(js|ts|jsx|tsx|mjs|cjs)$/, "")}:${fn}`;
}

function schemaForDb(schema: any): any {
  if (!schema) return null;
  return {
    schemaValidation: schema.schemaValidation,
    tables: new Map(Object.entries(schema.tables).map(([name, table]: [string, any]) => [name, table.export()])),
  };
}

/** Bundle folders left in the temp dir by backends that were killed (kill -9). */
function removeStaleBundles(): void {
  try {
    for (const name of fs.readdirSync(os.tmpdir())) {
      const pid = Number(/^local-backend-bundle-(\d+)-/.exec(name)?.[1]);
      if (!pid || pid === process.pid) continue;
      try {
        process.kill(pid, 0);
      } catch {
        fs.rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
      }
    }
  } catch {
    // Best effort.
  }
}

export type EngineOptions = {
  functionsDir: string;
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
  ct: any;
  t: any;
  g: any;
  db: any;
  private bundle: Bundle | null = null;
  private moduleCache = new Map<string, Promise<any>>();
  private bundleRoot: string;
  private generation = 0;
  authConfig: any = null;
  private authConfigVersion = 0;
  lastCommitTs = 0n;
  /** Incremented on every commit that wrote something. */
  commitSeq = 0;
  private listeners: CommitListener[] = [];
  /**
   * Hot documents (contention.ts). The threshold (transactions per second
   * writing one document) comes from LOCAL_BACKEND_CONTENTION_THRESHOLD of the
   * backend's own environment; 0 turns it off.
   */
  readonly contention = new ContentionMonitor(
    // The backend's own log, not the log lines of the function that committed.
    (line) => logSink.exit(() => this.logError(line)),
    Number(process.env.LOCAL_BACKEND_CONTENTION_THRESHOLD ?? DEFAULT_CONTENTION_THRESHOLD),
  );
  /** The function whose transaction wrote first since the current top-level transaction began. */
  private writer: string | null = null;
  /** The app database's written documents before the commit being reported (set by its onCommit). */
  private previousValues: Map<string, any> | null = null;
  /** Results of client mutations by `${sessionId}:${requestId}`. */
  readonly mutationResults = new MutationResults();
  private accessors = new Map<string, any>();
  readonly crons: CronRunner;
  private pendingTimers = new Set<NodeJS.Timeout>();
  private closed = false;
  private readonly startedAt = Date.now();
  /** Spent upload token nonces, with their expiry. */
  private spentUploads = new Map<string, number>();
  /** File content (sha256) of each `_storage` document, and how many documents share each content. */
  private fileShas = new Map<string, string>();
  private shaRefs = new Map<string, number>();
  /** Worker threads that run actions (actionPool.ts), or null to run them on this thread. */
  private readonly actionPool: ActionPool | null;
  /** The installed components' databases (see componentStore.ts). */
  readonly components: ComponentStore = new ComponentStore({
    ct: null,
    g: null,
    loadModule: (modulePath, componentPath) => this.loadModule(modulePath, componentPath),
    onRead: (key) => readTracker.getStore()?.reads.addTable(key),
    onCommit: (ts, app, components) => {
      if (activeEngine === this) this.afterCommit(this.db, ts, app, components);
    },
  });

  constructor(opts: EngineOptions) {
    this.opts = opts;
    this.store = new DataStore(opts.dataDir);
    this.tables = new TableNumbers(this.store.dir);
    removeStaleBundles();
    this.bundleRoot = fs.mkdtempSync(path.join(os.tmpdir(), `local-backend-bundle-${process.pid}-`));
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
      mutationResults: this.mutationResults.size,
      documents: this.db.documentCount() + this.components.documentCount(),
      storage: this.store.storageStats(),
    };
  }

  onCommit(listener: CommitListener): void {
    this.listeners.push(listener);
  }

  /** Bundles, loads and restores. Throws (with a clear message) if it cannot start. */
  async init(options: { startBackground?: boolean } = {}): Promise<void> {
    await this.store.lock();
    setCurrentTableNumbers(this.tables);
    this.applyEnv(this.store.readEnv());
    this.ct = await loadConvexTest();
    installConsoleCapture();
    (globalThis as any).__localBackendSiteUrl = this.opts.siteUrl;
    const bundle = await this.buildBundle();
    const schema = bundle.schemaFile ? (await import(pathToFileURL(bundle.schemaFile).href)).default : undefined;
    const placeholderModules = { "./_generated/api.js": async () => ({}) };
    this.t = this.ct.convexTest({ schema, modules: placeholderModules, transactionLimits: true });
    let g: any = null;
    activeEngine = null; // the probe below commits nothing worth recording
    await this.t.run(async () => {
      g = this.ct.convexGlobalStorage.getStore();
    });
    this.g = g;
    // Per-table storage and ordered indexes instead of convex-test's one
    // object of all documents (see indexedDatabase.ts), swapped in between
    // transactions; convex-test finds the database through this object.
    const IndexedDatabase = indexedDatabaseClass(this.ct);
    this.db = new IndexedDatabase(schema ?? null, "");
    // What a subscription's query reads (sync.ts re-runs it when a commit touches that).
    this.db.onRead = (table: string) => readTracker.getStore()?.reads.addTable(table);
    this.db.onReadRange = (table: string, contains: (doc: ReadDoc) => boolean) =>
      readTracker.getStore()?.reads.addRange(table, contains);
    this.db.onReadId = (table: string, id: string) => readTracker.getStore()?.reads.addId(table, id);
    this.db.onCommit = (writes: Record<string, unknown>, commitTs: bigint, previous: Map<string, any>) => {
      // The written documents' values before this commit, for read-set invalidation (afterCommit).
      this.previousValues = previous;
      // Gathered with the components' writes of the same commit (componentStore.ts).
      if (this.components.collect("", writes)) return;
      // The DatabaseFake reports commits to the one active engine of this process.
      if (activeEngine === this) this.afterCommit(this.db, commitTs, writes);
    };
    // Which function writes, for the contention warnings.
    const addWrite = this.db._addWrite.bind(this.db);
    this.db._addWrite = (id: string, value: unknown) => {
      if (this.writer === null) this.writer = this.ct.executionContextStorage.getStore()?.udfPath ?? null;
      addWrite(id, value);
    };
    g.components[""].db = this.db;
    g.components[""].modules = (modulePath: string) => this.loadModule(modulePath);
    this.bundle = bundle;
    await this.components.install(bundle, this.ct, g);
    this.wrapSyscalls();
    this.gateTransactions();
    installUserTimeLimits(g);
    (globalThis as any).__localBackendBeforeCommit = (isNested: boolean) => activeEngine?.beforeCommit(isNested);
    (globalThis as any).__localBackendInvokeAction = (
      functionPath: { udfPath: string; componentPath: string },
      requestId: string,
      args: string,
    ) => activeEngine?.invokeActionInWorker(functionPath, requestId, args);
    const pool = this.actionPool;
    setActionThreadActivity(pool ? () => ({ running: pool.running, started: pool.started }) : null);
    (globalThis as any).__localBackendRunScheduledFunction = (job: any) =>
      activeEngine?.runJob(job.db, job.jobId, job.componentPath, job.functionPath.udfPath, job.args);
    await this.restore();
    this.schemaFingerprint = fingerprint(schema);
    // The segments were compacted under a schema (manifest.json): under the same
    // one, only documents the log brought since need checking; every write was
    // checked when it committed, and a new schema checks everything on reload.
    const sameSchema = this.store.validatedSchema === this.schemaFingerprint;
    const problems = this.validateData(this.db._schema, sameSchema ? this.store.changedKeys() : undefined);
    if (problems.length > 0) {
      throw new Error(`The schema in ${this.opts.functionsDir} rejects existing data:\n  ${problems.join("\n  ")}`);
    }
    // Everything passed under this schema: the next start need not check the segments again.
    if (!sameSchema) this.store.recordValidatedSchema(this.schemaFingerprint);
    this.compactAfterRestore();
    // The DatabaseFake hooks report commits to the one engine of this process.
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    activeEngine = this;
    await this.loadAuthConfig();
    if (options.startBackground !== false) {
      this.rescheduleRestoredJobs();
      await this.crons.reload();
    }
  }

  private async buildBundle(): Promise<Bundle> {
    const outDir = path.join(this.bundleRoot, `gen-${++this.generation}`);
    return await bundleFunctions(this.opts.functionsDir, outDir);
  }

  async loadModule(modulePath: string, componentPath = ""): Promise<any> {
    const key = modulePath.replace(/\.(js|ts|jsx|tsx|mjs|cjs)$/, "");
    const modules = componentPath ? this.bundle?.components.get(componentPath)?.modules : this.bundle?.modules;
    const file = modules?.get(key);
    if (!file) {
      const where = componentPath ? `component "${componentPath}"` : this.opts.functionsDir;
      throw new Error(`Could not find module "${key}" in ${where}`);
    }
    let mod = this.moduleCache.get(file);
    if (!mod) {
      mod = import(pathToFileURL(file).href);
      this.moduleCache.set(file, mod);
    }
    return await mod;
  }

  /** Module paths of the current bundle ("messages", "lib/x"). */
  moduleNames(): string[] {
    return [...(this.bundle?.modules.keys() ?? [])];
  }

  /** What kind of function a path names, or null if there is none. */
  async describe(udfPath: string): Promise<FunctionInfo | null> {
    const [mod, name] = canonicalPath(udfPath).split(":");
    if (!this.bundle?.modules.has(mod)) return null;
    let exports: any;
    try {
      exports = await this.loadModule(mod);
    } catch (error) {
      throw new Error(`Module "${mod}" failed to load: ${(error as Error).message ?? String(error)}`);
    }
    const fn = exports[name];
    if (!fn || (typeof fn !== "function" && typeof fn !== "object")) return null;
    const kind: FunctionKind | null = fn.isQuery ? "query" : fn.isMutation ? "mutation" : fn.isAction ? "action" : null;
    if (kind === null) return null;
    return { kind, visibility: fn.isPublic ? "public" : "internal" };
  }

  // --- running functions ---------------------------------------------------

  private accessor(caller: Caller): any {
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
    if (reads) return await readTracker.run({ reads, journal }, () => acc.queryFromPath(fp, args));
    return await readTracker.exit(() => acc.queryFromPath(fp, args));
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
    const value = await readTracker.exit(() => mutationTag.run(tag, () => acc.mutationFromPath(fp, args)));
    return { value, ts: tag.ts ?? this.lastCommitTs };
  }

  async action(udfPath: string, args: Record<string, unknown>, caller: Caller): Promise<unknown> {
    const fp = { udfPath: canonicalPath(udfPath), componentPath: "" };
    const acc = this.accessor(caller);
    return await readTracker.exit(() => mutationTag.exit(() => acc.actionFromPath(fp, args)));
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
    if (!this.bundle?.modules.has("http")) {
      return new Response(`No HttpAction routed for ${pathAndQuery.split("?")[0]}`, { status: 404 });
    }
    const acc = this.accessor(caller);
    return await readTracker.exit(() => mutationTag.exit(() => acc.fetch(pathAndQuery, init)));
  }

  // --- actions in worker threads (actionPool.ts) -------------------------------

  /**
   * Runs an action's code in a worker thread (called by convex-test where it
   * would call the action's `invokeAction`, inside the action's context:
   * identity, request, component, time limit, log lines). Returns undefined to
   * run it here instead (no pool, or an inline test handler).
   */
  invokeActionInWorker(
    functionPath: { udfPath: string; componentPath: string },
    requestId: string,
    args: string,
  ): Promise<string> | undefined {
    const pool = this.actionPool;
    if (!pool || this.closed || functionPath.udfPath === "inline") return undefined;
    const [mod, name] = canonicalPath(functionPath.udfPath).split(":");
    const modules = functionPath.componentPath
      ? this.bundle?.components.get(functionPath.componentPath)?.modules
      : this.bundle?.modules;
    const file = modules?.get(mod);
    if (!file) return undefined;
    // Everything the worker asks for is answered in this action's context.
    const inContext = AsyncResource.bind((fn: () => any) => fn());
    const host: ActionHost = {
      syscall: (kind, op, syscallArgs) => inContext(() => this.actionSyscall(kind, op, syscallArgs)),
      log: (method, line, printed) => inContext(() => emitFunctionLog(method, line, printed)),
    };
    const env = { ...((globalThis as any)[FUNCTION_ENV_GLOBAL] as Record<string, string>) };
    const { id, result } = pool.run({ file, name, requestId, args, env }, host);
    onActionExpired(() => pool.abandon(id));
    return result;
  }

  /**
   * One syscall of an action running in a worker thread, answered as convex-test
   * answers it for an action on this thread; the calls to other functions go
   * by their address (a name, a component reference or a function handle).
   */
  private async actionSyscall(kind: "async" | "js", op: string, args: any): Promise<unknown> {
    const convex = (globalThis as any).Convex;
    if (kind === "js") {
      if (op === "storage/storeBlob") {
        const { bytes, type, ...rest } = args;
        return await convex.jsSyscall(op, { ...rest, blob: new Blob([bytes], { type }) });
      }
      if (op === "storage/getBlob") {
        const blob: Blob | null = await convex.jsSyscall(op, args);
        return blob ? { bytes: await blob.arrayBuffer(), type: blob.type } : null;
      }
      return await convex.jsSyscall(op, args);
    }
    if (op === "1.0/getUserIdentity") {
      const identity = await this.ct.authStorage.getStore()?.getUserIdentity();
      return JSON.stringify(identity ?? null);
    }
    if (op === "1.0/actions/query" || op === "1.0/actions/mutation" || op === "1.0/actions/action") {
      const { name, reference, functionHandle, args: fnArgs } = JSON.parse(args);
      const functionPath = this.ct.getFunctionPathFromAddress({ name, reference, functionHandle });
      const acc = this.ct.withAuth();
      const value = jsonToConvex(fnArgs ?? {});
      const result =
        op === "1.0/actions/query"
          ? await acc.queryFromPath(functionPath, value)
          : op === "1.0/actions/mutation"
            ? await acc.mutationFromPath(functionPath, value)
            : await acc.actionFromPath(functionPath, value);
      return JSON.stringify(convexToJson(result === undefined ? null : result));
    }
    return await convex.asyncSyscall(op, args);
  }

  // --- one snapshot for all of a flush's queries ------------------------------

  /** Set while sync.ts re-runs subscriptions: other transactions wait to begin. */
  private commitHold: Promise<void> | null = null;

  /**
   * Top-level transactions (mutations, queries, scheduled functions, imports)
   * wait to begin while a snapshot read holds commits back, except the
   * snapshot's own queries (run with a read set, see query()).
   */
  private gateTransactions(): void {
    const tm = this.g.transactionManager;
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
      const tm = this.g.transactionManager;
      // Let a transaction already running finish (it may commit).
      while (tm._waitOnCurrentFunction) await tm._waitOnCurrentFunction;
      return await fn();
    } finally {
      this.commitHold = null;
      release();
    }
  }

  // --- commits ---------------------------------------------------------------

  /** Called synchronously from DatabaseFake.commit for top-level commits. */
  afterCommit(
    db: any,
    commitTs: bigint,
    writes: Record<string, unknown> | null,
    componentWrites: Map<string, Record<string, unknown>> = new Map(),
  ): void {
    if (commitTs > this.lastCommitTs) this.lastCommitTs = commitTs;
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
    const inComponents = this.components.committedWrites(componentWrites);
    if (ids.length === 0 && inComponents.length === 0) return;
    const w: [string, JsonDoc][] = ids.map((id) => {
      const doc = db.committed(id);
      return [id, doc ? (convexToJson(doc) as Record<string, unknown>) : null];
    });
    for (const entry of inComponents) w.push([componentDocKey(entry.path, entry.id), entry.doc]);
    // Durable before anyone hears of it: a crash after this line loses nothing acknowledged.
    this.store.append({ ts: commitTs.toString(), w, ...(m ? { m } : {}) });
    this.compactSoon();
    this.trackStorage(ids);
    if (m) this.mutationResults.set(`${m.s}:${m.r}`, { ts: commitTs, result: m.res });
    this.commitSeq++;
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
    this.contention.record(changes, writer ? canonicalPath(writer) : "an internal write");
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
        this.logError(`commit listener failed: ${String(error)}`);
      }
    }
  }

  /** Loads the data directory into the (empty) in-memory database. */
  private async restore(): Promise<void> {
    const state = this.store.load();
    const store = this.store;
    const db = this.db;
    let maxCreation = 0;
    let signedOut = 0;
    // Components' documents (few) are set aside for the component store.
    const componentDocs = new Map<string, Record<string, unknown>>();
    const files: [string, string, string][] = [];
    // Streamed from the segments one document at a time, each converted as it
    // is parsed: neither the whole JSON form nor both forms are held at once.
    function* converted(): Generator<[string, Record<string, any>]> {
      for (const [id, json] of state.docs) {
        // Sessions and refresh tokens with old (guessable) ids: deleted, on disk too.
        if (isRefusedLegacyId(id)) {
          signedOut++;
          store.markDirty(id);
          continue;
        }
        if (id.startsWith("@")) {
          componentDocs.set(id, json);
          continue;
        }
        const doc = fromJson(json);
        if (doc._creationTime > maxCreation) maxCreation = doc._creationTime;
        if (tableFromId(id) === "_storage") files.push([id, doc.sha256, doc.contentType ?? ""]);
        yield [id, doc];
      }
    }
    db.loadDocuments(converted());
    this.components.restore(componentDocs);
    // Files are Blobs backed by their bytes on disk: memory does not grow with them.
    for (const [id, sha, type] of files) {
      this.fileShas.set(id, sha);
      this.shaRefs.set(sha, (this.shaRefs.get(sha) ?? 0) + 1);
      const file = this.store.fileName(sha);
      if (fs.existsSync(file)) db._storage[id] = await fs.openAsBlob(file, { type });
      else this.logError(`stored file ${id} is missing its bytes in ${this.store.dir}/files`);
    }
    db._lastCreationTime = Math.max(db._lastCreationTime, maxCreation);
    const tm = this.g.transactionManager;
    if (state.lastTs > tm._lastCommitTs) tm._lastCommitTs = state.lastTs;
    this.lastCommitTs = tm._lastCommitTs;
    for (const [key, value] of state.mutations) this.mutationResults.set(key, value);
    if (signedOut > 0)
      this.log(`Deleted ${signedOut} sign-in sessions and refresh tokens with old ids: they sign in again.`);
    this.signedOutOnRestore = signedOut;
  }

  private signedOutOnRestore = 0;

  /** After a start's data check: compacts if the log is large, the directory old, or old-id rows were dropped. */
  private compactAfterRestore(): void {
    if (this.store.compactionDue() || this.signedOutOnRestore > 0) {
      const stats = this.compact();
      this.log(
        `Compacted the data log (${stats.kind}: ${stats.changed} documents changed, ${stats.docs} written, ` +
          `${(stats.bytes / 2 ** 20).toFixed(1)} MiB in ${stats.files} segments, ${stats.ms.toFixed(0)} ms).`,
      );
    }
  }

  /** Writes what changed since the last compaction into the data directory's segments and empties the log. */
  compact(): CompactionStats {
    return this.store.compact(
      {
        get: (key) => {
          if (key.startsWith("@")) return this.components.docJson(key);
          const doc = this.db.committed(key);
          return doc ? (convexToJson(doc) as Record<string, unknown>) : null;
        },
        all: () => this.allDocsJson(),
        count: () => this.db.documentCount() + this.components.documentCount(),
      },
      this.lastCommitTs,
      this.schemaFingerprint,
    );
  }

  /** Compacts soon (between transactions) once the log has grown past its threshold. */
  private compactSoon(): void {
    if (this.compactionScheduled || !this.store.compactionDue()) return;
    this.compactionScheduled = true;
    setImmediate(() => {
      this.compactionScheduled = false;
      if (this.closed || !this.store.compactionDue()) return;
      try {
        this.compact();
      } catch (error) {
        this.logError(`compaction failed (the log keeps everything): ${String(error)}`);
      }
    });
  }
  private compactionScheduled = false;
  /** The current schema's fingerprint (recorded by compaction: see init). */
  private schemaFingerprint = "";

  *allDocsJson(): Iterable<[string, JsonDoc]> {
    for (const [id, doc] of this.db.allDocuments() as Iterable<[string, any]>) {
      yield [id, convexToJson(doc) as Record<string, unknown>];
    }
    yield* this.components.allDocsJson();
  }

  /** Problems (document, table, message) the schema finds in existing data (or in the documents of `only`). */
  validateData(dbSchema: any, only?: Iterable<string>): string[] {
    if (!dbSchema || !dbSchema.schemaValidation) return [];
    const problems: string[] = [];
    const validate = this.ct.DatabaseFake.prototype._validate;
    const db = this.db;
    const docs: Iterable<[string, any]> = only
      ? (function* () {
          for (const id of only) {
            const doc = id.startsWith("@") ? null : db.committed(id);
            if (doc) yield [id, doc] as [string, any];
          }
        })()
      : db.allDocuments();
    for (const [id, doc] of docs) {
      const table = tableFromId(id);
      if (!table || table.startsWith("_")) continue;
      const { _id, _creationTime, ...fields } = doc;
      try {
        validate.call({ _schema: dbSchema }, table, fields);
      } catch (error) {
        problems.push(`table "${table}", document ${id}: ${(error as Error).message.split("\n").join(" ")}`);
        if (problems.length >= 10) break;
      }
    }
    return problems;
  }

  /** Pending scheduled functions from before a restart run on their own clock. */
  private rescheduleRestoredJobs(skip: Set<string> = new Set()): void {
    // The app's jobs, then each component's (in its own `_scheduled_functions`).
    for (const [componentPath, db] of [["", this.db], ...this.components.dbs] as [string, any][]) {
      for (const [id, doc] of [...db.tableDocuments("_scheduled_functions")] as [string, any][]) {
        if (skip.has(componentPath ? `@${componentPath}|${id}` : id)) continue;
        const kind = doc.state?.kind;
        if (kind === "inProgress") {
          // Only an action's job is ever committed as inProgress: it was running when
          // the backend stopped. Convex runs actions at most once and fails the job.
          void this.completeJob(db, id, componentPath, {
            kind: "failed",
            error: "Transient error while executing action",
          }).catch((error: unknown) => this.logError(`scheduled function ${doc.name}: ${String(error)}`));
          continue;
        }
        if (kind !== "pending") continue;
        this.scheduleJob(id, doc.name, doc.args?.[0] ?? {}, doc.scheduledTime, db, componentPath);
      }
    }
  }

  /** Sets a job's final state in a transaction of its own. */
  private async completeJob(
    db: any,
    jobId: string,
    componentPath: string,
    state: Record<string, unknown>,
  ): Promise<void> {
    await this.ct.convexGlobalStorage.run(this.g, () =>
      this.ct.withAuth().runInComponent(componentPath, async () => {
        const job = db.get("_scheduled_functions", jobId);
        if (job) db.patch("_scheduled_functions", jobId, { state, completedTime: Date.now() });
      }),
    );
  }

  /**
   * Runs a due job exactly once, as Convex's scheduled job executor does. A
   * mutation and its job's `success` commit in one transaction (one log entry),
   * so a crash leaves either both or neither; if it throws, nothing of it
   * commits and the job is marked failed. An action's job is committed
   * `inProgress` before it starts, so a crash while it runs fails it on restart
   * instead of running it again.
   */
  async runJob(db: any, jobId: string, componentPath: string, name: string, args: unknown): Promise<void> {
    const ct = this.ct;
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
        if (func.isMutation) {
          const job = db.get("_scheduled_functions", jobId);
          if (job?.state?.kind !== "pending") return;
          try {
            await scheduledMutation.run({ db, jobId, done: false }, () => ct.withAuth().fun(functionPath, args));
          } catch (error) {
            if (error === JOB_CANCELED) return;
            this.logError(`Error when running scheduled function ${name}: ${String(error)}`);
            await this.completeJob(db, jobId, componentPath, { kind: "failed", error: errorText(error) });
          }
          return;
        }
        const started = await ct.withAuth().runInComponent(componentPath, async () => {
          const job = db.get("_scheduled_functions", jobId);
          if (job?.state?.kind !== "pending") return false;
          db.patch("_scheduled_functions", jobId, { state: { kind: "inProgress" } });
          return true;
        });
        if (!started) return;
        let state: Record<string, unknown> = { kind: "success" };
        try {
          await ct.withAuth().fun(functionPath, args);
        } catch (error) {
          this.logError(`Error when running scheduled function ${name}: ${String(error)}`);
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
    const doc = job.db.get("_scheduled_functions", job.jobId);
    if (doc?.state?.kind !== "pending") throw JOB_CANCELED;
    job.db.patch("_scheduled_functions", job.jobId, { state: { kind: "success" }, completedTime: Date.now() });
  }

  private scheduleJob(
    jobId: string,
    name: string,
    args: unknown,
    scheduledTime: number,
    db: any = this.db,
    componentPath = "",
  ): void {
    const fire = () => {
      this.pendingTimers.delete(timer);
      if (this.closed) return;
      const delay = scheduledTime - Date.now();
      if (delay > 0) {
        timer = setTimeout(fire, Math.min(delay, 2 ** 31 - 1));
        this.pendingTimers.add(timer);
        return;
      }
      void this.ct.convexGlobalStorage
        .run(this.g, () => this.runJob(db, jobId, componentPath, name, args))
        .catch((error: unknown) => this.logError(`scheduled function ${name} failed: ${String(error)}`));
    };
    let timer = setTimeout(fire, Math.max(0, Math.min(scheduledTime - Date.now(), 2 ** 31 - 1)));
    this.pendingTimers.add(timer);
  }

  // --- storage -------------------------------------------------------------

  private wrapSyscalls(): void {
    const g = this.g;
    const asyncSyscall = g.asyncSyscall;
    const special = async (op: string, jsonArgs: string): Promise<string> => {
      if (op === "1.0/storageGetUrl") {
        const { storageId } = JSON.parse(jsonArgs);
        const doc = tableFromId(storageId) === "_storage" ? this.db.get("_storage", storageId) : null;
        return JSON.stringify(doc ? `${this.opts.apiUrl}/api/storage/${storageId}` : null);
      }
      if (op === "1.0/queryPage") return await this.queryPage(asyncSyscall, jsonArgs);
      if (op === "1.0/storageGetMetadata") {
        // The deprecated ctx.storage.getMetadata, which convex-test lacks.
        const { storageId } = JSON.parse(jsonArgs);
        const doc: any = tableFromId(storageId) === "_storage" ? this.db.get("_storage", storageId) : null;
        return JSON.stringify(
          doc ? { storageId, sha256: doc.sha256, size: doc.size, contentType: doc.contentType ?? null } : null,
        );
      }
      return JSON.stringify(`${this.opts.apiUrl}/api/storage/upload?token=${this.uploadToken()}`);
    };
    const SPECIAL = new Set([
      "1.0/storageGetUrl",
      "1.0/storageGetMetadata",
      "1.0/queryPage",
      "1.0/storageGenerateUploadUrl",
    ]);
    // Not async itself: one document read is one syscall, so no extra promise per read.
    g.asyncSyscall = (op: string, jsonArgs: string): Promise<string> => {
      if (op === "1.0/queryStreamNext") return Promise.resolve(this.queryStreamNext(jsonArgs));
      return SPECIAL.has(op) ? special(op, jsonArgs) : asyncSyscall(op, jsonArgs);
    };
    const jsSyscall = g.jsSyscall;
    g.jsSyscall = async (op: string, args: any) => {
      if (op === "storage/storeBlob") {
        // Bytes on disk before the _storage document can commit.
        const sha = this.store.writeFile(new Uint8Array(await args.blob.arrayBuffer()));
        const id = await jsSyscall(op, args);
        // Then served from disk like an upload, not kept in memory.
        if (this.db._storage[id]) {
          this.db._storage[id] = await fs.openAsBlob(this.store.fileName(sha), { type: args.blob.type ?? "" });
        }
        return id;
      }
      return await jsSyscall(op, args);
    };
  }

  /**
   * convex-test's "1.0/queryStreamNext", with each document's JSON and size
   * computed once per document version instead of on every read: documents are
   * immutable objects (a write replaces the object), so re-runs of a query
   * mostly hit the cache.
   */
  private queryStreamNext(jsonArgs: string): string {
    const { queryId } = JSON.parse(jsonArgs);
    const { value, done } = this.components.currentDb(this.db).queryNext(queryId);
    if (done || value === null) return JSON.stringify(convexToJson({ value, done }));
    let cached = docCache.get(value);
    if (!cached) {
      cached = { json: JSON.stringify(convexToJson(value)), size: getDocumentSize(value) };
      docCache.set(value, cached);
    }
    this.g.transactionManager.getMetricsTracker()?.trackRead(cached.size);
    return `{"value":${cached.json},"done":false}`;
  }

  /**
   * convex-test's paginate with an explicit end cursor stops at that cursor but
   * reports `_end_cursor` when the boundary row is gone; Convex reports the end
   * cursor itself. Subscriptions also pin their first page end here.
   */
  private async queryPage(asyncSyscall: (op: string, a: string) => Promise<string>, jsonArgs: string) {
    const journal = readTracker.getStore()?.journal;
    const args = JSON.parse(jsonArgs);
    // A cursor belongs to its query (cursors.ts): checked and untagged here, tagged on the way out.
    const fingerprint = queryFingerprint(args.query);
    args.cursor = unwrapCursor(args.cursor, fingerprint) ?? null;
    args.endCursor = unwrapCursor(args.endCursor, fingerprint);
    if (journal?.endCursor && (args.endCursor === null || args.endCursor === undefined)) {
      args.endCursor = journal.endCursor;
    }
    const result = JSON.parse(await asyncSyscall("1.0/queryPage", JSON.stringify(args)));
    if (typeof args.endCursor === "string") {
      result.continueCursor = args.endCursor;
      result.isDone = args.endCursor === "_end_cursor";
    }
    if (journal && !journal.endCursor) journal.endCursor = result.continueCursor;
    result.continueCursor = wrapCursor(result.continueCursor, fingerprint);
    result.splitCursor = wrapCursor(result.splitCursor ?? null, fingerprint);
    return JSON.stringify(result);
  }

  /**
   * An upload URL's token: `<expires>.<nonce>.<hmac>`. It lives 10 minutes
   * (Convex's live an hour; the app uploads right after asking) and is good for
   * one upload: the nonce is spent when an upload starts (see claimUploadToken).
   */
  uploadToken(): string {
    const expires = Date.now() + UPLOAD_URL_TTL_MS;
    const nonce = randomBytes(12).toString("base64url");
    return `${expires}.${nonce}.${this.uploadSignature(expires, nonce)}`;
  }

  private uploadSignature(expires: number, nonce: string): string {
    return createHmac("sha256", this.store.adminKey()).update(`upload:${expires}:${nonce}`).digest("base64url");
  }

  /**
   * Spends an upload token: true once for a valid, unexpired token issued by
   * this process (spent nonces are kept in memory, so tokens from before a
   * restart are refused rather than possibly reused).
   */
  claimUploadToken(token: string | null): boolean {
    if (!token) return false;
    const [expiresText, nonce, sig] = token.split(".");
    const expires = Number(expiresText);
    if (!nonce || !sig || !Number.isSafeInteger(expires)) return false;
    const now = Date.now();
    if (expires < now || expires - UPLOAD_URL_TTL_MS < this.startedAt) return false;
    const a = Buffer.from(sig);
    const b = Buffer.from(this.uploadSignature(expires, nonce));
    if (a.length !== b.length || !timingSafeEqual(a, b)) return false;
    if (this.spentUploads.has(nonce)) return false;
    if (this.spentUploads.size > 1000) {
      for (const [spent, until] of this.spentUploads) if (until < now) this.spentUploads.delete(spent);
    }
    this.spentUploads.set(nonce, expires);
    return true;
  }

  /**
   * Stores an upload streamed from `source` (at most `limit` bytes, else
   * UploadTooLarge and nothing is kept): the bytes go to disk as they arrive,
   * and the file is served from disk, never held in memory.
   */
  async storeUpload(
    source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
    contentType: string | null,
    limit: number,
  ): Promise<string> {
    const { sha, size } = await this.store.writeStream(source, limit);
    // Pinned: a concurrent delete of another file with these bytes must not remove them.
    this.shaRefs.set(sha, (this.shaRefs.get(sha) ?? 0) + 1);
    try {
      const blob = await fs.openAsBlob(this.store.fileName(sha), contentType ? { type: contentType } : {});
      const doc = { size, sha256: sha, ...(contentType ? { contentType } : {}) };
      const id: string = await readTracker.exit(() =>
        mutationTag.exit(() => this.t.run(async () => this.db.insert("_storage", doc))),
      );
      this.db.storeFile(id, blob);
      return id;
    } finally {
      this.releaseSha(sha);
    }
  }

  /** Stores bytes already in memory (tests, tools); returns the storage id. */
  async storeFile(bytes: Uint8Array, contentType: string | null): Promise<string> {
    return await this.storeUpload([bytes], contentType, Infinity);
  }

  private releaseSha(sha: string): void {
    const count = (this.shaRefs.get(sha) ?? 0) - 1;
    if (count > 0) {
      this.shaRefs.set(sha, count);
      return;
    }
    this.shaRefs.delete(sha);
    this.store.removeFile(sha);
  }

  /**
   * Keeps the count of `_storage` documents per file content; bytes nothing
   * refers to any more are removed from disk (after the commit is durable).
   */
  private trackStorage(ids: string[]): void {
    const dropped: string[] = [];
    for (const id of ids) {
      if (tableFromId(id) !== "_storage") continue;
      const doc = this.db.committed(id);
      const old = this.fileShas.get(id);
      if (doc && doc.sha256 !== old) {
        this.fileShas.set(id, doc.sha256);
        this.shaRefs.set(doc.sha256, (this.shaRefs.get(doc.sha256) ?? 0) + 1);
        if (old !== undefined) dropped.push(old);
      } else if (!doc && old !== undefined) {
        this.fileShas.delete(id);
        delete this.db._storage[id];
        dropped.push(old);
      }
    }
    for (const sha of dropped) this.releaseSha(sha);
  }

  /** A committed file and its content type, or null. */
  getFile(storageId: string): { blob: Blob; contentType: string | null } | null {
    if (tableFromId(storageId) !== "_storage") return null;
    const doc = this.db.committed(storageId);
    const blob = this.db._storage[storageId];
    if (!doc || !blob) return null;
    return { blob, contentType: doc.contentType ?? (blob.type || null) };
  }

  // --- env, auth config, reload ------------------------------------------------

  /**
   * The deployment's variables, which function code reads as `process.env`
   * (the bundler points it here); the backend's own process.env is untouched.
   */
  applyEnv(env: Record<string, string>): void {
    const g = globalThis as any;
    const target: Record<string, string> = (g[FUNCTION_ENV_GLOBAL] ??= {});
    for (const key of Object.keys(target)) delete target[key];
    Object.assign(target, env);
    target.CONVEX_CLOUD_URL ??= this.opts.apiUrl;
    target.CONVEX_SITE_URL ??= this.opts.siteUrl;
  }

  async reloadEnv(): Promise<void> {
    this.applyEnv(this.store.readEnv());
    await this.loadAuthConfig();
  }

  private async loadAuthConfig(): Promise<void> {
    const file = this.bundle?.authConfigFile;
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

  /**
   * Rebundles the functions folder and swaps it in, keeping the data. If the
   * build fails or the new schema rejects existing data, the old functions stay.
   */
  async reload(): Promise<boolean> {
    let bundle: Bundle;
    try {
      bundle = await this.buildBundle();
    } catch (error) {
      this.logError(`Reload failed, still serving the previous functions.\n${(error as Error).message}`);
      return false;
    }
    let schema: any;
    try {
      schema = bundle.schemaFile ? (await import(pathToFileURL(bundle.schemaFile).href)).default : undefined;
    } catch (error) {
      this.logError(`Reload failed: schema.ts threw: ${String(error)}. Still serving the previous functions.`);
      return false;
    }
    const dbSchema = schemaForDb(schema);
    let componentSchemas: Map<string, any>;
    try {
      componentSchemas = await this.components.loadSchemas(bundle);
    } catch (error) {
      this.logError(
        `Reload failed: a component's schema threw: ${String(error)}. Still serving the previous functions.`,
      );
      return false;
    }
    const problems = this.validateData(dbSchema);
    if (problems.length > 0) {
      this.logError(
        `Schema validation failed: the new schema rejects existing data; still serving the previous functions.\n  ${problems.join("\n  ")}`,
      );
      fs.rmSync(bundle.outDir, { recursive: true, force: true });
      return false;
    }
    // Swap between transactions.
    const tm = this.g.transactionManager;
    await this.ct.convexGlobalStorage.run(this.g, async () => {
      await tm.begin(false);
      try {
        const old = this.bundle;
        this.bundle = bundle;
        this.moduleCache.clear();
        this.db._schema = dbSchema;
        this.schemaFingerprint = fingerprint(schema);
        this.components.attach(bundle, componentSchemas, true);
        // Actions from now on run in fresh threads, which load the new bundle.
        this.actionPool?.recycle();
        if (old) setTimeout(() => fs.rmSync(old.outDir, { recursive: true, force: true }), 60_000).unref();
      } finally {
        tm.rollback(false);
      }
    });
    await this.loadAuthConfig();
    await this.crons.reload();
    this.log(`Reloaded functions from ${this.opts.functionsDir} (${bundle.modules.size} modules).`);
    return true;
  }

  // --- import/export -------------------------------------------------------------

  exportSnapshot(): unknown {
    const tables: Record<string, unknown[]> = {};
    const files: Record<string, { contentType: string | null; base64: string }> = {};
    for (const [id, doc] of this.allDocsJson()) {
      if (id.startsWith("@")) continue; // a component's (below)
      const table = tableFromId(id) ?? "unknown";
      (tables[table] ??= []).push(doc);
      if (table === "_storage" && doc) {
        const bytes = this.store.readFile(String(doc.sha256));
        if (bytes) files[id] = { contentType: (doc.contentType as string) ?? null, base64: bytes.toString("base64") };
      }
    }
    for (const docs of Object.values(tables)) docs.sort((a: any, b: any) => a._creationTime - b._creationTime);
    const components = this.components.exportTables();
    return {
      format: "stagetime-local-backend-snapshot",
      version: 1,
      ts: this.lastCommitTs.toString(),
      tableNumbers: this.tables.entries(),
      tables,
      files,
      ...(Object.keys(components).length > 0 ? { components } : {}),
    };
  }

  /** Replaces the whole database with a snapshot, as one commit. */
  async importSnapshot(snapshot: any): Promise<{ documents: number; files: number }> {
    if (!snapshot || typeof snapshot.tables !== "object") throw new Error("Not a snapshot: missing `tables`");
    // The ids inside name their tables by number: take the snapshot's numbers first.
    if (snapshot.tableNumbers && typeof snapshot.tableNumbers === "object") this.tables.adopt(snapshot.tableNumbers);
    const incoming = new Map<string, any>();
    for (const [table, docs] of Object.entries(snapshot.tables as Record<string, any[]>)) {
      for (const json of docs) {
        // Sessions and refresh tokens with old (guessable) ids are not imported: they sign in again.
        if (typeof json?._id === "string" && isRefusedLegacyId(json._id)) continue;
        if (typeof json?._id !== "string" || tableFromId(json._id) !== table) {
          throw new Error(`Snapshot table "${table}" holds a document whose _id does not belong to it: ${json?._id}`);
        }
        incoming.set(json._id, jsonToConvex(json));
      }
    }
    let fileCount = 0;
    for (const [id, file] of Object.entries((snapshot.files ?? {}) as Record<string, any>)) {
      const sha = this.store.writeFile(Buffer.from(file.base64, "base64"));
      const doc = incoming.get(id);
      if (doc) {
        this.db._storage[id] = await fs.openAsBlob(this.store.fileName(sha), { type: file.contentType ?? "" });
        fileCount++;
      }
    }
    const dbSchema = this.db._schema;
    const tm = this.g.transactionManager;
    // Jobs that already have a timer here; imported pending jobs get one after the commit.
    const scheduledBefore = new Set<string>(this.db.tableDocuments("_scheduled_functions").keys());
    for (const [componentPath, db] of this.components.dbs) {
      for (const id of db.tableDocuments("_scheduled_functions").keys()) scheduledBefore.add(`@${componentPath}|${id}`);
    }
    let componentDocs = 0;
    await readTracker.exit(() =>
      mutationTag.exit(() =>
        this.ct.convexGlobalStorage.run(this.g, async () => {
          await tm.begin(false);
          try {
            const existing = [...this.db.allDocuments()].map(([id]: [string, unknown]) => id);
            for (const id of existing) if (!incoming.has(id)) this.db._addWrite(id, null);
            for (const [id, doc] of incoming) this.db._addWrite(id, doc);
            componentDocs = this.components.importTables(snapshot.components);
            const problems = this.validateIncoming(dbSchema, incoming);
            if (problems.length > 0) throw new Error(`The schema rejects the snapshot:\n  ${problems.join("\n  ")}`);
          } catch (error) {
            tm.rollback(false);
            throw error;
          }
          tm.commit(false);
        }),
      ),
    );
    if (!this.closed) this.rescheduleRestoredJobs(scheduledBefore);
    return { documents: incoming.size + componentDocs, files: fileCount };
  }

  private validateIncoming(dbSchema: any, docs: Map<string, any>): string[] {
    if (!dbSchema || !dbSchema.schemaValidation) return [];
    const validate = this.ct.DatabaseFake.prototype._validate;
    const problems: string[] = [];
    for (const [id, doc] of docs) {
      const table = tableFromId(id);
      if (!table || table.startsWith("_")) continue;
      const { _id, _creationTime, ...fields } = doc;
      try {
        validate.call({ _schema: dbSchema }, table, fields);
      } catch (error) {
        problems.push(`table "${table}", document ${id}: ${(error as Error).message}`);
        if (problems.length >= 10) break;
      }
    }
    return problems;
  }

  /** Number of documents in user tables (seeding runs on an empty database). */
  isEmpty(): boolean {
    return this.db.documentCount() === 0;
  }

  close(): void {
    this.closed = true;
    this.crons.stop();
    this.actionPool?.close();
    for (const timer of this.pendingTimers) clearTimeout(timer);
    this.store.closeLog();
    this.store.unlock();
    if (activeEngine === this) activeEngine = null;
    fs.rmSync(this.bundleRoot, { recursive: true, force: true });
  }
}

/** What a schema checks documents against (its tables' validators and `schemaValidation`), hashed. */
function fingerprint(schema: any): string {
  const exported = typeof schema?.export === "function" ? String(schema.export()) : "no schema";
  return createHash("sha256").update(exported).digest("base64url");
}

/**
 * A stored document's Convex value. Convex JSON encodes only what JSON cannot
 * hold (bigints, bytes, special floats) as one-key objects whose key starts
 * with `$`, which field names never do: a document without `{"$` anywhere is
 * its own value, as JSON.parse gave it, with no second walk and copy.
 */
function fromJson(json: Record<string, unknown>): Record<string, any> {
  return hasEncodedValue(json) ? (jsonToConvex(json as any) as Record<string, any>) : json;
}

function hasEncodedValue(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (hasEncodedValue(item)) return true;
    return false;
  }
  for (const key in value) {
    if (key.charCodeAt(0) === 36 /* $ */) return true;
    if (hasEncodedValue((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}
