/**
 * The main thread's side of actions in worker threads (actionPool.ts): which
 * action runs where, and the syscalls a worker sends back, answered in the
 * action's own context (identity, request, component, time limit, log lines).
 */
import { AsyncResource } from "node:async_hooks";
import { convexToJson, jsonToConvex } from "convex/values";
import type { ActionHost, ActionPool } from "./actionPool.js";
import { FUNCTION_ENV_GLOBAL } from "./bundler.js";
import type { Engine } from "./engine.js";
import { canonicalPath, emitFunctionLog } from "./functionContext.js";
import { onActionExpired } from "./userTime.js";

/**
 * Runs an action's code in a worker thread (called by convex-test where it
 * would call the action's `invokeAction`, inside the action's context:
 * identity, request, component, time limit, log lines). Returns undefined to
 * run it here instead (no pool, or an inline test handler).
 */
export function invokeActionInWorker(
  engine: Engine,
  pool: ActionPool | null,
  functionPath: { udfPath: string; componentPath: string },
  requestId: string,
  args: string,
): Promise<string> | undefined {
  if (!pool || engine.closed || functionPath.udfPath === "inline") return undefined;
  const [mod, name] = canonicalPath(functionPath.udfPath).split(":");
  const file = engine.functions.file(mod, functionPath.componentPath);
  if (!file) return undefined;
  // Everything the worker asks for is answered in this action's context.
  const inContext = AsyncResource.bind((fn: () => any) => fn());
  const host: ActionHost = {
    syscall: (kind, op, syscallArgs) => inContext(() => actionSyscall(engine, kind, op, syscallArgs)),
    log: (method, line, printed) => inContext(() => emitFunctionLog(method, line, printed)),
  };
  const env = { ...((globalThis as any)[FUNCTION_ENV_GLOBAL] as Record<string, string>) };
  const { id, result } = pool.run({ file, name, requestId, args, env }, host);
  onActionExpired(() => pool.abandon(id));
  return result;
}

/**
 * One syscall of an action running in a worker thread, answered as convex-test
 * answers it for an action on this thread; the calls to other functions go
 * by their address (a name, a component reference or a function handle).
 */
async function actionSyscall(engine: Engine, kind: "async" | "js", op: string, args: any): Promise<unknown> {
  const convex = (globalThis as any).Convex;
  if (kind === "js") {
    if (op === "storage/storeBlob") {
      const { bytes, type, ...rest } = args;
      return await convex.jsSyscall(op, { ...rest, blob: new Blob([bytes], { type }) });
    }
    if (op === "storage/getBlob") {
      const blob: Blob | null = await convex.jsSyscall(op, args);
      return blob ? { bytes: await blob.arrayBuffer(), type: blob.type } : null;
    }
    return await convex.jsSyscall(op, args);
  }
  if (op === "1.0/getUserIdentity") {
    const identity = await engine.ct.authStorage.getStore()?.getUserIdentity();
    return JSON.stringify(identity ?? null);
  }
  if (op === "1.0/actions/query" || op === "1.0/actions/mutation" || op === "1.0/actions/action") {
    const { name, reference, functionHandle, args: fnArgs } = JSON.parse(args);
    const functionPath = engine.ct.getFunctionPathFromAddress({ name, reference, functionHandle });
    const acc = engine.ct.withAuth();
    const value = jsonToConvex(fnArgs ?? {});
    const result =
      op === "1.0/actions/query"
        ? await acc.queryFromPath(functionPath, value)
        : op === "1.0/actions/mutation"
          ? await acc.mutationFromPath(functionPath, value)
          : await acc.actionFromPath(functionPath, value);
    return JSON.stringify(convexToJson(result === undefined ? null : result));
  }
  return await convex.asyncSyscall(op, args);
}
