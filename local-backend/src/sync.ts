/**
 * The Convex sync protocol over WebSocket, as the `convex` browser client
 * speaks it (node_modules/convex/dist/esm/browser/sync/), and the shared query
 * subscriptions behind it.
 *
 * Subscriptions with the same function, arguments and identity share one
 * `Entry`, computed once per change. After each commit, entries whose read
 * tables were written are re-run, and each session gets a Transition holding
 * only the results whose serialized value changed.
 *
 * Its parts: syncSession.ts (a connection, its limits and queue),
 * syncMessages.ts (the client's messages), syncAuth.ts (Authenticate),
 * querySubscriptions.ts (the shared executions and their read sets) and
 * functionErrors.ts (how a failed function is reported). This module runs the
 * flushes: re-runs at one snapshot, then one Transition per session.
 */
import type { WebSocket } from "ws";
import type { TokenVerifier } from "./auth.js";
import type { Engine } from "./engine.js";
import { modificationTail, QueryEntries } from "./querySubscriptions.js";
import { dispatch, recheckFailedSubscriptions } from "./syncMessages.js";
import { encodeTs, MAX_MESSAGE_BYTES, Session } from "./syncSession.js";

export { describeError, describeErrorFully, setRedactErrors } from "./functionErrors.js";
export { setLogsToClients } from "./functionContext.js";
export {
  encodeTs,
  MAX_INFLIGHT_MESSAGES,
  MAX_MESSAGE_BYTES,
  MAX_QUEUED_BYTES_PER_CONNECTION,
  MAX_SUBSCRIPTIONS_PER_CONNECTION,
  Session,
} from "./syncSession.js";

const TRACE = process.env.LOCAL_BACKEND_TRACE === "1";

export class SyncManager {
  readonly sessions = new Set<Session>();
  /** The shared query executions (querySubscriptions.ts). */
  readonly queries: QueryEntries;
  /** Sessions with a query set or identity change for the next flush (syncMessages.ts, syncAuth.ts). */
  readonly pendingSessions = new Set<Session>();
  /** Resolved when the next flush to start has pushed its Transitions. */
  private flushWaiters: (() => void)[] = [];
  private processedTs: bigint;
  private kicked = false;
  private wake: (() => void) | null = null;
  private pingTimer: NodeJS.Timeout;
  private stopped = false;

  constructor(
    readonly engine: Engine,
    readonly verifier: TokenVerifier,
  ) {
    this.queries = new QueryEntries(engine);
    this.processedTs = engine.lastCommitTs;
    engine.onCommit((_tables, _ts, changes) => {
      this.queries.invalidate(changes);
      this.kick();
    });
    engine.reloadListeners.push(() => this.reloaded());
    // Convex clients reconnect when the server is silent for 60 s.
    this.pingTimer = setInterval(() => {
      for (const session of this.sessions) session.send({ type: "Ping" });
    }, 15_000);
    this.pingTimer.unref();
    void this.loop();
  }

  /** Live sessions, shared query executions with their references, results kept without one, and query runs so far. */
  stats(): { sessions: number; subscriptions: number; entries: number; cachedResults: number; queryRuns: number } {
    let subscriptions = 0;
    for (const session of this.sessions) subscriptions += session.queries.size;
    const { size: entries, cached: cachedResults, queryRuns } = this.queries;
    return { sessions: this.sessions.size, subscriptions, entries, cachedResults, queryRuns };
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.pingTimer);
    this.kick();
    for (const resolve of this.flushWaiters.splice(0)) resolve();
  }

  /** Resolves once a flush that starts after this call has pushed its Transitions. */
  requestFlush(): Promise<void> {
    return new Promise<void>((resolve) => {
      if (this.stopped) {
        resolve();
        return;
      }
      this.flushWaiters.push(resolve);
      this.kick();
    });
  }

  kick(): void {
    this.kicked = true;
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  /**
   * New functions were swapped in. On Convex a push changes the modules every
   * query's read set holds, so every subscription is re-evaluated with the
   * new code: here every live query is re-run, idle results are dropped, and
   * a subscription that failed because its function did not exist (or was
   * not a query) looks it up again.
   */
  private reloaded(): void {
    this.invalidateAll();
    for (const session of this.sessions) recheckFailedSubscriptions(this, session);
  }

  /** Every query result is stale (new functions or deployment variables): live ones re-run, idle ones go. */
  invalidateAll(): void {
    this.queries.invalidateAll();
    this.kick();
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
        await this.queries.computeDue(counted);
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
      dispatch(this, session, message, size);
    });
    ws.on("close", () => this.drop(session));
    ws.on("error", () => this.drop(session));
    return session;
  }

  drop(session: Session): void {
    if (session.expiryTimer) clearTimeout(session.expiryTimer);
    if (!this.sessions.delete(session)) return;
    session.closed = true;
    for (const sub of session.queries.values()) this.queries.release(sub.entry);
    session.queries.clear();
  }
}
