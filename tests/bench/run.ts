/**
 * `npm run bench`: figures for issue 9 (items 6 and 7). Prints; asserts nothing.
 *
 * 1. Queries on national-size data at 1k, 10k and 100k mics: for each size the
 *    scale generator (tests/bench/scaleData.ts, as scripts/generate-scale.ts)
 *    writes the mics plus the same 1,000 comedians with up to 10,000 sets
 *    each (comedian 0 has 10,000), the CLI imports them into a fresh data dir
 *    and the local backend process starts on it (a copy of convex/ plus
 *    tests/bench/probe.ts). Signed in as comedian 0 over HTTP, each query is
 *    measured: documents and KB read and index ranges (the engine's
 *    transaction metrics), result size, median and min HTTP round trip over 5
 *    runs: the area scene query (sceneArea.listArea, 10 and 50 mi around NYC,
 *    first and second page), the national scene list (scene.listPage, plain
 *    and with a search), Tonight (tonight.list at 6 PM New York, pages 1 and 2
 *    of 20: the time zone without a location, 10 and 50 mi around NYC, and with
 *    filters), the dashboard, the schedule week and the history
 *    (first page of 25 and a later one). Also the generator's time and size,
 *    the import, the backend's start (restore) time and its RSS.
 * 2. Realtime fan-out on the local backend process: a check-in to 200
 *    ConvexClient subscribers of that mic.
 *    And the live list: a host's reorder (nightLists.move) to 200 anonymous
 *    subscribers of nightLists.current (room screens, phones): time from the
 *    host's send to the last watcher's update, p50 and p95 over 20 moves.
 * 3. Gzip size of the JavaScript the landing and scene pages load (vite build
 *    manifest: entry + route chunk + their static imports).
 * 4. Headless Chromium: navigation to the first scene card with 1,000 mics in
 *    the area (built app against the local backend), its timeline, and the
 *    page's main-thread CPU time until then (from a Chromium trace: on a busy
 *    machine the wall time mostly measures the wait for a core); then "near me
 *    tonight": the distance filter's first card and Tonight's first rows beside
 *    the plain list (tests/bench/nearMe.ts).
 *
 * Options: --sizes 1000,10000,100000 (mic counts of the query series),
 * --comedians 1000, --max-sets 10000, --skip-queries, --skip-browser,
 * --only-browser (with --skip-queries: no fan-out, just bundle sizes and the first scene card),
 * --only-list (with --skip-queries: just the live list fan-out), --list-watchers 200,
 * --only-queries (just the query series: no fan-out, bundle sizes or browser),
 * --only-drop (just the list drop: 300 sign-ups to one list in a second, tests/bench/listDrop.ts),
 * --only-bits (just the material pages for 50 and 500 bits, tests/bench/bits.ts),
 * --only-numbers (a mic's numbers at 20 and 200 nights, the season page for 200 and 2,000 sets, tests/bench/numbers.ts),
 * --only-bursts (just 100 check-ins, then 100 logged sets, at one mic in a second, tests/bench/bursts.ts),
 * --only-restart (just the restart at each size: first query, full load, memory; tests/bench/restart.ts),
 * --only-notify (just "list opens" at 10,000 mics and 100,000 follows: documents read a run, time; tests/bench/notify.ts),
 * --only-bundle (just part 3, without a backend, with what each chunk the pages load holds: tests/bench/bundleReport.ts;
 *   with --baseline, that commit's sizes beside),
 * --baseline <git ref> (parts 3 and 4 for that commit's build too, beside this one's: tests/bench/nearMe.ts),
 * --timelines (with part 4: each "near me" scenario's median load, as the page saw it),
 * --rounds N (with part 4: loads of each "near me" scenario per build, default 3).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ConvexClient } from "convex/browser";
import { startBackend } from "../local-backend/harness";
import { backendCli } from "./backend/common";
import { bitsBench } from "./bits";
import { notifyBench } from "./notify";
import { numbersBench } from "./numbers";
import { bundleOnly } from "./bundleReport";
import { bundlesAndBrowser } from "./firstCard";
import { fanOut, listFanOut } from "./fanOut";
import { bursts } from "./bursts";
import { listDrop } from "./listDrop";
import {
  convexDir,
  ONLY_BITS,
  ONLY_BROWSER,
  ONLY_BUNDLE,
  ONLY_BURSTS,
  ONLY_NOTIFY,
  ONLY_NUMBERS,
  ONLY_DROP,
  ONLY_LIST,
  ONLY_QUERIES,
  ONLY_RESTART,
  root,
  SKIP_QUERIES,
} from "./options";
import { querySeries } from "./querySeries";
import { restartBench } from "./restart";
import { generateMic } from "./scaleData";

async function fanOutAndBrowser(): Promise<void> {
  console.log("\n== Local backend process: realtime fan-out, bundle sizes, first scene card ==");
  // 1,000 mics around New York, imported before the start.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "h17-bench-data-"));
  const snapshotFile = path.join(dataDir, "..", `${path.basename(dataDir)}.json`);
  let counter = 10_000;
  const docs = Array.from({ length: 1000 }, (_, i) => ({
    _id: (counter++).toString().padStart(32 - "sceneItems".length, "0") + "sceneItems",
    _creationTime: Date.now() - 1_000_000 + i,
    ...generateMic(i, 7, "New York"),
  }));
  fs.writeFileSync(
    snapshotFile,
    JSON.stringify({ format: "stagetime-local-backend-snapshot", version: 1, tables: { sceneItems: docs }, files: {} }),
  );
  const imported = spawnSync(
    process.execPath,
    [backendCli, "import", snapshotFile, "--data-dir", dataDir, "--functions", convexDir],
    { cwd: root, encoding: "utf8" },
  );
  if (imported.status !== 0) throw new Error(`import failed: ${imported.stderr}`);
  fs.rmSync(snapshotFile, { force: true });

  const backend = await startBackend({ functionsDir: convexDir, dataDir });
  const clients: ConvexClient[] = [];
  try {
    if (!ONLY_BROWSER && !ONLY_LIST) await fanOut(backend, clients);
    await Promise.allSettled(clients.splice(0).map((c) => c.close()));
    if (!ONLY_BROWSER) await listFanOut(backend, clients);
    await Promise.allSettled(clients.splice(0).map((c) => c.close()));
    if (!ONLY_LIST) await bundlesAndBrowser(backend);
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
    await backend.dispose();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  console.log(`StageTime bench, ${new Date().toISOString()}, ${os.cpus().length} cores, Node ${process.version}`);
  if (ONLY_DROP) {
    await listDrop();
    process.exit(0);
  }
  if (ONLY_BITS) {
    await bitsBench();
    process.exit(0);
  }
  if (ONLY_BURSTS) {
    await bursts();
    process.exit(0);
  }
  if (ONLY_NUMBERS) {
    await numbersBench();
    process.exit(0);
  }
  if (ONLY_RESTART) {
    await restartBench();
    process.exit(0);
  }
  if (ONLY_NOTIFY) {
    await notifyBench();
    process.exit(0);
  }
  if (ONLY_BUNDLE) {
    bundleOnly();
    process.exit(0);
  }
  if (!SKIP_QUERIES) await querySeries();
  if (!SKIP_QUERIES && !ONLY_QUERIES) await restartBench();
  if (!ONLY_QUERIES) await fanOutAndBrowser();
  if (!ONLY_QUERIES && !ONLY_BROWSER && !ONLY_LIST) {
    await listDrop();
    await bitsBench();
    await bursts();
    await numbersBench();
    await notifyBench();
  }
  console.log(`\nTotal ${((Date.now() - started) / 1000).toFixed(0)} s`);
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
