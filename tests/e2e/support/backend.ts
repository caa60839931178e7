import { spawn, execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

/** Repository root (this file lives in tests/e2e/support). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

const cliPath = path.join(repoRoot, "local-backend/src/backend.mjs");
/** The app's demo accounts, passed as `npm run backend` passes them (package.json). */
const demoAccountsArgs = ["--demo-accounts", path.join(repoRoot, "convex-dev/model/demoAccounts.json")];

/**
 * Node arguments that run the backend CLI in ONE process (backend.mjs runs the precompiled CLI in
 * the process it starts in), unlike the `tsx` binary which forks a child: a kill -9 must hit the
 * process that owns the data.
 */
function cliArgs(args: string[]): string[] {
  return [cliPath, ...demoAccountsArgs, ...args];
}

export type BackendOptions = {
  port: number;
  sitePort: number;
  dataDir: string;
  /** App origin, stored as SITE_URL (where OAuth sign-ins return to). */
  siteUrl: string;
  logFile: string;
  seed?: boolean;
  /** How long to wait for `Local backend ready`. */
  timeoutMs?: number;
  /** A certificate the backend trusts besides the usual ones (the test push service's). */
  extraCaCerts?: string;
};

/**
 * Starts the local backend detached (its own process group, output appended to logFile, so it
 * outlives the worker that restarted it) and resolves with its pid once it prints
 * `Local backend ready`.
 */
export async function startBackend(opts: BackendOptions): Promise<number> {
  const args = [
    "start",
    "--host",
    "127.0.0.1",
    "--port",
    String(opts.port),
    "--site-port",
    String(opts.sitePort),
    "--data-dir",
    opts.dataDir,
    "--functions",
    path.join(repoRoot, "convex"),
    "--no-env-file",
    "--no-watch",
    "--site-url",
    opts.siteUrl,
  ];
  // A plain start never seeds: the journeys rely on the demo scene, so ask for it.
  args.push(opts.seed === false ? "--no-seed" : "--seed");
  const startOffset = fs.existsSync(opts.logFile) ? fs.statSync(opts.logFile).size : 0;
  const out = fs.openSync(opts.logFile, "a");
  const child = spawn(process.execPath, cliArgs(args), {
    cwd: repoRoot,
    detached: true,
    stdio: ["ignore", out, out],
    env: {
      ...process.env,
      NODE_ENV: "test",
      ...(opts.extraCaCerts ? { NODE_EXTRA_CA_CERTS: opts.extraCaCerts } : {}),
    },
  });
  fs.closeSync(out);
  child.unref();
  const pid = child.pid;
  if (pid === undefined) throw new Error("Could not spawn the local backend");
  let exitCode: number | null = null;
  child.once("exit", (code, signal) => {
    exitCode = code ?? (signal ? 128 : 1);
  });

  const deadline = Date.now() + (opts.timeoutMs ?? 120_000);
  for (;;) {
    const log = readFrom(opts.logFile, startOffset);
    if (log.includes("Local backend ready")) return pid;
    if (exitCode !== null) {
      throw new Error(`The local backend exited (code ${exitCode}) before it was ready:\n${tail(log)}`);
    }
    if (Date.now() > deadline) {
      killGroup(pid, "SIGKILL");
      throw new Error(`The local backend was not ready after ${opts.timeoutMs ?? 120_000} ms:\n${tail(log)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

function readFrom(file: string, offset: number): string {
  try {
    const buf = fs.readFileSync(file);
    return buf.subarray(offset).toString("utf8");
  } catch {
    return "";
  }
}

function tail(text: string, lines = 40): string {
  return text.split("\n").slice(-lines).join("\n");
}

/** True while a process with this pid exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Sends a signal to the backend's whole process group (it was spawned detached). */
export function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/** Stops the backend: SIGTERM, then SIGKILL if it is still there after graceMs. */
export async function stopBackend(pid: number, graceMs = 5_000): Promise<void> {
  if (!isAlive(pid)) return;
  killGroup(pid, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (isAlive(pid)) killGroup(pid, "SIGKILL");
  await waitForExit(pid, 5_000);
}

/** Resolves when the pid is gone (or after timeoutMs). */
export async function waitForExit(pid: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

/** `cli env remove NAME --data-dir D` (works with or without a running backend). */
export async function envRemove(dataDir: string, name: string): Promise<void> {
  await execFileAsync(process.execPath, cliArgs(["env", "remove", name, "--data-dir", dataDir]), {
    cwd: repoRoot,
    timeout: 60_000,
  });
}

/** `cli env set NAME value --data-dir D` (works with or without a running backend). */
export async function envSet(dataDir: string, name: string, value: string): Promise<void> {
  await execFileAsync(process.execPath, cliArgs(["env", "set", name, value, "--data-dir", dataDir]), {
    cwd: repoRoot,
    timeout: 60_000,
  });
}

/**
 * Runs any Convex function (internal ones too) through the backend CLI, like `npx convex run`,
 * and returns its parsed JSON result (or the raw output when it is not JSON).
 */
export async function runFunction(
  dataDir: string,
  port: number,
  name: string,
  args: Record<string, unknown> = {},
): Promise<unknown> {
  let stdout: string;
  try {
    ({ stdout } = await execFileAsync(
      process.execPath,
      cliArgs([
        "run",
        name,
        JSON.stringify(args),
        "--data-dir",
        dataDir,
        "--port",
        String(port),
        "--functions",
        path.join(repoRoot, "convex"),
      ]),
      { cwd: repoRoot, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 },
    ));
  } catch (error) {
    const e = error as { stderr?: string; stdout?: string; message: string };
    throw new Error(`run ${name} failed: ${e.message}\n${e.stdout ?? ""}\n${e.stderr ?? ""}`);
  }
  return parseCliOutput(stdout);
}

/** The CLI prints the JSON result, possibly after log lines: take the last parsable chunk. */
export function parseCliOutput(stdout: string): unknown {
  const text = stdout.trim();
  if (text === "") return null;
  try {
    return JSON.parse(text);
  } catch {
    const lines = text.split("\n");
    for (let i = lines.length - 1; i >= 0; i--) {
      try {
        return JSON.parse(lines.slice(i).join("\n"));
      } catch {
        // keep widening the chunk upwards
      }
    }
    return text;
  }
}
