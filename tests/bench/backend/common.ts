/**
 * What the `npm run bench:backend` modes share (tests/bench/backend.ts): flags,
 * free ports, percentiles, a process's RSS, and the one way they start and stop
 * a local backend process.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { anyApi } from "convex/server";

export const api = anyApi as any;
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** The backend CLI's own entry (the precompiled CLI, built when stale). */
export const backendCli = path.join(root, "local-backend/src/backend.mjs");

/** The app's demo accounts, passed as `npm run backend` passes them (package.json). */
export const demoAccountsArgs = ["--demo-accounts", path.join(root, "convex-dev/model/demoAccounts.json")];

/** Node arguments that run `cli`: another checkout's `local-backend/src/cli/cli.ts` runs through tsx. */
export const cliNodeArgs = (cli: string): string[] => [
  ...(cli.endsWith(".ts") ? ["--import", "tsx", cli] : [cli]),
  ...demoAccountsArgs,
];

export function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** CPU seconds (user + system) a process has used so far. */
export function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  // utime and stime are fields 14 and 15 of /proc/<pid>/stat (11 and 12 after the command).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export type BenchBackend = {
  child: ChildProcess;
  url: string;
  dataDir: string;
  /** Milliseconds from spawning the process to its "Local backend ready" line. */
  startMs: number;
  output: () => string;
  /** The data directory was made for this backend (stopBackend removes it). */
  temporary: boolean;
};

export type StartOptions = {
  /** Functions folder (default tests/bench/fixture/convex). */
  functionsDir?: string;
  /** Data directory (default: a new temporary one). */
  dataDir?: string;
  /** Set in the deployment (`env set`) before it starts. */
  deploymentEnv?: Record<string, string>;
  /** The backend process's own environment, over this one's. */
  processEnv?: Record<string, string>;
  /** Node flags before the script (e.g. a heap size). */
  nodeArgs?: string[];
  /** The CLI to run (another checkout's for a "before"; default this one's). */
  cli?: string;
};

/** Starts a local backend on free ports and waits for "Local backend ready". */
export async function startBackend(options: StartOptions = {}): Promise<BenchBackend> {
  const cli = options.cli ?? backendCli;
  const port = await freePort();
  let sitePort = await freePort();
  while (sitePort === port) sitePort = await freePort();
  const temporary = options.dataDir === undefined;
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "bench-backend-"));
  for (const [name, value] of Object.entries(options.deploymentEnv ?? {})) {
    const set = spawn(process.execPath, [...cliNodeArgs(cli), "env", "set", name, value, "--data-dir", dataDir], {
      cwd: root,
      stdio: "ignore",
    });
    const code = await new Promise((resolve) => set.once("exit", resolve));
    if (code !== 0) throw new Error(`env set ${name} failed (exit ${String(code)})`);
  }
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      ...(options.nodeArgs ?? []),
      ...cliNodeArgs(cli),
      "start",
      "--port",
      String(port),
      "--site-port",
      String(sitePort),
      "--data-dir",
      dataDir,
      "--functions",
      options.functionsDir ?? path.join(root, "tests/bench/fixture/convex"),
      "--no-seed",
      "--no-env-file",
      "--no-watch",
    ],
    { cwd: root, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...options.processEnv } },
  );
  let output = "";
  child.stdout!.setEncoding("utf8").on("data", (c: string) => (output += c));
  child.stderr!.setEncoding("utf8").on("data", (c: string) => (output += c));
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (output.includes("Local backend ready")) {
        clearInterval(timer);
        resolve();
      } else if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`backend exited:\n${output}`));
      }
    }, 20);
  });
  const startMs = performance.now() - started;
  return { child, url: `http://127.0.0.1:${port}`, dataDir, startMs, output: () => output, temporary };
}

/** Stops the backend (SIGTERM) and removes its data directory if it was a temporary one. */
export async function stopBackend(backend: BenchBackend): Promise<void> {
  if (backend.child.exitCode === null) {
    const exited = new Promise((resolve) => backend.child.once("exit", resolve));
    backend.child.kill("SIGTERM");
    await exited;
  }
  if (backend.temporary) fs.rmSync(backend.dataDir, { recursive: true, force: true });
}

/** A `/_local/<route>` admin request (stats, compact). */
export async function adminPost(backend: BenchBackend, route: string): Promise<Response> {
  const adminKey = fs.readFileSync(path.join(backend.dataDir, "admin-key"), "utf8").trim();
  return await fetch(`${backend.url}/_local/${route}`, {
    method: "POST",
    headers: { Authorization: `Convex ${adminKey}` },
  });
}

/** The backend's `/_local/stats` (query runs, contention warnings, storage). */
export async function backendStats(backend: BenchBackend): Promise<Record<string, any>> {
  return (await (await adminPost(backend, "stats")).json()) as Record<string, any>;
}
