/**
 * What a running function carries with it (AsyncLocalStorage): the read set
 * of a subscription's query, the tag of a client mutation (to answer a retry),
 * and the log lines its console.* output becomes; and the names every part of
 * the backend uses for callers and function paths.
 */
import { ContextSlot, tableNameFromId } from "../common/index.js";
import { inspect } from "node:util";
import type { ReadSet } from "../database/index.js";

/** Who calls a function. `user` identities come from a verified JWT. */
export type Caller =
  { kind: "none" } | { kind: "admin" } | { kind: "user"; identity: Record<string, unknown>; key: string };

export type FunctionKind = "query" | "mutation" | "action";
export type FunctionInfo = { kind: FunctionKind; visibility: "public" | "internal" };

export type MutationTag = { s?: string; r?: number; used: boolean; ts?: bigint };

/** Pins a paginated query's page end across re-runs (Convex's "query journal"). */
export type Journal = { endCursor?: string | null };
type QueryContext = { reads: ReadSet; journal?: Journal };

export const readTracker = new ContextSlot<QueryContext>();
export const mutationTag = new ContextSlot<MutationTag>();
const logSink = new ContextSlot<string[]>();
const MAX_LOG_LINES = 256;

let logsToClients = true;

/**
 * Production mode (`start --prod`): function logs stay on the backend's own
 * output and clients get no log lines, as on a Convex production deployment
 * (its "send logs to client" setting defaults to false for prod).
 */
export function setLogsToClients(on: boolean): void {
  logsToClients = on;
}

/**
 * Runs `fn`, collecting what functions print with console.* as Convex log lines
 * ("[LOG] 'text'") for the client, unless logs are not sent to clients.
 */
export function captureLogs<T>(lines: string[], fn: () => Promise<T>): Promise<T> {
  return logsToClients ? logSink.run(lines, fn) : logSink.exit(fn);
}

/** How many log lines the running function has so far (a retried mutation drops its failed attempts' lines). */
export function logLinesMark(): number {
  return logSink.getStore()?.length ?? 0;
}

export function dropLogLinesAfter(mark: number): void {
  const sink = logSink.getStore();
  if (sink && sink.length > mark) sink.length = mark;
}

/** Runs `fn` outside any function's log lines (the backend's own output). */
export function outsideLogs<T>(fn: () => T): T {
  return logSink.exit(fn);
}

/** The console methods as they were before the capture (the backend's own output). */
const originalConsole = new Map<string, (...args: unknown[]) => void>();

/**
 * A log line of a function running in an action worker thread (actionPool.ts),
 * called in the function's context: added to its log lines and printed, as
 * the console capture below does for functions on this thread.
 */
export function emitFunctionLog(method: string, line: string, printed: string): void {
  const sink = logSink.getStore();
  if (sink && sink.length < MAX_LOG_LINES) sink.push(line);
  (originalConsole.get(method) ?? console.log)(printed);
}

let consoleCaptured = false;
export function installConsoleCapture(): void {
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
    (console as unknown as Record<string, (...args: unknown[]) => void>)[method] = (...args: unknown[]) => {
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

/** The table of a document id (see ids.ts), or null. */
export function tableFromId(id: string): string | null {
  return tableNameFromId(id);
}

/** "messages" -> "messages:default", "dir/mod.js:fn" -> "dir/mod:fn". */
export function canonicalPath(udfPath: string): string {
  const [mod, fn] = udfPath.includes(":") ? udfPath.split(":", 2) : [udfPath, "default"];
  return `${mod.replace(/\.(js|ts|jsx|tsx|mjs|cjs)$/, "")}:${fn}`;
}
