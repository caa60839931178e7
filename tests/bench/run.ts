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
 *    machine the wall time mostly measures the wait for a core).
 *
 * Options: --sizes 1000,10000,100000 (mic counts of the query series),
 * --comedians 1000, --max-sets 10000, --skip-queries, --skip-browser,
 * --only-browser (with --skip-queries: no fan-out, just bundle sizes and the first scene card),
 * --only-list (with --skip-queries: just the live list fan-out), --list-watchers 200,
 * --only-queries (just the query series: no fan-out, bundle sizes or browser).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import { ConvexClient, ConvexHttpClient } from "convex/browser";
import { anyApi } from "convex/server";
import { chromium } from "playwright-core";
import { localDateString, zonedEpoch } from "../../convex/lib/time";
import { goalWeek, scheduleWeek } from "../../convex/lib/weeks";
import { startBackend, type Backend } from "../local-backend/harness";
import { generateMic, importScaleSnapshot, writeScaleSnapshot } from "./scaleData";

const api = anyApi as any;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const convexDir = path.join(root, "convex");

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}
const SIZES = flag("sizes", "1000,10000,100000")
  .split(",")
  .map((n) => Number(n.trim()))
  .filter((n) => Number.isInteger(n) && n > 0);
const COMEDIANS = Number(flag("comedians", "1000"));
const MAX_SETS = Number(flag("max-sets", "10000"));
const SKIP_QUERIES = process.argv.includes("--skip-queries");
const SKIP_BROWSER = process.argv.includes("--skip-browser");
const ONLY_BROWSER = process.argv.includes("--only-browser");
const ONLY_LIST = process.argv.includes("--only-list");
const ONLY_QUERIES = process.argv.includes("--only-queries");
const LIST_WATCHERS = Number(flag("list-watchers", "200"));
const RUNS = 5;
const NYC = { lat: 40.7128, lng: -74.006 };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => `${x.toFixed(1)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const secs = (x: number) => `${(x / 1000).toFixed(1)} s`;
const fmt = (n: number) => n.toLocaleString("en-US");
function row(cells: Array<string | number>, widths: number[]): string {
  return cells.map((c, i) => String(c).padEnd(widths[i])).join("  ");
}

type Measure = {
  documentsRead: number;
  bytesRead: number;
  databaseQueries: number;
  resultBytes: number;
  result: unknown;
};
type Paged = { page: unknown[]; continueCursor: string; isDone: boolean };

/** The measuring module, added to a copy of convex/ for the benchmark only (never part of the app). */
function probeSource(): string {
  return `export { measure } from ${JSON.stringify(path.join(root, "tests/bench/probe.ts"))};\n`;
}

/** A process's resident set size from /proc (Linux), or null. */
function rssOf(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/**
 * The local backend process on a big data dir (the test harness's backend with
 * room for the heap and a long wait for the restore), and how long it took to start.
 */
async function startBigBackend(dataDir: string, functionsDir: string): Promise<{ backend: Backend; startMs: number }> {
  const started = performance.now();
  const backend = await startBackend({
    dataDir,
    functionsDir,
    nodeArgs: ["--max-old-space-size=12288"],
    startTimeoutMs: 15 * 60_000,
  });
  return { backend, startMs: performance.now() - started };
}

async function querySeries(): Promise<void> {
  console.log(
    "\n== Queries on generated national data (the local backend process, the app's convex/ functions, over HTTP) ==",
  );
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "stagetime-bench-"));
  const functionsDir = path.join(work, "convex");
  fs.cpSync(convexDir, functionsDir, {
    recursive: true,
    filter: (src) => !/\.test\.ts$|test\.setup\.ts$|test\.registry\.ts$/.test(src),
  });
  fs.writeFileSync(path.join(functionsDir, "benchProbe.ts"), probeSource());
  // One clock for every size: the same comedians with the same sets each time.
  const nowMs = Date.now();
  const today = new Date(nowMs).toISOString().slice(0, 10);
  const goal = goalWeek(nowMs, "UTC");
  const week = scheduleWeek(nowMs, "UTC");
  const hourMs = Math.floor(nowMs / 3_600_000) * 3_600_000;
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
      const importMs = importScaleSnapshot(snapshot, dataDir, functionsDir);
      fs.rmSync(snapshot, { force: true });
      const { backend, startMs } = await startBigBackend(dataDir, functionsDir);
      const rss = () => rssOf(backend.pid);
      try {
        console.log(
          `\n-- ${fmt(size)} mics nationwide, ${fmt(COMEDIANS)} comedians, ${fmt(summary.totalSets)} sets ` +
            `(${fmt(summary.documents)} documents) --`,
        );
        console.log(
          `generator ${secs(summary.ms)}, snapshot ${mib(summary.bytes)}; CLI import ${secs(importMs)}; ` +
            `backend start (restore) ${secs(startMs)}, RSS ${rss() === null ? "n/a" : mib(rss()!)}`,
        );
        const client = new ConvexHttpClient(backend.url, { logger: false });
        const signed = (await client.action(api.auth.signIn, {
          provider: "password",
          params: { email: summary.comedian0.email, password: summary.comedian0.password, flow: "signIn" },
        })) as { tokens: { token: string } };
        client.setAuth(signed.tokens.token);
        await measureQueries(client, { today, goal, week, hourMs, sets: summary.comedian0.sets });
        console.log(`backend RSS after the queries ${rss() === null ? "n/a" : mib(rss()!)}`);
      } finally {
        await backend.dispose();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    }
    console.log(
      "\nDocuments read, KB read and ranges (index ranges and gets) come from the engine's transaction metrics\n" +
        `(the counters behind Convex's limits), measured by one run inside a query; median and min over ${RUNS}\n` +
        "timed HTTP round trips to the local backend process. The comedian is generated comedian 0 (10,000 sets).",
    );
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

async function measureQueries(
  client: ConvexHttpClient,
  ctx: {
    today: string;
    goal: { startMs: number; endMs: number };
    week: { startMs: number; endMs: number };
    hourMs: number;
    sets: number;
  },
): Promise<void> {
  const widths = [52, 10, 9, 7, 10, 10, 10];
  console.log(row(["query", "docs read", "KB read", "ranges", "result", "median", "min"], widths));
  const measure = async (label: string, name: string, args: Record<string, unknown>): Promise<unknown> => {
    const m = (await client.query(api.benchProbe.measure, { name, args })) as Measure;
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await client.query(name as never, args as never);
      times.push(performance.now() - t0);
    }
    const result = m.result as (Partial<Paged> & { nights?: unknown[] }) | unknown[];
    const items = Array.isArray(result)
      ? result.length
      : Array.isArray(result?.page)
        ? result.page.length
        : Array.isArray(result?.nights)
          ? result.nights.length
          : null;
    console.log(
      row(
        [
          label,
          m.documentsRead,
          (m.bytesRead / 1024).toFixed(1),
          m.databaseQueries,
          kb(m.resultBytes),
          ms(median(times)),
          ms(Math.min(...times)),
        ],
        widths,
      ) + (items !== null ? ` (${items} items)` : ""),
    );
    return m.result;
  };

  for (const radiusMiles of [10, 50]) {
    const args = { ...NYC, radiusMiles, paginationOpts: { numItems: 50, cursor: null } };
    const first = (await measure(
      `scene area ${radiusMiles} mi NYC, page 1 of 50`,
      "sceneArea:listArea",
      args,
    )) as Paged;
    if (!first.isDone) {
      await measure(`scene area ${radiusMiles} mi NYC, page 2`, "sceneArea:listArea", {
        ...args,
        paginationOpts: { numItems: 50, cursor: first.continueCursor },
      });
    }
  }
  const list = { type: "all", day: null, search: "", paginationOpts: { numItems: 24, cursor: null } };
  await measure("scene.listPage (all, page 1 of 24)", "scene:listPage", list);
  await measure('scene.listPage (search "chicago")', "scene:listPage", { ...list, search: "chicago" });
  await measure('scene.listPage (search "laugh factory")', "scene:listPage", { ...list, search: "laugh factory" });
  // Tonight at 6 PM in New York (each size's data has the same weekday mix), a page of 20 at a time:
  // documents read follow the page (plus one row ahead per index range merged), not the zone's or area's total.
  const evening = zonedEpoch(localDateString(ctx.hourMs, "America/New_York"), "18:00", "America/New_York");
  const tonight = {
    nowMs: evening,
    timeZone: "America/New_York",
    type: "all",
    search: "",
    filters: { freeOnly: false, signup: "any", timeOfDay: "any", hideStale: false },
  };
  const tonightPages = async (label: string, args: Record<string, unknown>) => {
    const first = (await measure(`${label}, page 1 of 20`, "tonight:list", {
      ...args,
      paginationOpts: { numItems: 20, cursor: null },
    })) as Paged;
    if (!first.isDone) {
      await measure(`${label}, page 2`, "tonight:list", {
        ...args,
        paginationOpts: { numItems: 20, cursor: first.continueCursor },
      });
    }
  };
  await tonightPages("tonight.list (New York zone)", tonight);
  await tonightPages("tonight.list (10 mi NYC)", { ...tonight, area: { ...NYC, radiusMiles: 10 } });
  await tonightPages("tonight.list (50 mi NYC)", { ...tonight, area: { ...NYC, radiusMiles: 50 } });
  await tonightPages("tonight.list (10 mi NYC, free, after 9 PM)", {
    ...tonight,
    area: { ...NYC, radiusMiles: 10 },
    filters: { ...tonight.filters, freeOnly: true, timeOfDay: "late" },
  });
  await measure(`dashboard.summary (${fmt(ctx.sets)} sets)`, "dashboard:summary", {
    goalWeekStartMs: ctx.goal.startMs,
    goalWeekEndMs: ctx.goal.endMs,
    today: ctx.today,
  });
  await measure("schedule.week", "schedule:week", {
    weekStartMs: ctx.week.startMs,
    weekEndMs: ctx.week.endMs,
    nowMs: ctx.hourMs,
  });
  const history = { paginationOpts: { numItems: 25, cursor: null as string | null } };
  await measure("history.list (page 1 of 25)", "history:list", history);
  // Walk to page 200 (sets 4,976-5,000), a page deep in a 10,000-set history (or the last page of a shorter one).
  let cursor: string | null = null;
  let later = 1;
  while (later < 200) {
    const page = (await client.query(api.history.list, { paginationOpts: { numItems: 25, cursor } })) as Paged;
    if (page.isDone) break;
    cursor = page.continueCursor;
    later++;
  }
  await measure(`history.list (page ${later}: sets ${fmt((later - 1) * 25 + 1)}-${fmt(later * 25)})`, "history:list", {
    paginationOpts: { numItems: 25, cursor },
  });
}

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
    [
      "--import",
      "tsx",
      path.join(root, "local-backend/src/cli.ts"),
      "import",
      snapshotFile,
      "--data-dir",
      dataDir,
      "--functions",
      convexDir,
    ],
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

async function fanOut(backend: Backend, clients: ConvexClient[]): Promise<void> {
  const now = new Date();
  const hhmm = `${String(now.getUTCHours()).padStart(2, "0")}:${String(now.getUTCMinutes()).padStart(2, "0")}`;
  const run = await backend.cli([
    "run",
    "fixtures:insertSceneItem",
    JSON.stringify({
      title: "Fan-out Mic",
      venueName: "Fan-out Room",
      city: "New York",
      type: "open_mic",
      latitude: NYC.lat,
      longitude: NYC.lng,
      dayOfWeek: now.getUTCDay(),
      startTimeLocal: hhmm,
      recurrence: "weekly",
      timeZone: "UTC",
    }),
  ]);
  if (run.code !== 0) throw new Error(run.stderr);
  const micId = JSON.parse(run.stdout.trim()) as string;

  const SUBSCRIBERS = 200;
  const counts: number[] = new Array(SUBSCRIBERS).fill(-1);
  const arrivals: number[][] = Array.from({ length: SUBSCRIBERS }, () => []);
  for (let i = 0; i < SUBSCRIBERS; i++) {
    const client = new ConvexClient(backend.url, { unsavedChangesWarning: false, logger: false });
    clients.push(client);
    client.onUpdate(api.scene.get, { id: micId }, (item: { checkInCount: number } | null) => {
      counts[i] = item?.checkInCount ?? -1;
      arrivals[i][counts[i]] = performance.now();
    });
  }
  const waitAll = async (value: number) => {
    const deadline = Date.now() + 60_000;
    while (!counts.every((c) => c === value)) {
      if (Date.now() > deadline) throw new Error(`subscribers did not all see ${value}`);
      await new Promise((r) => setTimeout(r, 2));
    }
  };
  const subscribeStarted = performance.now();
  await waitAll(0);
  const subscribeMs = performance.now() - subscribeStarted;

  const samples: Array<{ response: number; first: number; last: number; lastFromSend: number }> = [];
  for (let k = 1; k <= 5; k++) {
    const httpClient = new ConvexHttpClient(backend.url, { logger: false });
    const signed = (await httpClient.action(api.auth.signIn, {
      provider: "password",
      params: { email: `fanout-${k}-${Date.now()}@example.com`, password: "punchline-42", flow: "signUp" },
    })) as { tokens: { token: string } };
    httpClient.setAuth(signed.tokens.token);
    const sent = performance.now();
    await httpClient.mutation(api.checkIns.checkIn, { sceneItemId: micId, latitude: NYC.lat, longitude: NYC.lng });
    const responded = performance.now();
    await waitAll(k);
    const times = arrivals.map((a) => a[k]);
    samples.push({
      response: responded - sent,
      first: Math.min(...times) - responded,
      last: Math.max(...times) - responded,
      lastFromSend: Math.max(...times) - sent,
    });
  }
  console.log(
    `\nRealtime fan-out: a check-in (HTTP mutation) to ${SUBSCRIBERS} ConvexClient subscribers of scene.get, 1,000 other mics, 5 check-ins`,
  );
  console.log(`  (${SUBSCRIBERS} clients connected and got their first result in ${ms(subscribeMs)})`);
  for (const [i, s] of samples.entries()) {
    console.log(
      `  #${i + 1}: mutation ${ms(s.response)}; after its response first subscriber +${ms(s.first)}, last +${ms(s.last)}; send to last ${ms(s.lastFromSend)}`,
    );
  }
  console.log(
    `  median send-to-last-subscriber: ${ms(median(samples.map((s) => s.lastFromSend)))} (subscribers run in this process, so their parsing counts too)`,
  );
}

/** The live list: a host's reorder to LIST_WATCHERS subscribers of the list, send to last watcher. */
async function listFanOut(backend: Backend, clients: ConvexClient[]): Promise<void> {
  const email = `bench-host-${Date.now()}@example.com`;
  const host = new ConvexHttpClient(backend.url, { logger: false });
  const signed = (await host.action(api.auth.signIn, {
    provider: "password",
    params: { email, password: "punchline-42", flow: "signUp" },
  })) as { tokens: { token: string } };
  host.setAuth(signed.tokens.token);
  const admin = await backend.cli(["run", "admin:setAdmin", JSON.stringify({ email, isAdmin: true })]);
  if (admin.code !== 0) throw new Error(admin.stderr);
  const now = new Date();
  const today = now.toISOString().slice(0, 10);
  const yesterday = new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10);
  const run = await backend.cli([
    "run",
    "fixtures:insertSceneItem",
    JSON.stringify({
      title: "Bench List Mic",
      venueName: "Bench List Room",
      city: "New York",
      type: "open_mic",
      dayOfWeek: now.getUTCDay(),
      startTimeLocal: "23:59",
      recurrence: "weekly",
      timeZone: "UTC",
    }),
  ]);
  if (run.code !== 0) throw new Error(run.stderr);
  const micId = JSON.parse(run.stdout.trim()) as string;
  const listId = (await host.mutation(api.nightLists.open, {
    micId,
    date: today,
    spots: 20,
    lightMinutes: 1,
    mode: "first_come",
    signupOpensAt: Date.now() - 60_000,
  })) as string;
  for (let i = 0; i < 20; i++) await host.mutation(api.nightLists.addWalkIn, { listId, name: `Walk-in ${i + 1}` });

  type Seen = { version: number; list: Array<{ _id: string }> };
  const versions: number[] = new Array(LIST_WATCHERS).fill(-1);
  const arrivals: Array<Map<number, number>> = Array.from({ length: LIST_WATCHERS }, () => new Map());
  let latest: Seen | null = null;
  for (let i = 0; i < LIST_WATCHERS; i++) {
    const client = new ConvexClient(backend.url, { unsavedChangesWarning: false, logger: false });
    clients.push(client);
    client.onUpdate(api.nightLists.current, { micId, sinceDate: yesterday }, (value: { list: Seen | null }) => {
      if (value.list === null) return;
      versions[i] = value.list.version;
      arrivals[i].set(value.list.version, performance.now());
      if (i === 0) latest = value.list;
    });
  }
  const waitAll = async (version: number) => {
    const deadline = Date.now() + 60_000;
    while (!versions.every((v) => v >= version)) {
      if (Date.now() > deadline) throw new Error(`list watchers did not all see version ${version}`);
      await new Promise((r) => setTimeout(r, 1));
    }
  };
  const subscribeStarted = performance.now();
  while (latest === null) await new Promise((r) => setTimeout(r, 5));
  await waitAll((latest as Seen).version);
  const subscribeMs = performance.now() - subscribeStarted;

  const MOVES = 20;
  const samples: number[] = [];
  for (let k = 0; k < MOVES; k++) {
    const seen = latest as unknown as Seen;
    const last = seen.list[seen.list.length - 1];
    const sent = performance.now();
    await host.mutation(api.nightLists.move, { listId, spotId: last._id, toIndex: 0, version: seen.version });
    await waitAll(seen.version + 1);
    samples.push(Math.max(...arrivals.map((a) => a.get(seen.version + 1) ?? Number.POSITIVE_INFINITY)) - sent);
  }
  const sorted = [...samples].sort((a, b) => a - b);
  const p95 = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)];
  console.log(
    `\nLive list fan-out: a host's reorder (HTTP mutation) to ${LIST_WATCHERS} ConvexClient subscribers of nightLists.current (20 spots), ${MOVES} moves`,
  );
  console.log(`  (${LIST_WATCHERS} clients connected and got their first result in ${ms(subscribeMs)})`);
  console.log(
    `  host send to last watcher: p50 ${ms(median(samples))}, p95 ${ms(p95)}, max ${ms(sorted[sorted.length - 1])}`,
  );
}

type ManifestChunk = { file: string; imports?: string[]; dynamicImports?: string[]; isEntry?: boolean; css?: string[] };

function gzipOf(file: string): number {
  return zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
}

/** Files a route loads before it renders: the entry, the route chunk and their static imports. */
function routeFiles(manifest: Record<string, ManifestChunk>, keys: string[]): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`manifest has no ${key}`);
    seen.add(key);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  keys.forEach(visit);
  return [...seen].map((k) => manifest[k].file).filter((f) => f.endsWith(".js"));
}

/**
 * From a Chromium trace: the renderer main thread's tasks from the navigation to
 * the "bench-first-card" mark, as CPU time and wall time. The CPU time is
 * what the page itself cost; on a busy machine the wall time also holds the waits for a core.
 */
function mainThreadUntil(trace: Buffer): string {
  type Event = { ph: string; name: string; pid: number; tid: number; ts: number; dur?: number; tdur?: number };
  const parsed = JSON.parse(trace.toString("utf8")) as { traceEvents?: Event[] } | Event[];
  const events = Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
  const end = events.find((e) => e.name === "bench-first-card");
  if (!end) return "n/a";
  const thread = (e: Event) => `${e.pid}:${e.tid}`;
  const starts = events.filter((e) => e.name === "navigationStart" && thread(e) === thread(end) && e.ts <= end.ts);
  const start = starts.length > 0 ? starts[starts.length - 1].ts : Number.NEGATIVE_INFINITY;
  let cpu = 0;
  let wall = 0;
  for (const e of events) {
    if (e.ph !== "X" || e.name !== "RunTask" || thread(e) !== thread(end)) continue;
    if (e.ts + (e.dur ?? 0) < start || e.ts > end.ts) continue;
    cpu += (e.tdur ?? 0) / 1000;
    wall += (e.dur ?? 0) / 1000;
  }
  return `${ms(cpu)} CPU (${ms(wall)} wall)`;
}

/** Scene cards in the page once the count stops changing (the first paint carries only the first few). */
async function settledCount(page: import("playwright-core").Page): Promise<number> {
  await page
    .waitForFunction(() => document.querySelectorAll('[data-testid="scene-card"]').length >= 24, null, {
      timeout: 10_000,
    })
    .catch(() => undefined);
  return await page.locator('[data-testid="scene-card"]').count();
}

async function bundlesAndBrowser(backend: Backend): Promise<void> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "h17-bench-dist-"));
  const build = spawnSync(
    process.execPath,
    [
      path.join(root, "node_modules/vite/bin/vite.js"),
      "build",
      "--manifest",
      "--outDir",
      outDir,
      "--emptyOutDir",
      "--logLevel",
      "error",
    ],
    {
      cwd: root,
      env: { ...process.env, VITE_CONVEX_URL: backend.url },
      encoding: "utf8",
    },
  );
  if (build.status !== 0) throw new Error(`vite build failed:\n${build.stdout}\n${build.stderr}`);
  const manifest = JSON.parse(fs.readFileSync(path.join(outDir, ".vite/manifest.json"), "utf8")) as Record<
    string,
    ManifestChunk
  >;
  const entry = Object.keys(manifest).find((k) => manifest[k].isEntry)!;
  console.log("\nJavaScript loaded per page (vite build --manifest: entry + route chunk + static imports, gzip -9)");
  for (const [label, route] of [
    ["landing (/)", "src/routes/Landing.tsx"],
    ["scene (/scene)", "src/routes/Scene.tsx"],
  ] as const) {
    const files = routeFiles(manifest, [entry, route]);
    const raw = files.reduce((n, f) => n + fs.statSync(path.join(outDir, f)).size, 0);
    const gz = files.reduce((n, f) => n + gzipOf(path.join(outDir, f)), 0);
    console.log(
      `  ${label.padEnd(16)} ${kb(gz)} gzip (${kb(raw)} raw, ${files.length} files); target < ${label.startsWith("landing") ? 200 : 170} KB`,
    );
  }
  const allJs = Object.values(manifest)
    .map((c) => c.file)
    .filter((f, i, a) => f.endsWith(".js") && a.indexOf(f) === i);
  console.log(
    `  whole app        ${kb(allJs.reduce((n, f) => n + gzipOf(path.join(outDir, f)), 0))} gzip over ${allJs.length} chunks`,
  );

  if (SKIP_BROWSER) {
    fs.rmSync(outDir, { recursive: true, force: true });
    return;
  }
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    let file = path.join(outDir, decodeURIComponent(url.pathname));
    if (!file.startsWith(outDir) || !fs.existsSync(file) || fs.statSync(file).isDirectory())
      file = path.join(outDir, "index.html");
    const type = file.endsWith(".js")
      ? "text/javascript"
      : file.endsWith(".css")
        ? "text/css"
        : file.endsWith(".html")
          ? "text/html"
          : "application/octet-stream";
    res.writeHead(200, { "content-type": type });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const appUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  try {
    const times: number[] = [];
    const timelines: string[] = [];
    const mainThread: string[] = [];
    let cards = 0;
    for (let i = 0; i < 2; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      // What the first card waits for: the route chunk's request, the WebSocket's
      // opening, the first query result (a Transition with modifications).
      const marks: Record<string, number> = {};
      const mark = (name: string) => {
        marks[name] ??= performance.now();
      };
      page.on("request", (req) => {
        if (/\/assets\/Scene-[^/]*\.js$/.test(req.url())) mark("scene chunk requested");
      });
      page.on("requestfinished", (req) => {
        if (/\/assets\/index-[^/]*\.js$/.test(req.url())) mark("entry JS loaded");
      });
      page.on("websocket", (ws) => {
        mark("WebSocket opened");
        ws.on("framereceived", (frame) => {
          const text = typeof frame.payload === "string" ? frame.payload : frame.payload.toString();
          if (text.includes('"Transition"') && text.includes('"QueryUpdated"')) mark("first query result");
          if (text.includes('"Transition"') && text.includes('"continueCursor"')) mark("scene list page result");
        });
      });
      await browser.startTracing(page, {
        categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing"],
      });
      const t0 = performance.now();
      await page.goto(`${appUrl}/scene`);
      await page.locator('[data-testid="scene-card"]').first().waitFor({ state: "visible", timeout: 60_000 });
      times.push(performance.now() - t0);
      // The trace ends at a mark made as soon as the card is seen (a few ms of polling late at most).
      await page.evaluate(() => performance.mark("bench-first-card"));
      mainThread.push(mainThreadUntil(await browser.stopTracing()));
      timelines.push(
        Object.entries(marks)
          .sort((a, b) => a[1] - b[1])
          .map(([name, at]) => `${name} ${ms(at - t0)}`)
          .join(", "),
      );
      cards = await settledCount(page);
      await context.close();
    }
    console.log(
      `\nHeadless Chromium, navigation to the first scene card (/scene, 1,000 mics around New York, signed out, fresh context each):`,
    );
    console.log(`  first load ${ms(times[0])}; second load (HTTP cache warm) ${ms(times[1])}; cards rendered ${cards}`);
    console.log(`  first load timeline: ${timelines[0]}, first card ${ms(times[0])}`);
    console.log(`  second load timeline: ${timelines[1]}, first card ${ms(times[1])}`);
    console.log(`  page main thread until the first card: first load ${mainThread[0]}; second load ${mainThread[1]}`);

    // The same with the distance filter on (location granted in Manhattan): the
    // area query's first page, timed from navigation (the switch is turned on as
    // soon as it shows) to the first card.
    const areaTimes: number[] = [];
    let areaCards = 0;
    for (let i = 0; i < 2; i++) {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        geolocation: { latitude: NYC.lat, longitude: NYC.lng },
        permissions: ["geolocation"],
      });
      const page = await context.newPage();
      const t0 = performance.now();
      await page.goto(`${appUrl}/scene`);
      await page.getByRole("switch", { name: "Filter by distance" }).click();
      await page.getByText("Within 25 miles").waitFor({ state: "visible", timeout: 60_000 });
      await page
        .getByTestId("result-count")
        .filter({ hasText: "nearby" })
        .waitFor({ state: "visible", timeout: 60_000 });
      await page.locator('[data-testid="scene-card"]').first().waitFor({ state: "visible", timeout: 60_000 });
      areaTimes.push(performance.now() - t0);
      areaCards = await settledCount(page);
      await context.close();
    }
    console.log(`Same, with the distance filter on (25 miles around Manhattan, area query):`);
    console.log(`  first load ${ms(areaTimes[0])}; second load ${ms(areaTimes[1])}; cards rendered ${areaCards}`);
  } finally {
    await browser.close();
    server.close();
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  console.log(`StageTime bench, ${new Date().toISOString()}, ${os.cpus().length} cores, Node ${process.version}`);
  if (!SKIP_QUERIES) await querySeries();
  if (!ONLY_QUERIES) await fanOutAndBrowser();
  console.log(`\nTotal ${((Date.now() - started) / 1000).toFixed(0)} s`);
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
