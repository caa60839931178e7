/**
 * The processes the local backend tests start: free ports, temporary
 * directories, the backend's CLI as a child process, its environment, and
 * polling until a condition holds. Backends themselves: harness.ts.
 */
import { spawn } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root, where the backend's CLI is run from. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** The functions folder every test runs against. */
export const fixtureDir = path.join(repoRoot, "tests/local-backend/fixture/convex");
/** The backend's CLI as `npm run backend` runs it: precompiled (local-backend/src/backend.mjs), no tsx. */
export const cliPath = path.join(repoRoot, "local-backend/src/backend.mjs");
/** The app's demo accounts, passed on every run as `npm run backend` passes them (package.json). */
export const demoAccountsArgs = ["--demo-accounts", path.join(repoRoot, "convex-dev/model/demoAccounts.json")];

/** Process groups of backends still running, killed if the test process exits
 * without disposing them (they run detached, so nothing else would). */
export const liveGroups = new Set<number>();
process.once("exit", () => {
  for (const pid of liveGroups) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
});

/** A TCP port nothing listens on right now (the OS picks it for port 0). */
export async function freePort(): Promise<number> {
  return await new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      if (address === null || typeof address === "string") {
        server.close();
        reject(new Error("could not get a free port"));
        return;
      }
      const { port } = address;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Polls `check` until it returns a truthy value (which is returned) or the time
 * runs out; then throws with `message` and the last value or error seen.
 */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  {
    timeoutMs = 30_000,
    intervalMs = 50,
    message = "condition",
  }: { timeoutMs?: number; intervalMs?: number; message?: string } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
      last = value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      const detail = last instanceof Error ? last.message : JSON.stringify(last);
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${message}; last: ${detail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** What a finished CLI command printed. */
export type CliResult = { code: number | null; stdout: string; stderr: string };

/**
 * Runs the backend's CLI (`node local-backend/src/backend.mjs ...args`) from the
 * repository root and resolves when it exits (it never rejects on a non-zero
 * exit code: tests assert on `code`).
 */
export async function runCli(
  args: string[],
  {
    timeoutMs = 60_000,
    demoAccounts = true,
    nodeArgs = [],
  }: { timeoutMs?: number; demoAccounts?: boolean; nodeArgs?: string[] } = {},
): Promise<CliResult> {
  return await new Promise<CliResult>((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, cliPath, ...(demoAccounts ? demoAccountsArgs : []), ...args], {
      cwd: repoRoot,
      env: childEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`CLI ${args.join(" ")} timed out after ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export function childEnv(): NodeJS.ProcessEnv {
  // The child must not think it runs inside vitest, and must not pick up a
  // deployment of the developer's shell.
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" };
  for (const name of Object.keys(env)) {
    if (name.startsWith("VITEST") || name.startsWith("CONVEX_") || name === "NODE_OPTIONS") delete env[name];
  }
  delete env.NODE_ENV;
  return env;
}

/** Makes a fresh temporary directory (for data dirs and exports). */
export async function tempDir(prefix = "stagetime-lb-"): Promise<string> {
  return await mkdtemp(path.join(os.tmpdir(), prefix));
}
