/**
 * An action worker thread (actionPool.ts): the local backend's stand-in for
 * the V8 isolate Convex runs an action in. It loads the same function bundles
 * as the main thread and calls the action's own `invokeAction`, the entry
 * point Convex's isolate calls; the `convex` runtime inside the bundle then
 * reaches the backend through `globalThis.Convex` (asyncSyscall / jsSyscall),
 * which this file answers by message passing to the main thread, where the
 * database, scheduler, storage and identity live. So an action's own code
 * (password hashing, parsing, geocoding) runs here, off the thread that serves
 * queries and mutations.
 *
 * Plain JavaScript (not TypeScript): a worker entry is loaded by Node itself,
 * without the `tsx` loader the backend's main thread runs under.
 *
 * Messages in:  run {id, file, name, requestId, args, env, http?} | reply {call, result | error}
 *               (with `http` {url, method, headers, body}: the HTTP action `file`'s router routes the request to)
 * Messages out: ready | syscall {run, call, kind, op, args} | log {run, level, line, printed}
 *               | done {id, result} | fail {id, error}
 */
import { format, inspect } from "node:util";
import { pathToFileURL } from "node:url";
import { parentPort, workerData } from "node:worker_threads";
import { convexToJson } from "convex/values";
import { ContextSlot } from "../../common/contextSlot.mjs";
import { installFunctionRandom, withFunctionRandom } from "../functionRandom.mjs";

if (!parentPort) throw new Error("actionWorker.mjs runs as a worker thread");
const port = parentPort;
installFunctionRandom();

/** The action whose code is running (its id in the pool). */
const currentRun = new ContextSlot();
/** Syscalls waiting for the main thread's reply, by call number. */
const pending = new Map();
let nextCall = 0;

/** The deployment's environment: the object bundles read as `process.env` (bundler.ts). */
const envGlobal = workerData.envGlobal;
globalThis[envGlobal] = {};

function call(kind, op, args, transfer) {
  const run = currentRun.getStore();
  if (run === undefined) {
    return Promise.reject(new Error(`${op} was called outside of a running action`));
  }
  const callId = ++nextCall;
  return new Promise((resolve, reject) => {
    pending.set(callId, { resolve, reject });
    port.postMessage({ type: "syscall", run, call: callId, kind, op, args }, transfer ?? []);
  });
}

globalThis.Convex = {
  syscall(op) {
    // Only queries and mutations use synchronous syscalls (the database); actions have no ctx.db.
    throw new Error(`${op} is not available in actions`);
  },
  asyncSyscall(op, jsonArgs) {
    return call("async", op, jsonArgs);
  },
  async jsSyscall(op, args) {
    if (op === "storage/storeBlob") {
      const { blob, ...rest } = args;
      const bytes = await blob.arrayBuffer();
      return await call("js", op, { ...rest, bytes, type: blob.type }, [bytes]);
    }
    if (op === "storage/getBlob") {
      const file = await call("js", op, args);
      return file === null ? null : new Blob([file.bytes], { type: file.type });
    }
    return await call("js", op, args);
  },
};

// Function logs go to the main thread, which adds them to the function's log
// lines (the client's `[CONVEX A(...)]` lines) and prints them (functionContext.ts).
const LEVELS = [
  ["log", "LOG"],
  ["info", "INFO"],
  ["warn", "WARN"],
  ["error", "ERROR"],
  ["debug", "DEBUG"],
];
for (const [method, level] of LEVELS) {
  console[method] = (...args) => {
    const line = `[${level}] ${args
      .map((a) => (typeof a === "string" ? `'${a}'` : inspect(a, { depth: 4, breakLength: Infinity })))
      .join(" ")}`;
    port.postMessage({ type: "log", run: currentRun.getStore(), method, line, printed: format(...args) });
  };
}

// Code an action left running (a timer, a stray promise) must not take the
// thread, and with it other actions, down: its error is printed, as the
// backend prints a function's error.
process.on("uncaughtException", (error) => {
  console.error(`Uncaught error in an action's background code: ${error?.stack ?? String(error)}`);
});
process.on("unhandledRejection", (error) => {
  console.error(`Unhandled rejection in an action's background code: ${error?.stack ?? String(error)}`);
});

/** An error as it crosses to the main thread (a ConvexError keeps its data). */
function serializeError(error) {
  if (typeof error !== "object" || error === null) return { name: "Error", message: String(error) };
  const out = { name: String(error.name ?? "Error"), message: String(error.message ?? ""), stack: error.stack };
  if (Symbol.for("ConvexError") in error) {
    out.convexError = true;
    try {
      out.data = convexToJson(error.data ?? null);
    } catch {
      out.data = String(error.data);
    }
  }
  return out;
}

/** Convex's limit on an HTTP action's response body (and request body): 20 MiB. */
const MAX_HTTP_BODY_BYTES = 20 * 1024 * 1024;

/** A response's body, read up to the limit (an HTTP action cannot make the thread hold more). */
async function boundedBody(response) {
  const chunks = [];
  let size = 0;
  if (response.body) {
    for await (const chunk of response.body) {
      size += chunk.byteLength;
      if (size > MAX_HTTP_BODY_BYTES) {
        throw new Error(`The HTTP action's response body exceeds ${MAX_HTTP_BODY_BYTES} bytes`);
      }
      chunks.push(chunk);
    }
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes.buffer;
}

/** Routes a request with the bundle's `http` router and runs the HTTP action it names, as Convex's isolate does. */
async function runHttpAction(id, mod, { url, method, headers, body }) {
  const pathname = new URL(url).pathname;
  const found = mod.default?.lookup?.(pathname, method);
  const response = found
    ? await found[0].invokeHttpAction(new Request(url, { method, headers, body: body ?? undefined }))
    : new Response(`No HttpAction routed for ${pathname}`, { status: 404 });
  const bytes = await boundedBody(response);
  const result = {
    status: response.status,
    statusText: response.statusText,
    headers: [...response.headers],
    body: bytes,
  };
  port.postMessage({ type: "done", id, result }, [bytes]);
}

async function runAction({ id, file, name, requestId, args, env, http }) {
  const target = globalThis[envGlobal];
  for (const key of Object.keys(target)) if (!(key in env)) delete target[key];
  Object.assign(target, env);
  try {
    const mod = await import(pathToFileURL(file).href);
    if (http) return await runHttpAction(id, mod, http);
    const fn = mod[name];
    if (typeof fn?.invokeAction !== "function") throw new Error(`${name} in ${file} is not an action`);
    const result = await fn.invokeAction(requestId, args);
    port.postMessage({ type: "done", id, result });
  } catch (error) {
    port.postMessage({ type: "fail", id, error: serializeError(error) });
  }
}

port.on("message", (message) => {
  if (message.type === "run") {
    void currentRun.run(message.id, () => withFunctionRandom(() => runAction(message)));
  } else if (message.type === "reply") {
    const waiting = pending.get(message.call);
    if (!waiting) return;
    pending.delete(message.call);
    if (message.error) {
      // What the convex runtime's performAsyncSyscall expects of a failed syscall:
      // `data` (JSON) makes it a ConvexError on this side too.
      const error = new Error(message.error.message);
      if (message.error.data !== undefined) error.data = message.error.data;
      waiting.reject(error);
    } else {
      waiting.resolve(message.result);
    }
  }
});

port.postMessage({ type: "ready" });
