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
 * terminates it when the time is up. Here functions run in the backend's own
 * Node thread, where a synchronous loop cannot be interrupted; so a query or
 * mutation is measured and failed once its code returns (before a mutation
 * commits), and an action is failed when its time is up (its result is
 * dropped, though code it left running can still finish in the background).
 * A busy loop therefore still holds the backend for as long as it runs.
 *
 * The limits can be changed for tests with the backend's environment
 * variables `DATABASE_UDF_USER_TIMEOUT_SECONDS` and
 * `ACTION_USER_TIMEOUT_SECONDS` (read once, at start).
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** CPU time of this process in ms (not wall time: the machine may be busy with other work). */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

function knob(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === "" ? NaN : Number(raw);
  return Number.isFinite(value) && value > 0 ? value : fallback;
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

/** Time spent in database syscalls by the query or mutation running now. */
const execution = new AsyncLocalStorage<{ systemMs: number }>();
/** The action running now, marked when its time is up. */
const actionExecution = new AsyncLocalStorage<{ expired: boolean }>();

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
  if (actionExecution.getStore()?.expired) throw new Error(timeoutMessage(ACTION_USER_TIMEOUT_MS));
  if (kind === "action") {
    const state = { expired: false };
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        state.expired = true;
        reject(new Error(timeoutMessage(ACTION_USER_TIMEOUT_MS)));
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
  const start = cpuMs();
  const result = await execution.run(state, run);
  const userMs = cpuMs() - start - state.systemMs;
  if (userMs > QUERY_MUTATION_USER_TIMEOUT_MS) throw new Error(timeoutMessage(QUERY_MUTATION_USER_TIMEOUT_MS));
  return result;
}

/** Wraps a syscall so the time spent in it is not counted as user time. */
function timedSyscall<A extends unknown[], R>(syscall: (...args: A) => R): (...args: A) => R {
  return (...args: A): R => {
    const state = execution.getStore();
    if (!state) return syscall(...args);
    const start = cpuMs();
    try {
      return syscall(...args);
    } finally {
      state.systemMs += cpuMs() - start;
    }
  };
}

/**
 * Installs the hook convex-test calls (`globalThis.__localBackendUserTime`)
 * and wraps the database syscalls of its global `g` (after any other
 * wrapping), so their time is system time.
 */
export function installUserTimeLimits(g: {
  syscall: (...args: any[]) => any;
  asyncSyscall: (...args: any[]) => any;
}): void {
  (globalThis as any).__localBackendUserTime = runTimed;
  g.syscall = timedSyscall(g.syscall);
  g.asyncSyscall = timedSyscall(g.asyncSyscall);
}
