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
import type { TokenVerifier } from "../auth/index.js";
import type { Engine } from "../engine/index.js";
import { knob } from "../common/index.js";
import { type Entry, modificationTail, QueryEntries } from "./querySubscriptions.js";
import { dispatch, recheckFailedSubscriptions } from "./syncMessages.js";
import {
  ADDRESS_BUDGET_FACTOR,
  type ClientMessage,
  encodeTs,
  MAX_MESSAGE_BYTES,
  RERUN_BUDGET_MS,
  RERUN_MS_PER_SECOND,
  Session,
  WorkBudget,
} from "./syncSession.js";

export { describeError, describeErrorFully, setRedactErrors } from "../runtime/index.js";
export { setLogsToClients } from "../runtime/index.js";
export {
  encodeTs,
  MAX_INFLIGHT_MESSAGES,
  MAX_MESSAGE_BYTES,
  MAX_QUEUED_BYTES_PER_CONNECTION,
  MAX_SUBSCRIPTIONS_PER_CONNECTION,
  Session,
} from "./syncSession.js";

const TRACE = process.env.LOCAL_BACKEND_TRACE === "1";
/**
 * A flush re-runs queries in slices of at most this long, each at one snapshot; between slices
 * waiting transactions begin and commit, and what they touch is re-run in a later slice, so
 * re-runs do not hold back new transactions for longer than a slice. A flush that has not settled
 * after SLICED_FLUSH_MS (writes keep landing) finishes under one hold, as a Transition needs one
 * snapshot.
 */
const SLICE_MS = knob("LOCAL_BACKEND_FLUSH_SLICE_MS", 20);
const SLICED_FLUSH_MS = knob("LOCAL_BACKEND_SLICED_FLUSH_MS", 2000);
/** How soon a flush runs again while sessions wait (behind, or a query of theirs still due). */
const DEFERRED_RETRY_MS = 100;

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
  /** The connections from each address and the query time they share (see RERUN_BUDGET_MS). */
  private addresses = new Map<string, { sessions: Set<Session>; budget: WorkBudget }>();
  private retryTimer: NodeJS.Timeout | null = null;
  /** Transitions composed by the flush under way, sent once the data log holds what they show. */
  private outgoing: Map<Session, string[]> | null = null;

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

  /** Different query executions the connections from `address` hold together. */
  distinctQueriesFrom(address: string): number {
    const entries = new Set<unknown>();
    for (const session of this.addresses.get(address)?.sessions ?? []) session.distinctQueries(entries);
    return entries.size;
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.pingTimer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
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
    // The Transitions go out once the commits they show are on disk (the data log fsyncs in
    // groups); commits landing meanwhile are re-run together by the next flush.
    const outgoing = new Map<Session, string[]>();
    this.outgoing = outgoing;
    let reran = 0;
    try {
      await this.runQueries(() => reran++);
    } finally {
      const computed = TRACE ? performance.now() : 0;
      for (const session of [...this.sessions]) {
        if (session.overBudget !== null) session.fatal(session.overBudget);
      }
      for (const session of ready) this.applyPending(session);
      let deferred = false;
      for (const session of this.sessions) if (!this.push(session)) deferred = true;
      if (deferred && !this.retryTimer && !this.stopped) {
        this.retryTimer = setTimeout(() => {
          this.retryTimer = null;
          this.kick();
        }, DEFERRED_RETRY_MS);
        this.retryTimer.unref();
      }
      await this.sendWhenDurable(outgoing);
      for (const resolve of waiters) resolve();
      if (TRACE) {
        const done = performance.now();
        this.engine.log(
          `[trace] flush: re-ran ${reran} queries in ${(computed - started).toFixed(1)} ms, pushed to ${this.sessions.size} sessions in ${(done - computed).toFixed(1)} ms`,
        );
      }
    }
  }

  /** Sends the Transitions composed by a flush (and any push meanwhile) once the log holds what they show. */
  private async sendWhenDurable(outgoing: Map<Session, string[]>): Promise<void> {
    let failed: string | null = null;
    try {
      await this.engine.durable();
    } catch (error) {
      failed = (error as Error).message;
    }
    this.outgoing = null;
    for (const [session, texts] of outgoing) {
      if (session.closed) continue;
      if (failed !== null) session.fatal(failed);
      else for (const text of texts) session.sendRaw(text);
    }
  }

  /**
   * Computes every new or dirty entry, in slices (SLICE_MS) each at one snapshot, until a slice
   * finds none due and no commit landed during it: every result is then valid at that snapshot
   * (a commit between slices marked dirty what it touched). Entries only behind or over-budget
   * sessions hold wait (coalesced into one later run); each run's time is charged to the sessions
   * holding it.
   */
  private async runQueries(counted: () => void): Promise<void> {
    const started = performance.now();
    for (;;) {
      const sliced = performance.now() - started < SLICED_FLUSH_MS;
      const settled = await this.engine.runSnapshot(async () => {
        const holders = this.holders();
        const skip = (entry: Entry) => {
          const sessions = holders.get(entry);
          return sessions !== undefined && sessions.every((s) => s.closed || s.behind || s.overBudget !== null);
        };
        const charged = (entry: Entry, cpuMs: number) => {
          counted();
          this.charge(holders.get(entry), cpuMs);
        };
        const until = sliced ? performance.now() + SLICE_MS : Infinity;
        for (;;) {
          const seq = this.engine.commitSeq;
          if (await this.queries.computeDue(charged, { until, skip })) return false;
          // A transaction that was already waiting when the hold began committed:
          // what it touched is dirty again; run it at the newer state.
          if (this.engine.commitSeq === seq) break;
        }
        const ts = this.engine.lastCommitTs;
        if (ts > this.processedTs) this.processedTs = ts;
        return true;
      });
      if (settled || this.stopped) return;
      // Let the transactions waiting for the hold begin before the next slice.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  /** The sessions subscribed to each entry. */
  private holders(): Map<Entry, Session[]> {
    const holders = new Map<Entry, Session[]>();
    for (const session of this.sessions) {
      for (const sub of session.queries.values()) {
        const list = holders.get(sub.entry);
        if (!list) holders.set(sub.entry, [session]);
        else if (list[list.length - 1] !== session) list.push(session);
      }
    }
    return holders;
  }

  /** Splits a run's time between the sessions holding it and their addresses; marks those out of budget. */
  private charge(sessions: Session[] | undefined, cpuMs: number): void {
    if (!sessions || sessions.length === 0) return;
    const share = cpuMs / sessions.length;
    for (const session of sessions) {
      if (!session.budget.charge(share)) {
        session.overBudget ??=
          `QueryBudgetExceeded: this connection's queries took more than ${RERUN_BUDGET_MS} ms of the backend's time ` +
          `(refilled at ${RERUN_MS_PER_SECOND} ms a second); subscribe to fewer or cheaper queries`;
      }
      const address = this.addresses.get(session.address);
      if (address && !address.budget.charge(share)) {
        session.overBudget ??=
          `QueryBudgetExceeded: the connections from this address took more than ${RERUN_BUDGET_MS * ADDRESS_BUDGET_FACTOR} ms ` +
          `of the backend's time with their queries`;
      }
    }
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

  /**
   * Sends a session what changed since its last Transition, if anything. False when it must wait
   * for a later flush: it is behind, or a query of its own still waits for a run (all of a
   * Transition's results are at its one timestamp).
   */
  push(session: Session): boolean {
    if (session.closed) return true;
    if (session.mutationInFlight) {
      // Its MutationResponse must go out before a Transition past its timestamp.
      session.deferredPush = true;
      return true;
    }
    if (session.behind) return false;
    for (const sub of session.queries.values())
      if (sub.live && !sub.request && this.queries.isDue(sub.entry)) return false;
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
    if (modifications.length === 0 && !versionChanged && !tsNeeded) return true;
    const now = Date.now();
    const head = JSON.stringify({
      type: "Transition",
      startVersion: { querySet: session.sentQuerySet, identity: session.sentIdentity, ts: encodeTs(session.sentTs) },
      endVersion: { querySet: session.querySetVersion, identity: session.identityVersion, ts: encodeTs(endTs) },
      clientClockSkew: 0,
      serverTs: now * 1e6,
    });
    const text = `${head.slice(0, -1)},"modifications":[${modifications.join(",")}]}`;
    const queued = this.outgoing;
    if (queued) {
      const texts = queued.get(session);
      if (texts) texts.push(text);
      else queued.set(session, [text]);
    } else session.sendRaw(text);
    session.sentQuerySet = session.querySetVersion;
    session.sentIdentity = session.identityVersion;
    session.sentTs = endTs;
    return true;
  }

  attach(ws: WebSocket, address = ""): Session {
    const session = new Session(ws, this, address);
    this.sessions.add(session);
    let peers = this.addresses.get(address);
    if (!peers) {
      if (this.addresses.size >= 10_000) {
        for (const [known, { sessions }] of this.addresses) if (sessions.size === 0) this.addresses.delete(known);
      }
      const budget = new WorkBudget(
        RERUN_BUDGET_MS * ADDRESS_BUDGET_FACTOR,
        RERUN_MS_PER_SECOND * ADDRESS_BUDGET_FACTOR,
      );
      this.addresses.set(address, (peers = { sessions: new Set(), budget }));
    }
    peers.sessions.add(session);
    ws.on("message", (data: Buffer, isBinary: boolean) => {
      if (session.closed) return;
      const size = Array.isArray(data)
        ? (data as Buffer[]).reduce((n: number, b: Buffer) => n + b.length, 0)
        : (data as Buffer).length;
      if (size > MAX_MESSAGE_BYTES) {
        session.fatal(`Message of ${size} bytes exceeds the ${MAX_MESSAGE_BYTES}-byte limit`);
        return;
      }
      let message: ClientMessage;
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
    // The address keeps its budget after its last connection closes: reconnecting does not refill it.
    this.addresses.get(session.address)?.sessions.delete(session);
    for (const sub of session.queries.values()) this.queries.release(sub.entry);
    session.queries.clear();
  }
}
