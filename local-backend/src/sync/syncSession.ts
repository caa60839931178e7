/**
 * One WebSocket connection of the sync protocol: its limits (messages,
 * subscriptions, bytes), its queue of message handlers, sending, and the
 * protocol's timestamp encoding.
 */
import type { WebSocket } from "ws";
import type { TokenVerifier } from "../auth/index.js";
import type { MutationResults } from "../database/index.js";
import type { Caller, FunctionInfo } from "../runtime/index.js";
import type { DataStore } from "../storage/index.js";
import { intKnob, knob } from "../common/index.js";
import type { QueryEntries, Subscription } from "./querySubscriptions.js";

/**
 * A client's message as JSON.parse gave it (its `type` checked): each handler checks the fields it reads.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- protocol fields are checked where read; a typed schema per message is not written yet
export type ClientMessage = Record<string, any> & { type: string };

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

/**
 * Different queries (function, arguments and identity: subscriptions sharing one execution count
 * once) one connection may hold, and all connections from one address together. Each is re-run on
 * every write to what it read, so this, not the subscription count, bounds the work a connection
 * adds to every write: 1,000 subscriptions differing in one argument were 1,000 re-runs per write.
 * A page needs tens. Past either the connection ends with a FatalError.
 */
export const MAX_QUERIES_PER_CONNECTION = intKnob("LOCAL_BACKEND_MAX_QUERIES_PER_CONNECTION", 200);
export const MAX_QUERIES_PER_ADDRESS = intKnob("LOCAL_BACKEND_MAX_QUERIES_PER_ADDRESS", 2000);
/**
 * Query run time (this thread's CPU) a connection may cause: a bucket of RERUN_BUDGET_MS that
 * refills at RERUN_MS_PER_SECOND; a run shared by several connections is split between them. An
 * address gets ADDRESS_BUDGET_FACTOR times both for all its connections. Past it the connection
 * ends with a FatalError.
 */
export const RERUN_BUDGET_MS = knob("LOCAL_BACKEND_RERUN_BUDGET_MS", 10_000);
export const RERUN_MS_PER_SECOND = knob("LOCAL_BACKEND_RERUN_MS_PER_SECOND", 250);
export const ADDRESS_BUDGET_FACTOR = 6;
/**
 * Bytes waiting to be sent past which a connection is behind: its queries are not re-run and it
 * gets no Transition until it has read what it was sent (Convex's sync worker computes no update
 * while 2 Transitions wait in its send buffer), so its re-runs coalesce into one.
 */
export const BEHIND_BYTES = intKnob("LOCAL_BACKEND_BEHIND_BYTES", 1024 * 1024);

/** A token bucket of milliseconds of work. */
export class WorkBudget {
  private left: number;
  private at = Date.now();

  constructor(
    readonly capacityMs: number,
    readonly refillPerSecond: number,
  ) {
    this.left = capacityMs;
  }

  /** Takes `ms`; false once the bucket is empty. */
  charge(ms: number): boolean {
    const now = Date.now();
    this.left = Math.min(this.capacityMs, this.left + ((now - this.at) / 1000) * this.refillPerSecond);
    this.at = now;
    this.left -= ms;
    return this.left > 0;
  }
}

export function encodeTs(ts: bigint): string {
  const buf = Buffer.alloc(8);
  buf.writeBigUInt64LE(ts < 0n ? 0n : ts);
  return buf.toString("base64");
}

/** What a session, its messages (syncMessages.ts) and Authenticate (syncAuth.ts) use of the sync manager (sync.ts). */
export type SyncHost = {
  readonly engine: {
    readonly store: Pick<DataStore, "adminKey">;
    readonly mutationResults: Pick<MutationResults, "get">;
    describe(udfPath: string): Promise<FunctionInfo | null>;
    mutation(
      udfPath: string,
      args: Record<string, unknown>,
      caller: Caller,
      request?: { sessionId: string; requestId: number },
    ): Promise<{ value: unknown; ts: bigint }>;
    action(udfPath: string, args: Record<string, unknown>, caller: Caller): Promise<unknown>;
    durable(): Promise<void> | null;
    logError(line: string): void;
  };
  readonly verifier: Pick<TokenVerifier, "verify">;
  readonly queries: QueryEntries;
  readonly pendingSessions: Set<Session>;
  distinctQueriesFrom(address: string): number;
  requestFlush(): Promise<void>;
  kick(): void;
  push(session: Session): boolean;
  drop(session: Session): void;
};

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
  /** Query run time this connection caused (see RERUN_BUDGET_MS); set once it ran out, ending it. */
  readonly budget = new WorkBudget(RERUN_BUDGET_MS, RERUN_MS_PER_SECOND);
  overBudget: string | null = null;

  constructor(
    readonly ws: WebSocket,
    readonly sync: SyncHost,
    /** The peer's address, for the limits its connections share. */
    readonly address = "",
  ) {}

  /** Whether the client has not read what it was sent (see BEHIND_BYTES). */
  get behind(): boolean {
    return this.ws.bufferedAmount > BEHIND_BYTES;
  }

  /** Different executions among its subscriptions (failed-before-running ones are not run). */
  distinctQueries(into = new Set<unknown>()): Set<unknown> {
    for (const sub of this.queries.values()) if (!sub.request) into.add(sub.entry);
    return into;
  }

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
