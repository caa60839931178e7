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
import { type ChildProcess, spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import { ConvexClient, ConvexHttpClient } from "convex/browser";
import {
  childEnv,
  type CliResult,
  cliPath,
  demoAccountsArgs,
  fixtureDir,
  freePort,
  liveGroups,
  repoRoot,
  runCli,
  tempDir,
} from "./harnessProcesses";

export { parseEnvList, readEnv, Subscription } from "./harnessClients";
export { type CliResult, fixtureDir, freePort, repoRoot, runCli, tempDir, waitFor } from "./harnessProcesses";

const READY_LINE = "Local backend ready";
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 20_000;
/** Keep the tail of the child's output for error messages, not all of it. */
const OUTPUT_LIMIT = 40_000;

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
      cliPath,
      ...demoAccountsArgs,
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
    // One node process (backend.mjs runs the CLI in the process it starts in), in its own
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
