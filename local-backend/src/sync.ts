/**
 * The Convex sync protocol over WebSocket, as the `convex` browser client
 * speaks it (node_modules/convex/dist/esm/browser/sync/), and the shared query
 * subscriptions behind it.
 *
 * Subscriptions with the same function, arguments and identity share one
 * `Entry`, computed once per change. After each commit, entries whose read
 * tables were written are re-run, and each session gets a Transition holding
 * only the results whose serialized value changed.
 */
import { createHash, randomBytes } from "node:crypto";
import type { WebSocket } from "ws";
import { convexToJson, jsonToConvex } from "convex/values";
import { AuthError, EXPIRES, type TokenVerifier } from "./auth.js";
import type { Engine } from "./engine.js";
import { type Caller, canonicalPath, captureLogs, type Journal } from "./functionContext.js";
import { BULK_WRITE_THRESHOLD, ReadSet, type Change } from "./readSet.js";

const TRACE = process.env.LOCAL_BACKEND_TRACE === "1";

export const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;
/**
 * Messages (query set changes, authentications, mutations) a connection may
 * have waiting, and actions it may have running: Convex's sync worker allows
 * 1,000 pending operations per WebSocket (OPERATION_QUEUE_BUFFER_SIZE in
 * crates/sync/src/worker.rs) and fails the connection past that.
 */
export const MAX_INFLIGHT_MESSAGES = 1000;
/**
 * Queries one connection may subscribe to. Convex has no fixed number here
 * (its query sets are bounded by memory); a page needs tens, so 1,000 leaves
 * every real client room while one socket cannot pin unbounded work.
 */
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 1000;
/**
 * Bytes of messages a connection may have waiting (or actions running from):
 * with 1,000 messages of up to 8 MiB each one socket could otherwise hold
 * gigabytes. Past it the connection ends with a FatalError.
 */
export const MAX_QUEUED_BYTES_PER_CONNECTION = 32 * 1024 * 1024;
/** A UUID, as the official client's Connect carries (any version, either case). */
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function encodeTs(ts: bigint): string {
  const buf = Buffer.alloc(8);
  buf.writeBigUInt64LE(ts < 0n ? 0n : ts);
  return buf.toString("base64");
}

let redactErrors = false;

/**
 * Production mode (`start --prod`, issue 14 item 11): clients get
 * `[Request ID: …] Server Error` as a Convex production deployment sends
 * (crates/application/src/redaction.rs); a ConvexError's data still passes.
 * The full error is logged on the backend's console under the same request id.
 */
export function setRedactErrors(on: boolean): void {
  redactErrors = on;
}

/** errorMessage / errorData for a failed function, as Convex reports them. */
export function describeError(error: unknown): { message: string; data?: unknown } {
  const described = describeErrorFully(error);
  if (!redactErrors) return described;
  const requestId = randomBytes(8).toString("hex");
  console.error(`[Request ID: ${requestId}] ${described.message}`);
  const message = `[Request ID: ${requestId}] Server Error`;
  return described.data === undefined ? { message } : { message, data: described.data };
}

/** The unredacted description (the admin CLI's `run`). */
export function describeErrorFully(error: unknown): { message: string; data?: unknown } {
  if (typeof error === "object" && error !== null && Symbol.for("ConvexError") in error) {
    const e = error as { message: string; data?: unknown };
    let data: unknown = null;
    try {
      data = convexToJson((e.data ?? null) as any);
    } catch {
      data = String(e.data);
    }
    return { message: `Uncaught ConvexError: ${e.message}`, data };
  }
  if (error instanceof Error) return { message: `Uncaught ${error.name}: ${error.message}` };
  return { message: `Uncaught ${String(error)}` };
}

/**
 * Who calls which function, for mutation de-duplication: the identity's
 * `tokenIdentifier` (stable across token refreshes, so a retry after a
 * reconnect with a fresh JWT still matches) and the canonical function path,
 * hashed to keep the log small.
 */
function requestFingerprint(caller: Caller, udfPath: unknown): string {
  let who: string;
  if (caller.kind === "user") {
    const tokenIdentifier = caller.identity.tokenIdentifier;
    who = `user:${typeof tokenIdentifier === "string" ? tokenIdentifier : caller.key}`;
  } else who = caller.kind;
  const path = typeof udfPath === "string" ? canonicalPath(udfPath) : "";
  return createHash("sha256").update(`${who}\u0000${path}`).digest("base64url").slice(0, 22);
}

function parseJournal(journal: string | null): Journal {
  if (!journal) return {};
  try {
    const parsed = JSON.parse(journal);
    return typeof parsed?.endCursor === "string" ? { endCursor: parsed.endCursor } : {};
  } catch {
    return {};
  }
}

function journalString(journal: Journal): string | null {
  return journal.endCursor ? JSON.stringify({ endCursor: journal.endCursor }) : null;
}

/** `"type":...,"value":...}`: a modification without its leading query id. */
function modificationTail(entry: Entry): string {
  const r = entry.result!;
  const journal = journalString(entry.journal);
  const body = r.ok
    ? { type: "QueryUpdated", value: r.value, logLines: entry.logLines, journal }
    : {
        type: "QueryFailed",
        errorMessage: r.message,
        logLines: entry.logLines,
        journal,
        ...(r.data !== undefined ? { errorData: r.data } : {}),
      };
  return JSON.stringify(body).slice(1);
}

type QueryResult = { ok: true; value: unknown } | { ok: false; message: string; data?: unknown };

type Entry = {
  key: string;
  journal: Journal;
  udfPath: string;
  args: Record<string, unknown>;
  caller: Caller;
  /** What the last run read (null before the first run): commits that touch it re-run the entry. */
  reads: ReadSet | null;
  result: QueryResult | null;
  logLines: string[];
  serialized: string;
  /** The Transition modification for this version, minus the query id (built once, sent to every subscriber). */
  modTail: string;
  version: number;
  dirty: boolean;
  refs: number;
};

/**
 * One query of a session. `live` is false while the ModifyQuerySet or
 * Authenticate that made it waits for the flush computing it: its result goes
 * out with that flush's Transition, which also carries the new version.
 */
type Subscription = { entry: Entry; sentVersion: number; live: boolean };

export class Session {
  sessionId = "";
  querySetVersion = 0;
  identityVersion = 0;
  sentQuerySet = 0;
  sentIdentity = 0;
  sentTs = 0n;
  needTs = 0n;
  caller: Caller = { kind: "none" };
  queries = new Map<number, Subscription>();
  removed: number[] = [];
  /** A query set / identity change waiting for the next flush (see SyncManager.applyPending). */
  pendingQuerySet: number | null = null;
  pendingIdentity: number | null = null;
  pendingRemoved: number[] = [];
  mutationInFlight = false;
  expiryTimer: NodeJS.Timeout | null = null;
  deferredPush = false;
  closed = false;
  /** Messages waiting in (or running from) the queue, and actions running. */
  queued = 0;
  actionsInFlight = 0;
  /** Bytes of the messages waiting in the queue and of the actions running. */
  queuedBytes = 0;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    readonly ws: WebSocket,
    readonly sync: SyncManager,
  ) {}

  send(message: unknown): void {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    this.ws.send(JSON.stringify(message));
  }

  sendRaw(text: string): void {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    this.ws.send(text);
  }

  fatal(error: string): void {
    this.send({ type: "FatalError", error });
    this.closed = true;
    this.sync.drop(this);
    setTimeout(() => this.ws.close(1011, error.slice(0, 120)), 10).unref();
  }

  /**
   * Runs message handlers one after another, in arrival order. Once the
   * session is closed or dropped nothing queued runs any more (it would take
   * references no one releases).
   */
  enqueue(task: () => Promise<void>, bytes = 0): void {
    if (this.closed) return;
    if (this.queued >= MAX_INFLIGHT_MESSAGES) {
      this.fatal(`TooManyInflightMessages: more than ${MAX_INFLIGHT_MESSAGES} messages are waiting on this connection`);
      return;
    }
    if (!this.reserve(bytes)) return;
    this.queued++;
    this.queue = this.queue
      .then(() => (this.closed ? undefined : task()))
      .catch((error) => {
        this.sync.engine.logError(`sync session error: ${(error as Error).stack ?? String(error)}`);
        this.fatal(`Internal error: ${(error as Error).message}`);
      })
      .finally(() => {
        this.queued--;
        this.queuedBytes -= bytes;
      });
  }

  /** Counts `bytes` against the connection's budget; past it, ends the connection and returns false. */
  reserve(bytes: number): boolean {
    if (this.queuedBytes + bytes > MAX_QUEUED_BYTES_PER_CONNECTION) {
      this.fatal(
        `TooManyInflightBytes: more than ${MAX_QUEUED_BYTES_PER_CONNECTION} bytes of messages are waiting on this connection`,
      );
      return false;
    }
    this.queuedBytes += bytes;
    return true;
  }
}

export class SyncManager {
  private entries = new Map<string, Entry>();
  readonly sessions = new Set<Session>();
  /** Entries whose last read set touches each table (the candidates a write to it may invalidate). */
  private readers = new Map<string, Set<Entry>>();
  /** Sessions with a query set or identity change for the next flush. */
  private pendingSessions = new Set<Session>();
  /** Resolved when the next flush to start has pushed its Transitions. */
  private flushWaiters: (() => void)[] = [];
  private processedTs: bigint;
  private kicked = false;
  private wake: (() => void) | null = null;
  private pingTimer: NodeJS.Timeout;
  private stopped = false;

  constructor(
    readonly engine: Engine,
    private readonly verifier: TokenVerifier,
  ) {
    this.processedTs = engine.lastCommitTs;
    engine.onCommit((_tables, _ts, changes) => {
      this.invalidate(changes);
      this.kick();
    });
    // Convex clients reconnect when the server is silent for 60 s.
    this.pingTimer = setInterval(() => {
      for (const session of this.sessions) session.send({ type: "Ping" });
    }, 15_000);
    this.pingTimer.unref();
    void this.loop();
  }

  /** Query executions since start (first runs and re-runs), for tests and benchmarks. */
  queryRuns = 0;

  /** Live sessions, shared query executions with their references, and query runs so far. */
  stats(): { sessions: number; subscriptions: number; entries: number; queryRuns: number } {
    let subscriptions = 0;
    for (const session of this.sessions) subscriptions += session.queries.size;
    return { sessions: this.sessions.size, subscriptions, entries: this.entries.size, queryRuns: this.queryRuns };
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.pingTimer);
    this.kick();
    for (const resolve of this.flushWaiters.splice(0)) resolve();
  }

  /** Marks dirty every entry whose read set one of the commit's writes intersects. */
  private invalidate(changes: Change[]): void {
    const byTable = new Map<string, Change[]>();
    for (const change of changes) {
      let list = byTable.get(change.table);
      if (!list) byTable.set(change.table, (list = []));
      list.push(change);
    }
    for (const [table, list] of byTable) {
      const readers = this.readers.get(table);
      if (!readers) continue;
      for (const entry of readers) {
        if (entry.dirty) continue;
        if (list.length > BULK_WRITE_THRESHOLD || entry.reads === null) {
          entry.dirty = true;
          continue;
        }
        for (const change of list) {
          let hit: boolean;
          try {
            hit = entry.reads.intersects(change);
          } catch {
            hit = true;
          }
          if (hit) {
            entry.dirty = true;
            break;
          }
        }
      }
    }
  }

  /** Points the per-table reader index at an entry's new read set. */
  private setReads(entry: Entry, reads: ReadSet | null): void {
    if (entry.reads) {
      for (const table of entry.reads.touchedTables()) this.readers.get(table)?.delete(entry);
    }
    entry.reads = reads;
    if (reads && entry.refs > 0) {
      for (const table of reads.touchedTables()) {
        let set = this.readers.get(table);
        if (!set) this.readers.set(table, (set = new Set()));
        set.add(entry);
      }
    }
  }

  /** Resolves once a flush that starts after this call has pushed its Transitions. */
  private requestFlush(): Promise<void> {
    return new Promise<void>((resolve) => {
      if (this.stopped) {
        resolve();
        return;
      }
      this.flushWaiters.push(resolve);
      this.kick();
    });
  }

  private kick(): void {
    this.kicked = true;
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  /** Started once from a clean async context, so re-runs never inherit a function's context. */
  private async loop(): Promise<void> {
    while (!this.stopped) {
      if (!this.kicked) await new Promise<void>((resolve) => (this.wake = resolve));
      this.kicked = false;
      if (this.stopped) return;
      try {
        await this.flush();
      } catch (error) {
        this.engine.logError(`re-running subscriptions failed: ${(error as Error).stack ?? String(error)}`);
      }
    }
  }

  /**
   * Re-runs dirty entries and computes new ones, all at one snapshot (commits
   * wait meanwhile, see Engine.runSnapshot), then applies waiting query set
   * and identity changes and sends each session one Transition whose
   * endVersion.ts is that snapshot's timestamp.
   */
  private async flush(): Promise<void> {
    const started = TRACE ? performance.now() : 0;
    const waiters = this.flushWaiters;
    this.flushWaiters = [];
    const ready = [...this.pendingSessions];
    this.pendingSessions.clear();
    let reran = 0;
    try {
      await this.runQueries(() => reran++);
    } finally {
      const computed = TRACE ? performance.now() : 0;
      for (const session of ready) this.applyPending(session);
      for (const session of this.sessions) this.push(session);
      for (const resolve of waiters) resolve();
      if (TRACE) {
        const done = performance.now();
        this.engine.log(
          `[trace] flush: re-ran ${reran} queries in ${(computed - started).toFixed(1)} ms, pushed to ${this.sessions.size} sessions in ${(done - computed).toFixed(1)} ms`,
        );
      }
    }
  }

  /** Computes every new or dirty entry inside one snapshot. */
  private async runQueries(counted: () => void): Promise<void> {
    await this.engine.runSnapshot(async () => {
      for (;;) {
        const seq = this.engine.commitSeq;
        for (const entry of [...this.entries.values()]) {
          if (entry.refs > 0 && (entry.dirty || entry.result === null)) {
            await this.compute(entry);
            counted();
          }
        }
        // A transaction that was already waiting when the hold began committed:
        // what it touched is dirty again; run it at the newer state.
        if (this.engine.commitSeq === seq) break;
      }
      const ts = this.engine.lastCommitTs;
      if (ts > this.processedTs) this.processedTs = ts;
    });
  }

  /** A session's query set / identity change becomes visible once its queries are computed. */
  private applyPending(session: Session): void {
    if (session.pendingQuerySet !== null) {
      session.querySetVersion = session.pendingQuerySet;
      session.pendingQuerySet = null;
    }
    if (session.pendingIdentity !== null) {
      session.identityVersion = session.pendingIdentity;
      session.pendingIdentity = null;
    }
    if (session.pendingRemoved.length > 0) {
      session.removed.push(...session.pendingRemoved);
      session.pendingRemoved = [];
    }
    for (const sub of session.queries.values()) sub.live = true;
  }

  /** Runs an entry's query at the current state (only from flush, inside its snapshot). */
  private async compute(entry: Entry): Promise<void> {
    entry.dirty = false;
    this.queryRuns++;
    const reads = new ReadSet();
    const logLines: string[] = [];
    let result: QueryResult;
    try {
      const value = await captureLogs(logLines, () =>
        this.engine.query(entry.udfPath, entry.args, entry.caller, reads, entry.journal),
      );
      result = { ok: true, value: convexToJson((value ?? null) as any) };
    } catch (error) {
      const { message, data } = describeError(error);
      result = data === undefined ? { ok: false, message } : { ok: false, message, data };
    }
    this.setReads(entry, reads);
    const serialized = JSON.stringify(result);
    if (serialized !== entry.serialized) {
      entry.serialized = serialized;
      entry.result = result;
      entry.logLines = logLines;
      entry.modTail = "";
      entry.version++;
    }
  }

  private acquire(
    udfPath: string,
    args: Record<string, unknown>,
    caller: Caller,
    journal: string | null = null,
  ): Entry {
    const callerKey = caller.kind === "user" ? `user:${caller.key}` : caller.kind;
    const key = `${udfPath}\u0000${JSON.stringify(convexToJson(args as any))}\u0000${callerKey}\u0000${journal ?? ""}`;
    let entry = this.entries.get(key);
    if (!entry) {
      entry = {
        key,
        journal: parseJournal(journal),
        udfPath,
        args,
        caller,
        reads: null,
        result: null,
        logLines: [],
        serialized: "",
        modTail: "",
        version: 0,
        dirty: false,
        refs: 0,
      };
      this.entries.set(key, entry);
    }
    entry.refs++;
    return entry;
  }

  private release(entry: Entry): void {
    entry.refs--;
    if (entry.refs <= 0) {
      if (this.entries.get(entry.key) === entry) this.entries.delete(entry.key);
      this.setReads(entry, null);
    }
  }

  /** Sends a session what changed since its last Transition, if anything. */
  push(session: Session): void {
    if (session.closed) return;
    if (session.mutationInFlight) {
      // Its MutationResponse must go out before a Transition past its timestamp.
      session.deferredPush = true;
      return;
    }
    // Modifications are pre-serialized JSON: an entry's value is stringified once, not per subscriber.
    const modifications: string[] = session.removed.map((queryId) => JSON.stringify({ type: "QueryRemoved", queryId }));
    session.removed = [];
    for (const [queryId, sub] of session.queries) {
      const { entry } = sub;
      if (!sub.live || entry.result === null || sub.sentVersion === entry.version) continue;
      sub.sentVersion = entry.version;
      if (entry.modTail === "") entry.modTail = modificationTail(entry);
      modifications.push(`{"queryId":${queryId},${entry.modTail}`);
    }
    const endTs = this.processedTs > session.sentTs ? this.processedTs : session.sentTs;
    const versionChanged =
      session.querySetVersion !== session.sentQuerySet || session.identityVersion !== session.sentIdentity;
    const tsNeeded = session.needTs > session.sentTs && endTs >= session.needTs;
    if (modifications.length === 0 && !versionChanged && !tsNeeded) return;
    const now = Date.now();
    const head = JSON.stringify({
      type: "Transition",
      startVersion: { querySet: session.sentQuerySet, identity: session.sentIdentity, ts: encodeTs(session.sentTs) },
      endVersion: { querySet: session.querySetVersion, identity: session.identityVersion, ts: encodeTs(endTs) },
      clientClockSkew: 0,
      serverTs: now * 1e6,
    });
    session.sendRaw(`${head.slice(0, -1)},"modifications":[${modifications.join(",")}]}`);
    session.sentQuerySet = session.querySetVersion;
    session.sentIdentity = session.identityVersion;
    session.sentTs = endTs;
  }

  attach(ws: WebSocket): Session {
    const session = new Session(ws, this);
    this.sessions.add(session);
    ws.on("message", (data: Buffer, isBinary: boolean) => {
      if (session.closed) return;
      const size = Array.isArray(data)
        ? (data as Buffer[]).reduce((n: number, b: Buffer) => n + b.length, 0)
        : (data as Buffer).length;
      if (size > MAX_MESSAGE_BYTES) {
        session.fatal(`Message of ${size} bytes exceeds the ${MAX_MESSAGE_BYTES}-byte limit`);
        return;
      }
      let message: any;
      try {
        if (isBinary) throw new Error("binary frame");
        message = JSON.parse(data.toString("utf8"));
        if (typeof message !== "object" || message === null || typeof message.type !== "string") {
          throw new Error("not a message object");
        }
      } catch (error) {
        session.fatal(`Malformed message: ${(error as Error).message}`);
        return;
      }
      this.dispatch(session, message, size);
    });
    ws.on("close", () => this.drop(session));
    ws.on("error", () => this.drop(session));
    return session;
  }

  drop(session: Session): void {
    if (session.expiryTimer) clearTimeout(session.expiryTimer);
    if (!this.sessions.delete(session)) return;
    session.closed = true;
    for (const sub of session.queries.values()) this.release(sub.entry);
    session.queries.clear();
  }

  private dispatch(session: Session, message: any, size: number): void {
    switch (message.type) {
      case "Connect":
        // The official client always sends a random UUID (convex-js
        // src/browser/sync/session.ts); the id goes into every kept mutation
        // result, so anything else is refused rather than stored.
        if (typeof message.sessionId !== "string" || !SESSION_ID.test(message.sessionId)) {
          session.fatal("Invalid Connect: sessionId must be a UUID");
          return;
        }
        session.sessionId = message.sessionId;
        return;
      case "ModifyQuerySet":
        session.enqueue(() => this.modifyQuerySet(session, message), size);
        return;
      case "Authenticate":
        session.enqueue(() => this.authenticate(session, message), size);
        return;
      case "Mutation":
        session.enqueue(() => this.mutation(session, message), size);
        return;
      case "Action":
        // Actions run concurrently; they do not hold up the session's queue.
        // A running action holds its message: it counts against the budget until it ends.
        if (!session.reserve(size)) return;
        session.enqueue(async () => {
          if (session.actionsInFlight >= MAX_INFLIGHT_MESSAGES) {
            session.queuedBytes -= size;
            session.fatal(
              `TooManyInflightActionsForSingleClient: more than ${MAX_INFLIGHT_MESSAGES} actions are running on this connection`,
            );
            return;
          }
          session.actionsInFlight++;
          void this.action(session, message).finally(() => {
            session.actionsInFlight--;
            session.queuedBytes -= size;
          });
        });
        return;
      case "Event":
        return;
      default:
        session.fatal(`Unknown message type "${String(message.type).slice(0, 100)}"`);
    }
  }

  private async checkFunction(
    udfPath: unknown,
    kind: "query" | "mutation" | "action",
    caller: Caller,
  ): Promise<string> {
    if (typeof udfPath !== "string" || udfPath.length === 0) throw new Error("Missing udfPath");
    const path = canonicalPath(udfPath);
    const info = await this.engine.describe(path);
    if (!info || (info.visibility !== "public" && caller.kind !== "admin")) {
      throw new Error(`Could not find public function for '${path}'. Did you forget to run \`npx convex dev\`?`);
    }
    if (info.kind !== kind) {
      throw new Error(
        `Trying to execute ${path} as ${kind === "query" ? "Query" : kind === "mutation" ? "Mutation" : "Action"}, but it is defined as ${info.kind === "query" ? "Query" : info.kind === "mutation" ? "Mutation" : "Action"}.`,
      );
    }
    return path;
  }

  private async modifyQuerySet(session: Session, message: any): Promise<void> {
    if (
      message.baseVersion !== (session.pendingQuerySet ?? session.querySetVersion) ||
      typeof message.newVersion !== "number"
    ) {
      session.fatal(`Invalid ModifyQuerySet: base version ${message.baseVersion}, expected ${session.querySetVersion}`);
      return;
    }
    if (!Array.isArray(message.modifications)) {
      session.fatal("Invalid ModifyQuerySet: modifications must be an array");
      return;
    }
    for (const mod of message.modifications) {
      if (mod?.type === "Add" && typeof mod.queryId === "number") {
        const old = session.queries.get(mod.queryId);
        if (old) {
          this.release(old.entry);
          session.queries.delete(mod.queryId);
        }
        const sub = await this.subscribe(session, mod.udfPath, mod.args, mod.journal);
        if (session.closed) {
          // Dropped while this message ran: drop() already released the rest.
          this.release(sub.entry);
          return;
        }
        session.queries.set(mod.queryId, sub);
        if (session.queries.size > MAX_SUBSCRIPTIONS_PER_CONNECTION) {
          session.fatal(
            `TooManySubscriptions: a connection may subscribe to at most ${MAX_SUBSCRIPTIONS_PER_CONNECTION} queries`,
          );
          return;
        }
        session.removed = session.removed.filter((id) => id !== mod.queryId);
        session.pendingRemoved = session.pendingRemoved.filter((id) => id !== mod.queryId);
      } else if (mod?.type === "Remove" && typeof mod.queryId === "number") {
        const old = session.queries.get(mod.queryId);
        if (old) {
          this.release(old.entry);
          session.queries.delete(mod.queryId);
          session.pendingRemoved.push(mod.queryId);
        }
      } else {
        session.fatal(`Invalid query set modification: ${JSON.stringify(mod)?.slice(0, 200)}`);
        return;
      }
    }
    // New queries are computed by the next flush, at the same snapshot as every
    // other query, and go out in its Transition with the new query set version.
    session.pendingQuerySet = message.newVersion;
    this.pendingSessions.add(session);
    await this.requestFlush();
  }

  /** A subscription to an entry; bad paths or args give a failing entry of their own. */
  private async subscribe(
    session: Session,
    udfPath: unknown,
    rawArgs: unknown,
    journal: unknown,
  ): Promise<Subscription> {
    let path: string;
    let args: Record<string, unknown>;
    try {
      path = await this.checkFunction(udfPath, "query", session.caller);
      const first = Array.isArray(rawArgs) ? rawArgs[0] : rawArgs;
      args = (first === undefined ? {} : jsonToConvex(first as any)) as Record<string, unknown>;
    } catch (error) {
      const entry: Entry = {
        key: `invalid:${Math.random()}`,
        journal: {},
        udfPath: String(udfPath),
        args: {},
        caller: session.caller,
        reads: null,
        result: { ok: false, message: (error as Error).message },
        logLines: [],
        serialized: "",
        modTail: "",
        version: 1,
        dirty: false,
        refs: 1,
      };
      return { entry, sentVersion: 0, live: false };
    }
    return {
      entry: this.acquire(path, args, session.caller, typeof journal === "string" ? journal : null),
      sentVersion: 0,
      live: false,
    };
  }

  private async authenticate(session: Session, message: any): Promise<void> {
    if (message.baseVersion !== (session.pendingIdentity ?? session.identityVersion)) {
      session.fatal(`Invalid Authenticate: base version ${message.baseVersion}, expected ${session.identityVersion}`);
      return;
    }
    let caller: Caller;
    try {
      if (message.tokenType === "None") {
        caller = { kind: "none" };
      } else if (message.tokenType === "User" && typeof message.value === "string") {
        const identity = await this.verifier.verify(message.value);
        if (session.closed) return;
        caller = { kind: "user", identity, key: JSON.stringify(identity) };
      } else if (message.tokenType === "Admin" && typeof message.value === "string") {
        if (message.value !== this.engine.store.adminKey()) throw new AuthError("Invalid admin key");
        caller = message.impersonating
          ? {
              kind: "user",
              identity: { ...message.impersonating },
              key: JSON.stringify(message.impersonating),
            }
          : { kind: "admin" };
      } else {
        session.fatal(`Invalid Authenticate message`);
        return;
      }
    } catch (error) {
      const reason = error instanceof AuthError ? error.message : `Authentication failed: ${String(error)}`;
      session.send({ type: "AuthError", error: reason, baseVersion: message.baseVersion, authUpdateAttempted: true });
      // Like Convex, the connection ends; the client reconnects with a fresh token or none.
      session.closed = true;
      this.drop(session);
      setTimeout(() => session.ws.close(1000, "AuthError"), 10).unref();
      return;
    }
    session.caller = caller;
    const identityVersion = message.baseVersion + 1;
    if (session.expiryTimer) clearTimeout(session.expiryTimer);
    session.expiryTimer = null;
    const expires = caller.kind === "user" ? (caller.identity as any)[EXPIRES] : undefined;
    if (typeof expires === "number") {
      const version = identityVersion;
      // Like Convex: when the token runs out, the client is told and fetches a new one.
      session.expiryTimer = setTimeout(
        () => {
          if (session.closed || (session.pendingIdentity ?? session.identityVersion) !== version) return;
          session.send({
            type: "AuthError",
            error: "Token expired",
            baseVersion: version - 1,
            authUpdateAttempted: false,
          });
          this.drop(session);
          setTimeout(() => session.ws.close(1000, "AuthError"), 10).unref();
        },
        Math.min(Math.max(0, expires * 1000 - Date.now()), 2 ** 31 - 1),
      );
      session.expiryTimer.unref();
    }
    // Every query now runs as the new identity; the next flush computes them and
    // sends them with the new identity version.
    for (const [queryId, sub] of session.queries) {
      if (sub.entry.key.startsWith("invalid:")) continue;
      const next: Subscription = {
        entry: this.acquire(sub.entry.udfPath, sub.entry.args, caller, journalString(sub.entry.journal)),
        sentVersion: 0,
        live: false,
      };
      this.release(sub.entry);
      session.queries.set(queryId, next);
    }
    session.pendingIdentity = identityVersion;
    this.pendingSessions.add(session);
    await this.requestFlush();
  }

  private async mutation(session: Session, message: any): Promise<void> {
    const requestId = message.requestId;
    if (typeof requestId !== "number") {
      session.fatal("Mutation without a numeric requestId");
      return;
    }
    // A retry must come from the same session, identity and function: a request
    // id replayed on another identity (or for another function) never returns
    // someone else's result.
    const dedupeSession = session.sessionId
      ? `${session.sessionId}|${requestFingerprint(session.caller, message.udfPath)}`
      : "";
    const dedupeKey = `${dedupeSession}:${requestId}`;
    const previous = dedupeSession ? this.engine.mutationResults.get(dedupeKey) : undefined;
    if (previous) {
      // A retry after a reconnect: it already committed, answer with its first result.
      session.send({
        type: "MutationResponse",
        requestId,
        success: true,
        result: previous.result,
        ts: encodeTs(previous.ts),
        logLines: [],
      });
      if (previous.ts > session.needTs) session.needTs = previous.ts;
      this.push(session);
      return;
    }
    session.mutationInFlight = true;
    const logLines: string[] = [];
    try {
      const path = await this.checkFunction(message.udfPath, "mutation", session.caller);
      const args = jsonToConvex((Array.isArray(message.args) ? message.args[0] : message.args) ?? {}) as Record<
        string,
        unknown
      >;
      const { value, ts } = await captureLogs(logLines, () =>
        this.engine.mutation(path, args, session.caller, { sessionId: dedupeSession, requestId }),
      );
      session.send({
        type: "MutationResponse",
        requestId,
        success: true,
        result: convexToJson((value ?? null) as any),
        ts: encodeTs(ts),
        logLines,
      });
      if (ts > session.needTs) session.needTs = ts;
    } catch (error) {
      const { message: errorMessage, data } = describeError(error);
      session.send({
        type: "MutationResponse",
        requestId,
        success: false,
        result: errorMessage,
        logLines,
        ...(data !== undefined ? { errorData: data } : {}),
      });
    } finally {
      session.mutationInFlight = false;
    }
    // The Transition carrying this timestamp follows once re-runs are done;
    // if nothing needs re-running, push now.
    this.kick();
    if (session.deferredPush) {
      session.deferredPush = false;
      this.push(session);
    }
  }

  private async action(session: Session, message: any): Promise<void> {
    const requestId = message.requestId;
    const logLines: string[] = [];
    try {
      const path = await this.checkFunction(message.udfPath, "action", session.caller);
      const args = jsonToConvex((Array.isArray(message.args) ? message.args[0] : message.args) ?? {}) as Record<
        string,
        unknown
      >;
      const value = await captureLogs(logLines, () => this.engine.action(path, args, session.caller));
      session.send({
        type: "ActionResponse",
        requestId,
        success: true,
        result: convexToJson((value ?? null) as any),
        logLines,
      });
    } catch (error) {
      const { message: errorMessage, data } = describeError(error);
      session.send({
        type: "ActionResponse",
        requestId,
        success: false,
        result: errorMessage,
        logLines,
        ...(data !== undefined ? { errorData: data } : {}),
      });
    }
  }
}
