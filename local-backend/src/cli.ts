/**
 * `npm run backend -- [start|run|env|export|import] ...`: see local-backend/README.md.
 */
import fs from "node:fs";
import path from "node:path";
import { convexToJson, jsonToConvex } from "convex/values";
import type { Engine } from "./engine.js";
import { devFunctionsDirFor } from "./devFunctions.js";
import { DataStore } from "./store.js";
import { warmFunctions } from "./warmup.js";

// The engine, servers and key generation load only for commands that need them,
// so `env` and commands against a running backend start quickly.
const loadEngine = async () => (await import("./engine.js")).Engine;

type Flags = Record<string, string | boolean>;

const BOOLEAN_FLAGS = new Set([
  "prod",
  "no-seed",
  "seed",
  "no-env-file",
  "no-watch",
  "watch",
  "no-dev-functions",
  "help",
]);

function parseArgs(argv: string[]): { positional: string[]; flags: Flags } {
  const positional: string[] = [];
  const flags: Flags = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg.startsWith("--")) {
      const [name, inline] = arg.slice(2).split("=", 2);
      if (inline !== undefined) flags[name] = inline;
      else if (BOOLEAN_FLAGS.has(name)) flags[name] = true;
      else if (i + 1 < argv.length) flags[name] = argv[++i];
      else throw new UsageError(`--${name} needs a value`);
    } else {
      positional.push(arg);
    }
  }
  return { positional, flags };
}

class UsageError extends Error {}

const USAGE = `Usage: npm run backend -- [command] [flags]

  start (default)  [--host 127.0.0.1] [--port 3210] [--site-port 3211] [--data-dir .convex-local]
                   [--functions convex] [--dev-functions convex-dev] [--no-dev-functions]
                   [--site-url http://localhost:5173] [--seed] [--no-env-file] [--no-watch] [--prod]
                   --seed: run seed:run on an empty database (demo accounts; npm run dev passes it)
                   --dev-functions: dev tools (seeding, test fixtures) loaded on top of --functions;
                     default: the folder beside it named <functions>-dev, if it exists
                   --prod: like a production deployment: errors redacted to clients, no seeding, no dev
                     functions, no watching
  run <module:function> ['<json args>']   run any function (internal too), like \`npx convex run\`
  env list | env get NAME | env set NAME value | env remove NAME
  export [file]    JSON snapshot of every table and stored file (stdout without a file)
  import <file>    replace the database with a snapshot
Common flags: --data-dir D, --functions F, --port P (of a running backend)`;

function str(flags: Flags, name: string, fallback: string): string {
  const value = flags[name];
  return typeof value === "string" ? value : fallback;
}

/**
 * The dev-tools folder to load on top of the functions folder (seed:run, fixtures:*), as a
 * deploy of the functions folder never contains it: none with --prod or --no-dev-functions.
 */
function devFunctionsDir(flags: Flags, functionsDir: string): string | null {
  if (flags.prod === true || flags["no-dev-functions"] === true) return null;
  if (typeof flags["dev-functions"] === "string") return path.resolve(flags["dev-functions"]);
  return devFunctionsDirFor(functionsDir);
}

function num(flags: Flags, name: string, fallback: number): number {
  const value = Number(str(flags, name, String(fallback)));
  if (!Number.isInteger(value) || value < 0 || value > 65535) throw new UsageError(`--${name} must be a port number`);
  return value;
}

type RunningInfo = { pid: number; apiUrl: string; siteUrl: string };

/**
 * The backend running on a data dir, if any: whoever holds the data dir's lock
 * socket (see DataStore.lock), not a pid file, so a dead backend's leftovers
 * (a zombie, a pid reused after a reboot) never count as running.
 */
async function findRunning(store: DataStore, portFlag?: number): Promise<RunningInfo | null> {
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

async function admin(store: DataStore, running: RunningInfo, route: string, body: unknown): Promise<any> {
  const response = await fetch(`${running.apiUrl}/_local/${route}`, {
    method: "POST",
    headers: { Authorization: `Convex ${store.adminKey()}`, "Content-Type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body ?? {}),
  });
  const json = await response.json();
  if (response.status === 560) throw new FunctionFailed(json.errorMessage, json.errorData);
  if (!response.ok) throw new Error(json.message ?? `HTTP ${response.status}`);
  return json;
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

async function cmdRun(positional: string[], flags: Flags, store: DataStore): Promise<number> {
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
      const result = await admin(store, running, "run", { path: fn, args: convexToJson(args as any) });
      printJson(result.value);
    } else {
      const engine = await offlineEngine(store, flags);
      try {
        const value = await engine.runAny(fn, jsonToConvex(args as any) as Record<string, unknown>);
        printJson(convexToJson((value ?? null) as any));
      } finally {
        engine.close();
      }
    }
    return 0;
  } catch (error) {
    const data = (error as FunctionFailed).data ?? (error as any)?.data;
    console.error(`Failed to run ${fn}: ${(error as Error).message}`);
    if (data !== undefined) console.error(`Error data: ${JSON.stringify(data)}`);
    return 1;
  }
}

async function notifyEnv(store: DataStore): Promise<void> {
  const running = await findRunning(store);
  if (running) await admin(store, running, "env", {});
}

async function cmdEnv(positional: string[], store: DataStore): Promise<number> {
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

async function cmdExport(positional: string[], flags: Flags, store: DataStore): Promise<number> {
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
    const tables = (snapshot as any).tables as Record<string, unknown[]>;
    const count = Object.values(tables).reduce((n, docs) => n + docs.length, 0);
    console.log(`Exported ${count} documents from ${Object.keys(tables).length} tables to ${positional[0]}`);
  } else {
    process.stdout.write(text + "\n");
  }
  return 0;
}

async function cmdImport(positional: string[], flags: Flags, store: DataStore): Promise<number> {
  const file = positional[0];
  if (!file) throw new UsageError("import <file>");
  const text = fs.readFileSync(file, "utf8");
  const running = await findRunning(store, flags.port !== undefined ? num(flags, "port", 3210) : undefined);
  let result: { documents: number; files: number };
  if (running) result = await admin(store, running, "import", text);
  else {
    const engine = await offlineEngine(store, flags);
    try {
      result = await engine.importSnapshot(JSON.parse(text));
    } finally {
      engine.close();
    }
  }
  console.log(`Imported ${result.documents} documents and ${result.files} files from ${file}`);
  return 0;
}

function writeEnvLocal(apiUrl: string): void {
  const file = path.resolve(".env.local");
  const line = `VITE_CONVEX_URL=${apiUrl}`;
  let lines: string[] = [];
  if (fs.existsSync(file)) lines = fs.readFileSync(file, "utf8").split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const index = lines.findIndex((l) => /^\s*VITE_CONVEX_URL\s*=/.test(l));
  if (index >= 0 && lines[index] === line) return; // unchanged: do not make Vite restart
  if (index >= 0) lines[index] = line;
  else lines.push(line);
  fs.writeFileSync(file, lines.join("\n") + "\n");
}

async function cmdStart(flags: Flags, store: DataStore): Promise<number> {
  const host = str(flags, "host", "127.0.0.1");
  const port = num(flags, "port", 3210);
  const sitePort = num(flags, "site-port", 3211);
  const functionsDir = path.resolve(str(flags, "functions", "convex"));
  const urlHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
  const apiUrl = `http://${urlHost}:${port}`;
  const siteUrl = `http://${urlHost}:${sitePort}`;

  const running = await findRunning(store);
  if (running) {
    console.error(`A backend (pid ${running.pid}) already serves ${store.dir} at ${running.apiUrl}.`);
    return 1;
  }

  // Early, so a Vite dev server started alongside (npm run dev) finds the URL.
  if (flags["no-env-file"] !== true) writeEnvLocal(apiUrl);

  // Environment Convex Auth needs, generated on first start.
  const env = store.readEnv();
  if (!env.JWT_PRIVATE_KEY || !env.JWKS) {
    const { generateAuthKeys } = await import("./auth.js");
    Object.assign(env, await generateAuthKeys());
  }
  if (typeof flags["site-url"] === "string") env.SITE_URL = flags["site-url"];
  else env.SITE_URL ??= "http://localhost:5173";
  env.CONVEX_SITE_URL = siteUrl;
  env.CONVEX_CLOUD_URL = apiUrl;
  store.writeEnv(env);

  const Engine = await loadEngine();
  const { startServers } = await import("./server.js");
  // Before any client connects: production redacts errors (issue 14 item 11).
  if (flags.prod === true) (await import("./sync.js")).setRedactErrors(true);
  const devDir = devFunctionsDir(flags, functionsDir);
  const engine = new Engine({ functionsDir, devFunctionsDir: devDir, dataDir: store.dir, apiUrl, siteUrl });
  try {
    await engine.init();
  } catch (error) {
    console.error((error as Error).message);
    engine.close();
    return 1;
  }
  let servers;
  try {
    servers = await startServers(engine, { host, port, sitePort });
  } catch (error) {
    console.error(`Could not listen on ${host}:${port}/${sitePort}: ${(error as Error).message}`);
    engine.close();
    return 1;
  }
  // Probes of the lock socket now learn where this backend answers.
  engine.store.lockInfo = { pid: process.pid, apiUrl, siteUrl };
  fs.writeFileSync(store.runningPath, JSON.stringify({ pid: process.pid, apiUrl, siteUrl }) + "\n", { mode: 0o600 });
  console.log(`Convex API: ${apiUrl}`);
  console.log(`HTTP actions: ${siteUrl}`);
  console.log(`Data: ${store.dir}`);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`Stopping (${signal})...`);
    try {
      await servers.close();
    } finally {
      engine.close();
      try {
        const info = JSON.parse(fs.readFileSync(store.runningPath, "utf8"));
        if (info.pid === process.pid) fs.rmSync(store.runningPath);
      } catch {
        // Already gone.
      }
      process.exit(0);
    }
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));

  // Seeding creates the demo accounts whose passwords are in the README: only
  // when asked (`npm run dev` passes --seed), never on a plain start.
  const prod = flags.prod === true;
  if (prod) {
    if (flags.seed === true) console.log("--prod: not seeding (a production deployment has no demo accounts).");
  }
  if (!prod && flags.seed === true && flags["no-seed"] !== true && engine.isEmpty()) {
    const seed = await engine.describe("seed:run").catch((error: Error) => {
      console.error(`Cannot seed: ${error.message}`);
      return null;
    });
    if (seed && seed.kind !== "query") {
      console.log("Empty database: running seed:run ...");
      try {
        const result = await engine.runAny("seed:run", {});
        console.log(
          `Seeded: ${typeof result === "string" ? result : JSON.stringify(convexToJson((result ?? null) as any), null, 2)}`,
        );
      } catch (error) {
        console.error(`Seeding failed: ${(error as Error).message}`);
      }
    }
  }

  // `--watch` wins over `--no-watch` (a test harness may pass both).
  if (!prod && (flags.watch === true || flags["no-watch"] !== true)) {
    watchFunctions(engine, devDir ? [functionsDir, devDir] : [functionsDir]);
  }
  if (devDir) console.log(`Dev functions (seeding, test fixtures) from ${devDir}`);
  if (prod)
    console.log(
      'Production mode: errors reach clients as "Server Error" (details in this log), no seeding, no dev functions, no file watching.',
    );
  console.log("Local backend ready");
  void warmFunctions(engine);
  return -1;
}

function watchFunctions(engine: Engine, dirs: string[]): void {
  let timer: NodeJS.Timeout | null = null;
  let reloading: Promise<unknown> = Promise.resolve();
  const trigger = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      reloading = reloading
        .then(() => engine.reload())
        .then(() => void warmFunctions(engine))
        .catch((error) => engine.logError(String(error)));
    }, 250);
  };
  for (const dir of dirs) {
    try {
      fs.watch(dir, { recursive: true }, (_event, file) => {
        if (!file) return trigger();
        const name = String(file);
        if (name.includes("node_modules") || path.basename(name).startsWith(".")) return;
        if (!/\.(ts|tsx|js|jsx|mjs|cjs|json)$/.test(name)) return;
        trigger();
      });
      console.log(`Watching ${dir} for changes`);
    } catch (error) {
      console.error(`Cannot watch ${dir}: ${(error as Error).message}`);
    }
  }
}

async function main(): Promise<number> {
  const { positional, flags } = parseArgs(process.argv.slice(2));
  if (flags.help) {
    console.log(USAGE);
    return 0;
  }
  const commands = new Set(["start", "run", "env", "export", "import"]);
  const command = commands.has(positional[0]) ? positional.shift()! : "start";
  if (command === "start" && positional.length > 0) throw new UsageError(`Unknown command: ${positional[0]}`);
  const store = new DataStore(str(flags, "data-dir", ".convex-local"));
  switch (command) {
    case "start":
      return await cmdStart(flags, store);
    case "run":
      return await cmdRun(positional, flags, store);
    case "env":
      return await cmdEnv(positional, store);
    case "export":
      return await cmdExport(positional, flags, store);
    case "import":
      return await cmdImport(positional, flags, store);
  }
  return 0;
}

main().then(
  (code) => {
    // Exit once what the command wrote has left: process.exit does not wait for a pipe to drain, and a
    // large `export` or `run` result was cut short. (An empty write's callback runs after the earlier ones.)
    if (code >= 0) process.stdout.write("", () => process.exit(code));
  },
  (error) => {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${USAGE}`);
      process.exit(2);
    }
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
