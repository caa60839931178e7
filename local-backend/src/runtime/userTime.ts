/**
 * Convex's limits on user code time (crates/common/src/knobs.rs):
 *
 * - queries and mutations: 1 s of user time (`DATABASE_UDF_USER_TIMEOUT`),
 *   the time spent in the function's own code, not in database syscalls
 *   (measured here as the backend process's CPU time, so a busy machine does
 *   not make a function fail);
 * - actions: 10 minutes (`NODE_ACTION_USER_TIMEOUT`, the documented action
 *   limit) of wall time.
 *
 * Over it a function fails with Convex's `Function execution timed out
 * (maximum duration: 1s)` (crates/isolate/src/termination.rs) and a mutation
 * commits nothing.
 *
 * Difference from Convex: Convex runs each function in its own V8 isolate and
 * terminates it when the time is up. Here queries and mutations run in the
 * backend's own Node thread, where a synchronous loop cannot be interrupted;
 * so a query or mutation is measured and failed once its code returns (before
 * a mutation commits), and a busy loop in one still holds the backend while it
 * runs. Mutations run concurrently (occ.ts), their code interleaved at each
 * await on the one thread, and no cheap clock tells whose code a slice of CPU
 * was: a query's or mutation's time is its fair share of the thread's CPU
 * while it runs (divided among the queries and mutations running at each
 * moment), less its own database syscalls (their wall time). Alone it is exactly its own time;
 * in a crowd of functions that each stay under the limit none fails for the
 * others' code, and a busy loop still fails unless it shares the thread with
 * many others. Actions run in worker threads (actionPool.ts): one is failed when its
 * time is up and its thread is ended if it ran alone there (otherwise code it
 * left running can still finish in the background). CPU time is the main
 * thread's own (Linux) while actions run in worker threads.
 *
 * The limits can be changed for tests with the backend's environment
 * variables `DATABASE_UDF_USER_TIMEOUT_SECONDS` and
 * `ACTION_USER_TIMEOUT_SECONDS` (read once, at start).
 */
import { ContextSlot, knob } from "../common/index.js";
import fs from "node:fs";
import type { ConvexGlobal } from "../database/index.js";
import { hooks } from "./convexTestLoader.js";

/** CPU time of this process in ms (not wall time: the machine may be busy with other work). */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

let threadClock: number | null | undefined;
const threadClockBuffer = Buffer.alloc(128);

/**
 * CPU time of the calling thread in ms (Linux: /proc/thread-self/schedstat, in
 * ns), or null where there is none. The process's CPU time also counts the
 * action worker threads (actionPool.ts), which must not count toward a query
 * running on the main thread.
 */
function threadCpuMs(): number | null {
  if (threadClock === undefined) {
    try {
      threadClock = fs.openSync("/proc/thread-self/schedstat", "r");
    } catch {
      threadClock = null;
    }
  }
  if (threadClock === null) return null;
  try {
    const n = fs.readSync(threadClock, threadClockBuffer, 0, threadClockBuffer.length, 0);
    const text = threadClockBuffer.toString("latin1", 0, n);
    const ns = Number(text.slice(0, text.indexOf(" ")));
    return Number.isFinite(ns) ? ns / 1e6 : null;
  } catch {
    return null;
  }
}

/** CPU time of the serving thread in ms (the process's where there is no thread clock). */
export function servingThreadCpuMs(): number {
  return threadCpuMs() ?? cpuMs();
}

/** Actions running in worker threads now, and how many ever started (set by the engine). */
let actionThreads: (() => { running: number; started: number }) | null = null;
export function setActionThreadActivity(activity: (() => { running: number; started: number }) | null): void {
  actionThreads = activity;
}

export const QUERY_MUTATION_USER_TIMEOUT_MS = knob("DATABASE_UDF_USER_TIMEOUT_SECONDS", 1) * 1000;
export const ACTION_USER_TIMEOUT_MS = knob("ACTION_USER_TIMEOUT_SECONDS", 600) * 1000;

/** A duration as Rust's `Duration` Debug prints it ("1s", "600s", "500ms"). */
export function formatDuration(ms: number): string {
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return Number.isInteger(ms) ? `${ms}ms` : `${ms / 1000}s`;
}

export function timeoutMessage(ms: number): string {
  return `Function execution timed out (maximum duration: ${formatDuration(ms)})`;
}

/**
 * A function stopped by its time limit. Convex reports it as the backend's own error
 * (crates/isolate/src/termination.rs `UserTimeoutError`), not as an uncaught one of the code's.
 */
export class UserTimeoutError extends Error {
  constructor(ms: number) {
    super(timeoutMessage(ms));
    this.name = "UserTimeoutError";
  }
}

/**
 * Fair shares: the CPU each query or mutation running has had a share of since
 * the start (`sharedMs`), as of `sharedAt` on the clock `sharedOn`, with
 * `running` of them running; see runTimed.
 */
let running = 0;
let sharedMs = 0;
let sharedAt = 0;
let sharedOn: "thread" | "process" = "process";

/** Brings the shares up to `now` on `clock` and returns the running total (a clock change restarts the interval). */
function shareUpTo(now: number, clock: "thread" | "process"): number {
  if (clock === sharedOn && running > 0) sharedMs += (now - sharedAt) / running;
  sharedAt = now;
  sharedOn = clock;
  return sharedMs;
}

/** Time spent in database syscalls by the query or mutation running now. */
const execution = new ContextSlot<{ systemMs: number }>();
/** The action running now, marked when its time is up. */
const actionExecution = new ContextSlot<{ expired: boolean; onExpire: (() => void)[] }>();

/** Calls `callback` if the action running now runs out of time (actionPool.ts stops its code); at once if it has. */
export function onActionExpired(callback: () => void): void {
  const state = actionExecution.getStore();
  if (state?.expired) callback();
  else state?.onExpire.push(callback);
}

type Kind = "query" | "mutation" | "action";

/**
 * Runs one function execution's code under its time limit (convex-test calls
 * this around a query's, mutation's or action's handler; see
 * convexTestLoader.ts). A query or mutation nested in another one counts
 * toward the outer one's time, as in Convex.
 */
async function runTimed<T>(kind: Kind, isNested: boolean, run: () => Promise<T>): Promise<T> {
  // An action whose time is up runs no more queries, mutations or actions
  // (on Convex its isolate is gone), so it commits nothing after its timeout.
  if (actionExecution.getStore()?.expired) throw new UserTimeoutError(ACTION_USER_TIMEOUT_MS);
  if (kind === "action") {
    const state = { expired: false, onExpire: [] as (() => void)[] };
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        state.expired = true;
        for (const callback of state.onExpire) callback();
        reject(new UserTimeoutError(ACTION_USER_TIMEOUT_MS));
      }, ACTION_USER_TIMEOUT_MS);
    });
    try {
      return await Promise.race([actionExecution.run(state, () => execution.exit(run)), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
  if (isNested && execution.getStore()) return await run();
  const state = { systemMs: 0 };
  // With an action pool, this thread's own clock (the process's counts the worker threads too). It is
  // sampled whether or not an action runs now: one may start while this function runs.
  const threads = actionThreads?.();
  const clock = () => {
    const thread = threads ? threadCpuMs() : null;
    return thread !== null ? { now: thread, on: "thread" as const } : { now: cpuMs(), on: "process" as const };
  };
  const begin = clock();
  const start = shareUpTo(begin.now, begin.on);
  running++;
  let result: T;
  let end: ReturnType<typeof clock>;
  let ended: number;
  try {
    result = await execution.run(state, run);
  } finally {
    end = clock();
    ended = shareUpTo(end.now, end.on);
    running--;
  }
  // Its share of the thread while it ran (all of it when alone), less its own syscalls.
  const userMs = (end.on === begin.on ? ended - start : 0) - state.systemMs;
  if (userMs > QUERY_MUTATION_USER_TIMEOUT_MS) {
    // Measured on the process's clock while an action started in a worker thread: its CPU time is in
    // there too, so this is no proof the function went over (it is let through rather than failed).
    const startedMeanwhile = threads !== undefined && actionThreads?.().started !== threads.started;
    if (end.on === "process" && startedMeanwhile) return result;
    throw new UserTimeoutError(QUERY_MUTATION_USER_TIMEOUT_MS);
  }
  return result;
}

/**
 * Wraps a syscall so the time spent in it is not counted as user time. Its wall time, as Convex
 * pauses a function's timeout during syscalls: it runs synchronously on this thread, so it is at
 * least the CPU it took, and the clock costs far less than the process's CPU clock (syscalls are
 * the commonest call: one per document a query reads).
 */
function timedSyscall<A extends unknown[], R>(syscall: (...args: A) => R): (...args: A) => R {
  return (...args: A): R => {
    const state = execution.getStore();
    if (!state) return syscall(...args);
    const start = performance.now();
    try {
      return syscall(...args);
    } finally {
      state.systemMs += performance.now() - start;
    }
  };
}

/**
 * Installs the hook convex-test calls (`globalThis.__localBackendUserTime`)
 * and wraps the database syscalls of its global `g` (after any other
 * wrapping), so their time is system time.
 */
export function installUserTimeLimits(g: Pick<ConvexGlobal, "syscall" | "asyncSyscall">): void {
  hooks.__localBackendUserTime = runTimed;
  g.syscall = timedSyscall(g.syscall);
  g.asyncSyscall = timedSyscall(g.asyncSyscall);
}
