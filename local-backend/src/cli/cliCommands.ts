/**
 * The CLI's commands other than `start`: `run`, `env`, `export`, `import`,
 * each against the backend running on the data dir (admin endpoints) or, when
 * none runs, an engine opened on the data dir itself.
 */
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { convexToJson, jsonToConvex, type JSONValue, type Value } from "convex/values";
import { devFunctionsDir, type Flags, num, str, UsageError } from "./cliArgs.js";
import { type Engine, runRecordingSeed } from "../engine/index.js";
import type { DataStore } from "../storage/index.js";

// The engine, servers and key generation load only for commands that need them,
// so `env` and commands against a running backend start quickly.
export const loadEngine = async () => (await import("../engine/index.js")).Engine;

type RunningInfo = { pid: number; apiUrl: string; siteUrl: string };

/**
 * The backend running on a data dir, if any: whoever holds the data dir's lock
 * socket (see DataStore.lock), not a pid file, so a dead backend's leftovers
 * (a zombie, a pid reused after a reboot) never count as running.
 */
export async function findRunning(store: DataStore, portFlag?: number): Promise<RunningInfo | null> {
  let owner = await store.probeLock();
  // A backend that is still starting has not published its URLs yet.
  for (let attempt = 0; owner && typeof owner.apiUrl !== "string" && attempt < 60; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    owner = await store.probeLock();
  }
  if (owner && typeof owner.apiUrl !== "string") {
    throw new Error(
      `${store.dir} is in use by another process (pid ${String(owner.pid)}) that serves no API; stop it first.`,
    );
  }
  let info: RunningInfo | null = owner ? (owner as unknown as RunningInfo) : null;
  const live = info !== null;
  if (!info && portFlag !== undefined) info = { pid: 0, apiUrl: `http://127.0.0.1:${portFlag}`, siteUrl: "" };
  if (!info) return null;
  // A live backend owns the data dir: never open it a second time behind its
  // back, even if it is slow to answer on a busy machine.
  for (let attempt = 0; attempt < (live ? 4 : 1); attempt++) {
    try {
      const response = await fetch(`${info.apiUrl}/version`, { signal: AbortSignal.timeout(5000) });
      if (response.ok) return info;
    } catch {
      // Not answering (yet).
    }
    if (live) await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  if (live) {
    throw new Error(
      `The backend (pid ${info.pid}) using ${store.dir} does not answer at ${info.apiUrl}; stop it first.`,
    );
  }
  return null;
}

/** Calls a running backend's admin route; `T`: what that route answers (apiRoutes.ts). */
async function admin<T = unknown>(store: DataStore, running: RunningInfo, route: string, body: unknown): Promise<T> {
  const response = await fetch(`${running.apiUrl}/_local/${route}`, {
    method: "POST",
    headers: { Authorization: `Convex ${store.adminKey()}`, "Content-Type": "application/json" },
    body:
      body instanceof fs.ReadStream
        ? Readable.toWeb(body)
        : typeof body === "string"
          ? body
          : JSON.stringify(body ?? {}),
    // A streamed body (a file) goes out as it is read.
    ...(body instanceof fs.ReadStream ? { duplex: "half" } : {}),
  } as RequestInit);
  const json = await response.json();
  if (response.status === 560) throw new FunctionFailed(json.errorMessage, json.errorData);
  if (!response.ok) throw new Error(json.message ?? `HTTP ${response.status}`);
  return json as T;
}

class FunctionFailed extends Error {
  constructor(
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** An engine over the data dir for commands run while no backend is up. */
async function offlineEngine(store: DataStore, flags: Flags): Promise<Engine> {
  const env = store.readEnv();
  const Engine = await loadEngine();
  const functionsDir = path.resolve(str(flags, "functions", "convex"));
  const engine = new Engine({
    functionsDir,
    devFunctionsDir: devFunctionsDir(flags, functionsDir),
    dataDir: store.dir,
    apiUrl: env.CONVEX_CLOUD_URL ?? "http://127.0.0.1:3210",
    siteUrl: env.CONVEX_SITE_URL ?? "http://127.0.0.1:3211",
    log: (line) => console.error(line),
  });
  await engine.init({ startBackground: false });
  return engine;
}

function printJson(value: unknown): void {
  console.log(JSON.stringify(value, null, 2));
}

export async function cmdRun(positional: string[], flags: Flags, store: DataStore): Promise<number> {
  const [fn, rawArgs] = positional;
  if (!fn) throw new UsageError("run needs a function path, e.g. run messages:list '{}'");
  let args: Record<string, unknown>;
  try {
    args = rawArgs === undefined ? {} : JSON.parse(rawArgs);
  } catch {
    throw new UsageError(`Arguments must be JSON: ${rawArgs}`);
  }
  const running = await findRunning(store, flags.port !== undefined ? num(flags, "port", 3210) : undefined);
  try {
    if (running) {
      const result = await admin<{ value: unknown }>(store, running, "run", {
        path: fn,
        args: convexToJson(args as Value),
      });
      printJson(result.value);
    } else {
      const engine = await offlineEngine(store, flags);
      try {
        const value = await runRecordingSeed(engine, fn, jsonToConvex(args as JSONValue) as Record<string, unknown>);
        printJson(convexToJson((value ?? null) as Value));
      } finally {
        engine.close();
      }
    }
    return 0;
  } catch (error) {
    const data = (error as FunctionFailed).data ?? (error as { data?: unknown } | null)?.data;
    console.error(`Failed to run ${fn}: ${(error as Error).message}`);
    if (data !== undefined) console.error(`Error data: ${JSON.stringify(data)}`);
    return 1;
  }
}

async function notifyEnv(store: DataStore): Promise<void> {
  const running = await findRunning(store);
  if (running) await admin(store, running, "env", {});
}

export async function cmdEnv(positional: string[], store: DataStore): Promise<number> {
  const [action, name, ...rest] = positional;
  const env = store.readEnv();
  switch (action) {
    case "list":
    case undefined:
      for (const [key, value] of Object.entries(env).sort()) console.log(`${key}=${value}`);
      return 0;
    case "get":
      if (!name) throw new UsageError("env get NAME");
      if (!(name in env)) {
        console.error(`${name} is not set`);
        return 1;
      }
      console.log(env[name]);
      return 0;
    case "set": {
      if (!name || rest.length === 0) throw new UsageError("env set NAME value");
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new UsageError(`Invalid variable name: ${name}`);
      env[name] = rest.join(" ");
      store.writeEnv(env);
      await notifyEnv(store);
      console.log(`Set ${name}`);
      return 0;
    }
    case "remove":
    case "unset": {
      if (!name) throw new UsageError("env remove NAME");
      delete env[name];
      store.writeEnv(env);
      await notifyEnv(store);
      console.log(`Removed ${name}`);
      return 0;
    }
  }
  throw new UsageError(`Unknown env action: ${action}`);
}

export async function cmdExport(positional: string[], flags: Flags, store: DataStore): Promise<number> {
  const running = await findRunning(store, flags.port !== undefined ? num(flags, "port", 3210) : undefined);
  let snapshot: unknown;
  if (running) snapshot = await admin(store, running, "export", {});
  else {
    const engine = await offlineEngine(store, flags);
    try {
      snapshot = engine.exportSnapshot();
    } finally {
      engine.close();
    }
  }
  const text = JSON.stringify(snapshot, null, 1);
  if (positional[0]) {
    // Holds password hashes and sessions, like the data directory: owner-only.
    fs.writeFileSync(positional[0], text + "\n", { mode: 0o600 });
    const tables = (snapshot as { tables: Record<string, unknown[]> }).tables;
    const count = Object.values(tables).reduce((n, docs) => n + docs.length, 0);
    console.log(`Exported ${count} documents from ${Object.keys(tables).length} tables to ${positional[0]}`);
  } else {
    process.stdout.write(text + "\n");
  }
  return 0;
}

export async function cmdImport(positional: string[], flags: Flags, store: DataStore): Promise<number> {
  const file = positional[0];
  if (!file) throw new UsageError("import <file>");
  const running = await findRunning(store, flags.port !== undefined ? num(flags, "port", 3210) : undefined);
  let result: { documents: number; files: number };
  if (running) {
    // Streamed: the backend writes it to a file and reads that a chunk at a time.
    result = await admin<{ documents: number; files: number }>(store, running, "import", fs.createReadStream(file));
  } else {
    const engine = await offlineEngine(store, flags);
    try {
      result = await engine.importSnapshotFile(file);
      // Into the segments now, so the first start reads them instead of replaying the import from the log.
      engine.compact();
    } finally {
      engine.close();
    }
  }
  console.log(`Imported ${result.documents} documents and ${result.files} files from ${file}`);
  return 0;
}
