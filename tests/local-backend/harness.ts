/**
 * Test harness for the local backend conformance suite: starts the backend as a
 * child process on free ports over the fixture functions, with a temporary data
 * directory, and hands out the official `convex` clients pointed at it.
 *
 * ```ts
 * const backend = await startBackend();
 * const client = backend.client();
 * ...
 * await backend.dispose();
 * ```
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ConvexClient, ConvexHttpClient } from "convex/browser";
import type { FunctionArgs, FunctionReference, FunctionReturnType } from "convex/server";

/** The repository root, where the backend's CLI is run from. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** The functions folder every test runs against. */
export const fixtureDir = path.join(repoRoot, "tests/local-backend/fixture/convex");
const cliPath = path.join(repoRoot, "local-backend/src/cli.ts");

const READY_LINE = "Local backend ready";
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 20_000;
/** Keep the tail of the child's output for error messages, not all of it. */
const OUTPUT_LIMIT = 40_000;

/** Process groups of backends still running, killed if the test process exits
 * without disposing them (they run detached, so nothing else would). */
const liveGroups = new Set<number>();
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
 * Runs the backend's CLI (`tsx local-backend/src/cli.ts ...args`) from the
 * repository root and resolves when it exits (it never rejects on a non-zero
 * exit code: tests assert on `code`).
 */
export async function runCli(args: string[], { timeoutMs = 60_000 }: { timeoutMs?: number } = {}): Promise<CliResult> {
  return await new Promise<CliResult>((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", cliPath, ...args], {
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

function childEnv(): NodeJS.ProcessEnv {
  // The child must not think it runs inside vitest, and must not pick up a
  // deployment of the developer's shell.
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" };
  for (const name of Object.keys(env)) {
    if (name.startsWith("VITEST") || name.startsWith("CONVEX_") || name === "NODE_OPTIONS") delete env[name];
  }
  delete env.NODE_ENV;
  return env;
}

/** Options of {@link startBackend}. */
export type BackendOptions = {
  /** Functions folder; the fixture by default. */
  functionsDir?: string;
  /** Reuse a data directory (it is then not removed on dispose). */
  dataDir?: string;
  /** Extra CLI flags after the fixed ones. */
  extraArgs?: string[];
  /** Watch the functions folder (the tests pass --no-watch unless this is set). */
  watch?: boolean;
  /** Node flags before the CLI (e.g. a bigger heap for a national-size data dir). */
  nodeArgs?: string[];
  /** How long to wait for `Local backend ready` (a big restore takes minutes). */
  startTimeoutMs?: number;
  /** The seeding flag passed to `start` (`--no-seed` unless set; null: none, a plain start). */
  seedFlag?: "--no-seed" | "--seed" | null;
  /** Extra environment variables of the backend process (e.g. a shorter time limit knob). */
  env?: Record<string, string>;
};

/**
 * A running local backend child process. Use {@link startBackend} to get one;
 * `dispose()` closes every client it handed out, stops the process and removes
 * its temporary data directory.
 */
export class Backend {
  /** The Convex API URL (what `ConvexClient` and `ConvexHttpClient` take). */
  readonly url: string;
  /** The HTTP actions site URL (`convex/http.ts` routes). */
  readonly siteUrl: string;
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private log = "";
  private logTotal = 0;
  private readonly clients: ConvexClient[] = [];

  constructor(
    readonly port: number,
    readonly sitePort: number,
    readonly dataDir: string,
    readonly functionsDir: string,
    private readonly ownsDataDir: boolean,
    private readonly extraArgs: string[],
    private readonly watch = false,
    private readonly nodeArgs: string[] = [],
    private readonly startTimeoutMs = START_TIMEOUT_MS,
    private readonly seedFlag: "--no-seed" | "--seed" | null = "--no-seed",
    private readonly env: Record<string, string> = {},
  ) {
    this.url = `http://127.0.0.1:${port}`;
    this.siteUrl = `http://127.0.0.1:${sitePort}`;
  }

  /** Everything the current (or last) child process printed, most recent part. */
  get output(): string {
    return this.log;
  }

  /** A position in the output stream, for {@link Backend.outputSince}. */
  mark(): number {
    return this.logTotal;
  }

  /** What the process printed after `mark` (as far as the kept tail reaches). */
  outputSince(mark: number): string {
    const length = Math.min(this.logTotal - mark, this.log.length);
    return length > 0 ? this.log.slice(-length) : "";
  }

  /** The child's process id while it runs (for /proc figures such as RSS). */
  get pid(): number | undefined {
    return this.running ? this.child!.pid : undefined;
  }

  /** Whether the child process is alive. */
  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Starts the child and resolves once it prints `Local backend ready`. */
  async start(): Promise<void> {
    if (this.running) throw new Error("backend already running");
    this.log = "";
    const args = [
      ...this.nodeArgs,
      "--import",
      "tsx",
      cliPath,
      "start",
      "--host",
      "127.0.0.1",
      "--port",
      String(this.port),
      "--site-port",
      String(this.sitePort),
      "--data-dir",
      this.dataDir,
      "--functions",
      this.functionsDir,
      ...(this.seedFlag ? [this.seedFlag] : []),
      "--no-env-file",
      ...(this.watch ? [] : ["--no-watch"]),
      ...this.extraArgs,
    ];
    // One node process (tsx as a loader rather than its relaying CLI), in its own
    // process group, so that kill -9 really kills the server and whatever it spawned.
    const child = spawn(process.execPath, args, {
      cwd: repoRoot,
      env: { ...childEnv(), ...this.env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    this.child = child;
    if (child.pid !== undefined) liveGroups.add(child.pid);
    this.exited = new Promise<void>((resolve) =>
      child.once("exit", () => {
        resolve();
      }),
    );
    const append = (chunk: string) => {
      this.log = (this.log + chunk).slice(-OUTPUT_LIMIT);
      this.logTotal += chunk.length;
    };
    child.stdout!.setEncoding("utf8").on("data", append);
    child.stderr!.setEncoding("utf8").on("data", append);

    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        cleanup();
        this.signalGroup("SIGKILL");
        reject(
          new Error(`Backend did not print "${READY_LINE}" within ${this.startTimeoutMs} ms. Output:\n${this.log}`),
        );
      }, this.startTimeoutMs);
      const onData = () => {
        if (this.log.includes(READY_LINE)) {
          cleanup();
          resolve();
        }
      };
      const onExit = (code: number | null, signal: string | null) => {
        cleanup();
        reject(new Error(`Backend exited (code ${code}, signal ${signal}) before it was ready. Output:\n${this.log}`));
      };
      const cleanup = () => {
        clearTimeout(timer);
        child.stdout!.off("data", onData);
        child.stderr!.off("data", onData);
        child.off("exit", onExit);
      };
      child.stdout!.on("data", onData);
      child.stderr!.on("data", onData);
      child.once("exit", onExit);
    });
  }

  private signalGroup(signal: NodeJS.Signals): void {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // Already gone.
    }
  }

  /**
   * Graceful stop: SIGTERM, then SIGKILL if it has not exited in 20 s. Resolves
   * with how it ended, so a test can insist that SIGTERM alone was enough.
   */
  async stop(): Promise<"graceful" | "forced" | "not-running"> {
    if (!this.running) return "not-running";
    const pid = this.child!.pid!;
    try {
      process.kill(pid, "SIGTERM");
    } catch {
      // Already gone.
    }
    const timedOut = await Promise.race([
      this.exited.then(() => false),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(true), STOP_TIMEOUT_MS)),
    ]);
    if (timedOut) {
      this.signalGroup("SIGKILL");
      await this.exited;
    }
    // Helpers it may have started die with it.
    this.signalGroup("SIGKILL");
    liveGroups.delete(pid);
    return timedOut ? "forced" : "graceful";
  }

  /** `kill -9` of the whole process group: no chance to flush anything. */
  async kill(): Promise<void> {
    if (!this.running) return;
    this.signalGroup("SIGKILL");
    await this.exited;
    liveGroups.delete(this.child!.pid!);
  }

  /** Starts again on the same ports and data directory (after stop or kill). */
  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /**
   * A `ConvexClient` (WebSocket) connected to this backend; closed by dispose().
   * It outlives restarts of the backend and reconnects by itself.
   */
  client(): ConvexClient {
    const client = new ConvexClient(this.url, { unsavedChangesWarning: false });
    this.clients.push(client);
    return client;
  }

  /** A `ConvexHttpClient` (the HTTP API) for this backend. */
  httpClient(): ConvexHttpClient {
    return new ConvexHttpClient(this.url);
  }

  /** Runs the CLI with `--data-dir` of this backend appended. */
  async cli(args: string[], options: { withFunctions?: boolean } = {}): Promise<CliResult> {
    const extra = ["--data-dir", this.dataDir];
    if (options.withFunctions) extra.push("--functions", this.functionsDir);
    return await runCli([...args, ...extra]);
  }

  /** Closes the clients, stops the process and removes the temporary data. */
  async dispose(): Promise<void> {
    await Promise.allSettled(this.clients.splice(0).map((client) => client.close()));
    await this.stop();
    if (this.ownsDataDir) await rm(this.dataDir, { recursive: true, force: true });
  }
}

/** Makes a fresh temporary directory (for data dirs and exports). */
export async function tempDir(prefix = "stagetime-lb-"): Promise<string> {
  return await mkdtemp(path.join(os.tmpdir(), prefix));
}

/** Starts a backend on two free ports with a new temporary data directory. */
export async function startBackend(options: BackendOptions = {}): Promise<Backend> {
  const port = await freePort();
  let sitePort = await freePort();
  while (sitePort === port) sitePort = await freePort();
  const dataDir = options.dataDir ?? (await tempDir());
  const backend = new Backend(
    port,
    sitePort,
    dataDir,
    options.functionsDir ?? fixtureDir,
    options.dataDir === undefined,
    options.extraArgs ?? [],
    options.watch ?? false,
    options.nodeArgs ?? [],
    options.startTimeoutMs ?? START_TIMEOUT_MS,
    options.seedFlag === undefined ? "--no-seed" : options.seedFlag,
    options.env ?? {},
  );
  try {
    await backend.start();
  } catch (error) {
    await backend.dispose();
    throw error;
  }
  return backend;
}

/**
 * Records every result a `ConvexClient` subscription delivers, in order, and
 * lets a test wait for one that satisfies a predicate.
 */
export class Subscription<Query extends FunctionReference<"query">> {
  /** Every value delivered to the callback, in delivery order. */
  readonly values: FunctionReturnType<Query>[] = [];
  /** Every error delivered to the error callback. */
  readonly errors: Error[] = [];
  readonly unsubscribe: () => void;

  constructor(client: ConvexClient, query: Query, args: FunctionArgs<Query>) {
    this.unsubscribe = client.onUpdate(
      query,
      args,
      (value) => {
        this.values.push(value);
      },
      (error) => {
        this.errors.push(error);
      },
    );
  }

  /** The most recent value, or undefined before the first. */
  get latest(): FunctionReturnType<Query> | undefined {
    return this.values[this.values.length - 1];
  }

  /** Waits for a delivered value (the latest one) that satisfies `predicate`. */
  async waitFor(
    predicate: (value: FunctionReturnType<Query>) => boolean,
    message = "a matching subscription value",
    timeoutMs = 30_000,
  ): Promise<FunctionReturnType<Query>> {
    try {
      const box = await waitFor(
        () =>
          this.values.length > 0 && predicate(this.latest as FunctionReturnType<Query>) ? { v: this.latest } : null,
        { timeoutMs, message },
      );
      return box.v as FunctionReturnType<Query>;
    } catch (error) {
      const seen = JSON.stringify(this.latest)?.slice(0, 2000);
      const errors = this.errors.map((e) => e.message).join("; ");
      throw new Error(`${(error as Error).message}; latest value: ${seen}; errors: ${errors || "none"}`);
    }
  }
}

/**
 * Parses the output of `env list` (`NAME=value` lines, as `npx convex env list`
 * prints them). A PEM value printed over several lines is joined back.
 */
export function parseEnvList(output: string): Record<string, string> {
  const env: Record<string, string> = {};
  let pending: string | null = null;
  for (const line of output.split(/\r?\n/)) {
    if (pending !== null) {
      env[pending] += `\n${line}`;
      if (/-----END [A-Z ]+-----/.test(line)) pending = null;
      continue;
    }
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (!match) continue;
    const [, name, value] = match;
    env[name] = value;
    if (/-----BEGIN [A-Z ]+-----/.test(value) && !/-----END [A-Z ]+-----/.test(value)) pending = name;
  }
  return env;
}

/** The backend's environment variables, read through its `env list` command. */
export async function readEnv(backend: Backend): Promise<Record<string, string>> {
  const result = await backend.cli(["env", "list"]);
  if (result.code !== 0) throw new Error(`env list failed (${result.code}):\n${result.stdout}\n${result.stderr}`);
  return parseEnvList(result.stdout);
}
