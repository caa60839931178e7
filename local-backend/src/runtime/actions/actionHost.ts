/**
 * The main thread's side of actions in worker threads (actionPool.ts): which
 * action runs where, and the syscalls a worker sends back, answered in the
 * action's own context (identity, request, component, time limit, log lines).
 */
import { AsyncResource } from "node:async_hooks";
import { convexToJson, jsonToConvex, type Value } from "convex/values";
import type { ActionHost, ActionPool } from "./actionPool.js";
import { FUNCTION_ENV_GLOBAL } from "../bundle/bundler.js";
import type { FunctionModules } from "../functionModules.js";
import { canonicalPath, emitFunctionLog } from "../functionContext.js";
import { onActionExpired } from "../userTime.js";
import type { ConvexGlobal, ConvexTestModule } from "../../database/index.js";

/**
 * Runs an action's code in a worker thread (called by convex-test where it
 * would call the action's `invokeAction`, inside the action's context:
 * identity, request, component, time limit, log lines). Returns undefined to
 * run it here instead (no pool, or an inline test handler).
 */
/** What actions in threads use of the engine: whether it closed, convex-test, the bundle's files, the log's durability. */
export type ActionEngine = {
  readonly closed: boolean;
  readonly ct: ConvexTestModule;
  readonly functions: Pick<FunctionModules, "file">;
  durable(): Promise<void> | null;
};

export function invokeActionInWorker(
  engine: ActionEngine,
  pool: ActionPool | null,
  functionPath: { udfPath: string; componentPath: string },
  requestId: string,
  args: string,
): Promise<string> | undefined {
  if (!pool || engine.closed || functionPath.udfPath === "inline") return undefined;
  const [mod, name] = canonicalPath(functionPath.udfPath).split(":");
  const file = engine.functions.file(mod, functionPath.componentPath);
  if (!file) return undefined;
  const { id, result } = pool.run({ file, name, requestId, args, env: functionEnv() }, hostInContext(engine));
  onActionExpired(() => pool.abandon(id));
  return result;
}

/** Statuses whose responses have no body (the Response constructor refuses one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * Runs an HTTP action of `convex/http.ts` in a worker thread (called by
 * convex-test's `fetch` in place of `invokeHttpAction`, inside the request's
 * context with the caller's identity): the worker routes the request with the
 * bundle's router, as Convex's isolate does. The request body (bounded by the
 * site, 20 MiB) and the response body (bounded by the worker, 20 MiB, Convex's
 * limit) cross as transferred bytes. Its time is an action's (userTime.ts): when it is up the
 * worker is abandoned as an action's is. Returns undefined to run it here instead.
 */
export function invokeHttpActionInWorker(
  engine: ActionEngine,
  pool: ActionPool | null,
  url: string,
  init: RequestInit | undefined,
  requestId: string,
): Promise<Response> | undefined {
  if (!pool || engine.closed) return undefined;
  const file = engine.functions.file("http");
  if (!file) return undefined;
  const host = hostInContext(engine);
  const env = functionEnv();
  return (async () => {
    const body = await bodyBytes(init?.body);
    const http = { url, method: init?.method ?? "GET", headers: [...new Headers(init?.headers)], body };
    const { id, result } = pool.run({ file, name: "default", requestId, args: "", env, http }, host);
    onActionExpired(() => pool.abandon(id));
    const response = await result;
    return new Response(NULL_BODY_STATUSES.has(response.status) ? null : response.body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  })();
}

/**
 * A request body's bytes to transfer to the worker: the site's own buffer when the body fills it
 * (no copy: it is not used again here), otherwise a copy.
 */
async function bodyBytes(body: BodyInit | null | undefined): Promise<ArrayBuffer | null> {
  if (body === undefined || body === null) return null;
  const view: unknown = body;
  if (view instanceof Uint8Array && view.buffer instanceof ArrayBuffer) {
    const whole = view.byteOffset === 0 && view.byteLength === view.buffer.byteLength;
    return whole ? view.buffer : view.slice().buffer;
  }
  return await new Response(body).arrayBuffer();
}

/** What a worker asks for, answered in the context of the function that started it (created in that context). */
function hostInContext(engine: ActionEngine): ActionHost {
  const inContext = AsyncResource.bind(<T>(fn: () => T): T => fn());
  return {
    syscall: (kind, op, syscallArgs) => inContext(() => actionSyscall(engine, kind, op, syscallArgs)),
    log: (method, line, printed) => inContext(() => emitFunctionLog(method, line, printed)),
  };
}

/** A copy of the deployment's environment variables for a worker (function code's `process.env`). */
function functionEnv(): Record<string, string> {
  return { ...(globalThis as unknown as Record<string, Record<string, string>>)[FUNCTION_ENV_GLOBAL] };
}

/**
 * One syscall of an action running in a worker thread, answered as convex-test
 * answers it for an action on this thread; the calls to other functions go
 * by their address (a name, a component reference or a function handle).
 */
async function actionSyscall(engine: ActionEngine, kind: "async" | "js", op: string, args: unknown): Promise<unknown> {
  // convex-test's global state of the running function (a getter over convexGlobalStorage).
  const convex = (globalThis as unknown as { Convex: ConvexGlobal }).Convex;
  if (kind === "js") {
    const jsArgs = args as Record<string, unknown>;
    if (op === "storage/storeBlob") {
      const { bytes, type, ...rest } = jsArgs as { bytes: ArrayBuffer; type?: string };
      return await convex.jsSyscall(op, { ...rest, blob: new Blob([bytes], { type }) });
    }
    if (op === "storage/getBlob") {
      const blob = (await convex.jsSyscall(op, jsArgs)) as Blob | null;
      return blob ? { bytes: await blob.arrayBuffer(), type: blob.type } : null;
    }
    return await convex.jsSyscall(op, jsArgs);
  }
  if (op === "1.0/getUserIdentity") {
    const identity = await engine.ct.authStorage.getStore()?.getUserIdentity();
    return JSON.stringify(identity ?? null);
  }
  if (op === "1.0/actions/query" || op === "1.0/actions/mutation" || op === "1.0/actions/action") {
    const { name, reference, functionHandle, args: fnArgs } = JSON.parse(args as string);
    const functionPath = engine.ct.getFunctionPathFromAddress({ name, reference, functionHandle });
    const acc = engine.ct.withAuth();
    const value = jsonToConvex(fnArgs ?? {});
    const result =
      op === "1.0/actions/query"
        ? await acc.queryFromPath(functionPath, value)
        : op === "1.0/actions/mutation"
          ? await acc.mutationFromPath(functionPath, value)
          : await acc.actionFromPath(functionPath, value);
    // What a query read reaches the action's code once on disk (a mutation's result already waited).
    if (op === "1.0/actions/query") await engine.durable();
    return JSON.stringify(convexToJson((result === undefined ? null : result) as Value));
  }
  return await convex.asyncSyscall(op, args as string);
}
