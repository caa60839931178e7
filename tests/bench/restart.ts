/**
 * `npm run bench -- --only-restart`: a restart of the local backend on national data (1k / 10k / 100k
 * mics). For each size the scale generator's snapshot is imported into a fresh data dir, the backend
 * started once (the CLI import compacted what it wrote already) and stopped, then started again: the restart.
 * From the restart's spawn it times the first answer to the scene's opening query (what the page's
 * inline script asks for first), the moment every table is loaded (`/_local/stats`: no document left
 * unparsed) and the resident memory then, per document. Prints each beside its target, with the CPU
 * seconds the backend had used by then (on a busy machine the wall times mostly measure the wait for a core).
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { backendCli, demoAccountsArgs, freePort } from "./backend/common";
import { COMEDIANS, convexDir, fmt, MAX_SETS, mib, root, row, secs, SIZES } from "./options";
import { importScaleSnapshot, writeScaleSnapshot } from "./scaleData";

/** Targets at 100k mics (about 764,000 documents). */
const FIRST_QUERY_TARGET_MS = 3000;
const FULL_LOAD_TARGET_MS = 10_000;
const BYTES_PER_DOC_TARGET = 800;

/** The scene's opening page, as the page's inline script asks for it before the app runs. */
const OPENING_QUERY = {
  path: "scene:listPage",
  args: { type: "all", day: null, search: "", paginationOpts: { numItems: 24, cursor: null } },
  format: "json",
};

type Restart = {
  readyMs: number;
  firstQueryMs: number;
  fullLoadMs: number;
  rss: number;
  documents: number;
  /** CPU seconds the backend had used by its first answer, and once fully loaded. */
  firstQueryCpu: number;
  fullLoadCpu: number;
};

/** CPU seconds (user + system) a process has used so far (on a busy machine, what the wall time cannot show). */
function cpuOf(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) * 1024 : 0;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts the backend on `dataDir` and times its way to answering and to loading everything. */
export async function startAndTime(
  dataDir: string,
): Promise<{ child: ChildProcess; output: () => string; figures: Restart }> {
  const port = await freePort();
  let sitePort = await freePort();
  while (sitePort === port) sitePort = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: Record<string, string | undefined> = { ...process.env };
  delete env.NODE_OPTIONS;
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      backendCli,
      ...demoAccountsArgs,
      "start",
      "--port",
      String(port),
      "--site-port",
      String(sitePort),
      "--data-dir",
      dataDir,
      "--functions",
      convexDir,
      "--no-seed",
      "--no-env-file",
      "--no-watch",
    ],
    { cwd: root, stdio: ["ignore", "pipe", "pipe"], env },
  );
  let output = "";
  let readyMs = NaN;
  const onData = (c: string) => {
    output += c;
    if (Number.isNaN(readyMs) && output.includes("Local backend ready")) readyMs = performance.now() - started;
  };
  child.stdout!.setEncoding("utf8").on("data", onData);
  child.stderr!.setEncoding("utf8").on("data", onData);
  const alive = () => {
    if (child.exitCode !== null) throw new Error(`backend exited:\n${output}`);
  };
  // The first client query: asked again every 20 ms until it is answered.
  let firstQueryMs = NaN;
  let firstQueryCpu = NaN;
  while (Number.isNaN(firstQueryMs)) {
    alive();
    try {
      const res = await fetch(`${url}/api/query`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(OPENING_QUERY),
      });
      const body = (await res.json()) as { status?: string; errorMessage?: string };
      if (res.ok && body.status === "success") {
        firstQueryMs = performance.now() - started;
        firstQueryCpu = cpuOf(child.pid!);
      } else throw new Error(`the opening query failed: ${JSON.stringify(body)}`);
    } catch (error) {
      if (error instanceof Error && error.message.startsWith("the opening query")) throw error;
      await sleep(20);
    }
  }
  // Fully loaded: nothing left to parse or build (asked every 50 ms).
  const adminKey = fs.readFileSync(path.join(dataDir, "admin-key"), "utf8").trim();
  let stats: Record<string, any> = {};
  for (;;) {
    alive();
    const res = await fetch(`${url}/_local/stats`, {
      method: "POST",
      headers: { Authorization: `Convex ${adminKey}` },
    });
    stats = (await res.json()) as Record<string, any>;
    if (stats.unparsedDocuments === 0) break;
    await sleep(50);
  }
  const fullLoadMs = performance.now() - started;
  const fullLoadCpu = cpuOf(child.pid!);
  const rss = rssOf(child.pid!);
  return {
    child,
    output: () => output,
    figures: { readyMs, firstQueryMs, fullLoadMs, rss, documents: Number(stats.documents), firstQueryCpu, fullLoadCpu },
  };
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

const mark = (ok: boolean) => (ok ? "met" : "NOT met");

export async function restartBench(): Promise<void> {
  console.log("\n== A restart of the local backend on national data (the app's convex/ functions) ==");
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "stagetime-restart-"));
  const nowMs = Date.now();
  try {
    for (const size of SIZES) {
      const snapshot = path.join(work, `scale-${size}.json`);
      const dataDir = path.join(work, `data-${size}`);
      const summary = await writeScaleSnapshot({
        mics: size,
        comedians: COMEDIANS,
        maxSets: MAX_SETS,
        out: snapshot,
        nowMs,
      });
      const importMs = importScaleSnapshot(snapshot, dataDir, convexDir);
      fs.rmSync(snapshot, { force: true });
      console.log(
        `\n-- ${fmt(size)} mics nationwide (${fmt(summary.documents)} documents; CLI import ${secs(importMs)}) --`,
      );
      const widths = [30, 12, 22, 22, 22];
      console.log(row(["start", "ready line", "first query (CPU)", "full load (CPU)", "RSS (per document)"], widths));
      for (const label of ["first start after the import", "restart"]) {
        const load = os.loadavg()[0];
        const { child, figures: f } = await startAndTime(dataDir);
        await stop(child);
        const perDoc = f.rss / f.documents;
        console.log(
          row(
            [
              label,
              secs(f.readyMs),
              `${secs(f.firstQueryMs)} (${f.firstQueryCpu.toFixed(1)} s)`,
              `${secs(f.fullLoadMs)} (${f.fullLoadCpu.toFixed(1)} s)`,
              `${mib(f.rss)} (${fmt(Math.round(perDoc))} B)`,
            ],
            widths,
          ) + `  load average ${load.toFixed(1)}`,
        );
        if (label === "restart") {
          console.log(
            `  targets (set for 100k mics): first query < ${secs(FIRST_QUERY_TARGET_MS)} ` +
              `${mark(f.firstQueryMs < FIRST_QUERY_TARGET_MS)}, full load < ${secs(FULL_LOAD_TARGET_MS)} ` +
              `${mark(f.fullLoadMs < FULL_LOAD_TARGET_MS)}, RSS < ${BYTES_PER_DOC_TARGET} B/document ` +
              `${mark(perDoc < BYTES_PER_DOC_TARGET)}`,
          );
        }
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
