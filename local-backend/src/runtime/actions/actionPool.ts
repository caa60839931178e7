/**
 * Actions run in worker threads, off the thread that serves queries and
 * mutations, as Convex runs each action in an isolate of its own
 * (crates/isolate: the action's JavaScript runs in V8 while the database,
 * scheduler and storage answer its syscalls). Here an action's code runs in
 * one of a pool of `worker_threads` (actionWorker.mjs) and each of its
 * syscalls (`ctx.runQuery` / `runMutation` / `runAction`, `ctx.scheduler`,
 * `ctx.storage`, `ctx.auth`) comes back to the main thread as a message,
 * where the engine answers it in the action's own context (identity, request,
 * component, time limit); its console output comes back the same way.
 * HTTP actions run here too (actionHost.ts invokeHttpActionInWorker): the
 * thread routes the request with the bundle's router, as Convex's isolate does.
 *
 * The pool has `LOCAL_BACKEND_ACTION_WORKERS` threads (the backend's own
 * environment; default `os.availableParallelism()`, at least 1; 0 runs actions
 * on the main thread as before). A thread takes any number of actions at once
 * (an action mostly waits for its syscalls); a new action goes to the thread
 * with the fewest running. Threads start on first use.
 *
 * Difference from Convex: actions in one thread share its globals and its
 * fate. A thread that dies (`process.exit()` in an action, out of memory)
 * fails the actions it was running, not others, and is replaced; an action
 * whose time is up is stopped by ending its thread when it is the only one
 * there (Convex always stops it), otherwise its leftover code runs on.
 */
import os from "node:os";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { ConvexError, convexToJson, type JSONValue, jsonToConvex, type Value } from "convex/values";
import { intKnob, findUp } from "../../common/index.js";

export type SerializedError = {
  name: string;
  message: string;
  stack?: string;
  convexError?: boolean;
  data?: unknown;
};

/** What runs one action's syscalls and logs on the main thread (in its context). */
export type ActionHost = {
  syscall(kind: "async" | "js", op: string, args: unknown): Promise<unknown>;
  log(method: string, line: string, printed: string): void;
};

export type ActionTask = {
  /** The bundled module file and the export name of the action. */
  file: string;
  name: string;
  requestId: string;
  /** The arguments as `invokeAction` takes them (JSON of `[args]`). */
  args: string;
  /** The deployment's environment variables (function code's `process.env`). */
  env: Record<string, string>;
  /** For an HTTP action: the request, routed by the router `file` exports (name and args unused). */
  http?: HttpRequestData;
};

/** An HTTP action's request or response as it crosses between threads (the body's bytes are transferred). */
export type HttpRequestData = { url: string; method: string; headers: [string, string][]; body: ArrayBuffer | null };
export type HttpResponseData = { status: number; statusText: string; headers: [string, string][]; body: ArrayBuffer };

type Run = {
  id: number;
  host: ActionHost;
  resolve: (result: unknown) => void;
  reject: (error: unknown) => void;
  thread: Thread;
};

/** What a worker thread posts (actionWorker.mjs). */
type WorkerMessage =
  | { type: "done"; id: number; result: unknown }
  | { type: "fail"; id: number; error: SerializedError }
  | { type: "log"; run?: number; method: string; line: string; printed: string }
  | { type: "syscall"; run: number; call: number; kind: "async" | "js"; op: string; args: unknown };

type Thread = { worker: Worker; runs: Set<number>; retiring: boolean; exited: boolean };

/** The pool size: LOCAL_BACKEND_ACTION_WORKERS, else one per CPU (at least 1). */
export function actionWorkerCount(): number {
  return intKnob("LOCAL_BACKEND_ACTION_WORKERS", Math.max(1, os.availableParallelism()), { min: 0 });
}

export class ActionPool {
  private threads: Thread[] = [];
  private runs = new Map<number, Run>();
  private nextId = 0;
  private closed = false;
  /** Incremented whenever an action starts in a thread (userTime.ts: was a thread busy during a query?). */
  started = 0;

  constructor(
    readonly size: number,
    private readonly envGlobal: string,
    private readonly logError: (line: string) => void,
  ) {}

  /** Actions running in threads now. */
  get running(): number {
    return this.runs.size;
  }

  /**
   * Runs an action in a worker thread; resolves with `invokeAction`'s result
   * (JSON text), or for an HTTP action (`task.http`) with its response.
   */
  run(task: ActionTask & { http?: undefined }, host: ActionHost): { id: number; result: Promise<string> };
  run(
    task: ActionTask & { http: HttpRequestData },
    host: ActionHost,
  ): { id: number; result: Promise<HttpResponseData> };
  run(task: ActionTask, host: ActionHost): { id: number; result: Promise<unknown> } {
    if (this.closed) throw new Error("The backend is shutting down");
    const thread = this.pick();
    const id = ++this.nextId;
    const result = new Promise<unknown>((resolve, reject) => {
      this.runs.set(id, { id, host, resolve, reject, thread });
    });
    thread.runs.add(id);
    // A running action keeps the process alive (the CLI's `run` has nothing else to wait on).
    if (thread.runs.size === 1) thread.worker.ref();
    this.started++;
    thread.worker.postMessage({ type: "run", id, ...task }, task.http?.body ? [task.http.body] : []);
    return { id, result };
  }

  /**
   * An action's time is up (userTime.ts): its result no longer matters, and its
   * thread ends (Convex terminates the isolate). It may be spinning, so the
   * thread takes no new actions, and any other action still on it fails with
   * the thread (onExit) rather than waiting behind it for its own time limit.
   */
  abandon(id: number): void {
    const run = this.runs.get(id);
    if (!run) return;
    this.finish(run);
    this.threads = this.threads.filter((t) => t !== run.thread);
    if (!run.thread.exited) this.stop(run.thread);
  }

  /** Threads running now stop taking actions and end once idle (after a reload: the old bundles' modules go with them). */
  recycle(): void {
    for (const thread of this.threads) {
      thread.retiring = true;
      if (thread.runs.size === 0) this.stop(thread);
    }
    this.threads = [];
  }

  close(): void {
    this.closed = true;
    const threads = new Set([...this.threads, ...[...this.runs.values()].map((r) => r.thread)]);
    this.threads = [];
    for (const thread of threads) this.stop(thread);
  }

  private pick(): Thread {
    let best: Thread | null = null;
    for (const thread of this.threads) if (!best || thread.runs.size < best.runs.size) best = thread;
    if (best && (best.runs.size === 0 || this.threads.length >= this.size)) return best;
    const thread = this.spawn();
    this.threads.push(thread);
    return thread;
  }

  private spawn(): Thread {
    // Found upwards: the same file from the sources and from the precompiled bundle in ../.build.
    const worker = new Worker(pathToFileURL(findUp(import.meta.url, "src/runtime/actions/actionWorker.mjs")), {
      workerData: { envGlobal: this.envGlobal },
      // Functions see the deployment's environment (envGlobal), never the shell's that started the backend.
      env: {},
      // Not the backend's `--import tsx` and friends: the worker loads plain JS and the bundles.
      execArgv: [],
      // Anything it writes to stdout/stderr directly is piped to the backend's (function logs come as messages).
    });
    // An idle thread does not keep the process alive (see run() and finish()).
    worker.unref();
    const thread: Thread = { worker, runs: new Set(), retiring: false, exited: false };
    worker.on("message", (message: WorkerMessage) => this.onMessage(thread, message));
    worker.on("error", (error) => {
      this.logError(`An action worker thread failed: ${error?.stack ?? String(error)}`);
    });
    worker.on("exit", (code) => this.onExit(thread, code));
    return thread;
  }

  private stop(thread: Thread): void {
    thread.retiring = true;
    void thread.worker.terminate();
  }

  private onExit(thread: Thread, code: number): void {
    thread.exited = true;
    this.threads = this.threads.filter((t) => t !== thread);
    for (const id of thread.runs) {
      const run = this.runs.get(id);
      if (!run) continue;
      this.finish(run);
      run.reject(
        new Error(
          `The action's worker thread stopped while it ran (exit code ${code}); other actions were not affected`,
        ),
      );
    }
    if (!thread.retiring && !this.closed) this.logError(`An action worker thread exited (code ${code}); replaced.`);
  }

  private finish(run: Run): void {
    this.runs.delete(run.id);
    run.thread.runs.delete(run.id);
    if (run.thread.runs.size === 0) run.thread.worker.unref();
    if (run.thread.retiring && run.thread.runs.size === 0 && !run.thread.exited) this.stop(run.thread);
  }

  private onMessage(thread: Thread, message: WorkerMessage): void {
    switch (message.type) {
      case "done":
      case "fail": {
        const run = this.runs.get(message.id);
        if (!run) return;
        this.finish(run);
        if (message.type === "done") run.resolve(message.result);
        else run.reject(deserializeError(message.error));
        return;
      }
      case "log": {
        const run = message.run === undefined ? undefined : this.runs.get(message.run);
        if (run) run.host.log(message.method, message.line, message.printed);
        else
          (console as unknown as Record<string, ((line: string) => void) | undefined>)[message.method]?.(
            message.printed,
          );
        return;
      }
      case "syscall": {
        const run = this.runs.get(message.run);
        const reply = (body: Record<string, unknown>, transfer: ArrayBuffer[] = []) => {
          if (!thread.exited) thread.worker.postMessage({ type: "reply", call: message.call, ...body }, transfer);
        };
        if (!run) {
          reply({ error: { message: `${message.op}: the action already finished` } });
          return;
        }
        run.host.syscall(message.kind, message.op, message.args).then(
          (result: unknown) => {
            const bytes = (result as { bytes?: unknown } | null)?.bytes;
            reply({ result }, bytes instanceof ArrayBuffer ? [bytes] : []);
          },
          (error: unknown) => reply({ error: syscallError(error) }),
        );
        return;
      }
      default:
        return;
    }
  }
}

/** A failed syscall's error as the convex runtime in the worker rethrows it (`data`: a ConvexError). */
function syscallError(error: unknown): { message: string; data?: unknown } {
  const message = error instanceof Error ? error.message : String(error);
  if (typeof error === "object" && error !== null && Symbol.for("ConvexError") in error) {
    let data: unknown;
    try {
      data = convexToJson(((error as { data?: Value }).data ?? null) as Value);
    } catch {
      data = String((error as { data?: unknown }).data);
    }
    return { message, data };
  }
  return { message };
}

/** The worker's error, rebuilt on the main thread: a ConvexError keeps its data. */
export function deserializeError(serialized: SerializedError): Error {
  let error: Error;
  if (serialized.convexError) {
    let data: unknown = serialized.data ?? null;
    try {
      data = jsonToConvex(data as JSONValue);
    } catch {
      // Not Convex JSON (it could not be converted in the worker): kept as its text.
    }
    error = new ConvexError(data as Value);
  } else {
    error = new Error(serialized.message);
    error.name = serialized.name;
  }
  error.message = serialized.message;
  if (serialized.stack) error.stack = serialized.stack;
  return error;
}
