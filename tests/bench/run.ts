/**
 * `npm run bench`: figures for issue 9 (items 6 and 7). Prints; asserts nothing.
 *
 * 1. Queries at 1k, 10k and 100k mics on the local backend process (a copy of
 *    convex/ plus tests/bench/probe.ts): documents and bytes read (the
 *    engine's transaction metrics) and the median HTTP round trip of
 *    the area scene query (sceneArea.listArea), the current scene.list, the
 *    dashboard summary, the schedule week and the history's first page, for a
 *    comedian with 10,000 sets.
 * 2. Realtime fan-out on the local backend process: a check-in to 200
 *    ConvexClient subscribers of that mic.
 * 3. Gzip size of the JavaScript the landing and scene pages load (vite build
 *    manifest: entry + route chunk + their static imports).
 * 4. Headless Chromium: navigation to the first scene card with 1,000 mics in
 *    the area (built app against the local backend).
 *
 * Options: --max-mics 100000 (stop the query series earlier), --skip-browser.
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
import { goalWeek, scheduleWeek } from "../../convex/lib/weeks";
import { startBackend, type Backend } from "../local-backend/harness";
import { generateMic } from "./scaleData";

const api = anyApi as any;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const convexDir = path.join(root, "convex");

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}
const MAX_MICS = Number(flag("max-mics", "100000"));
const SKIP_BROWSER = process.argv.includes("--skip-browser");
const HEAVY_SETS = 10_000;
const NYC = { lat: 40.7128, lng: -74.006 };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => `${x.toFixed(1)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
function row(cells: Array<string | number>, widths: number[]): string {
  return cells.map((c, i) => String(c).padEnd(widths[i])).join("  ");
}

type Measure = { documentsRead: number; bytesRead: number; databaseQueries: number; resultBytes: number; result: unknown };

/**
 * The probe module, added to a copy of convex/ for the benchmark only: the
 * measuring query plus public seeding mutations (never part of the app).
 */
function probeSource(): string {
  const scale = path.join(root, "tests/bench/scaleData.ts");
  const probe = path.join(root, "tests/bench/probe.ts");
  return `import { mutation } from "./_generated/server";
import { v } from "convex/values";
import { getAuthUserId } from "@convex-dev/auth/server";
import { generateMic, generateSets, summarizeSets } from ${JSON.stringify(scale)};
export { measure } from ${JSON.stringify(probe)};

export const seedMics = mutation({
  args: { start: v.number(), end: v.number() },
  handler: async (ctx, { start, end }) => {
    const ids = [];
    for (let i = start; i < end; i++) ids.push(await ctx.db.insert("sceneItems", generateMic(i)));
    return ids;
  },
});

/** The caller's sets number [from, to) of a ${HEAVY_SETS}-set history at the given mics; the last batch also writes the stats rows. */
export const seedSets = mutation({
  args: { micIds: v.array(v.id("sceneItems")), from: v.number(), to: v.number(), nowMs: v.number(), today: v.string() },
  handler: async (ctx, { micIds, from, to, nowMs, today }) => {
    const userId = await getAuthUserId(ctx);
    if (userId === null) throw new Error("sign in first");
    const sets = generateSets(${HEAVY_SETS}, micIds.map((_, i) => i), nowMs, 31);
    for (const set of sets.slice(from, to)) {
      await ctx.db.insert("performances", { userId, minutes: set.minutes, performedAt: set.performedAt,
        performanceDate: set.performanceDate, sceneItemId: micIds[set.micIndex], tags: set.tags });
    }
    if (to >= sets.length) {
      const summary = summarizeSets(sets, today);
      const old = await ctx.db.query("userStats").withIndex("by_userId", (q) => q.eq("userId", userId)).unique();
      if (old) await ctx.db.delete("userStats", old._id);
      await ctx.db.insert("userStats", { userId, ...summary.stats });
      for (const [date, n] of summary.days) await ctx.db.insert("performanceDays", { userId, date, sets: n });
      for (const [i, n] of summary.venues) await ctx.db.insert("venueVisits", { userId, sceneItemId: micIds[i], sets: n });
      for (const id of micIds) await ctx.db.insert("scheduleEntries", { userId, sceneItemId: id, addedAt: nowMs - 86400000 });
    }
    return null;
  },
});
`;
}

async function querySeries(): Promise<void> {
  console.log("\n== Queries on the local backend process (the app's convex/ functions, over HTTP) ==");
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "h17-bench-fns-"));
  const functionsDir = path.join(work, "convex");
  fs.cpSync(convexDir, functionsDir, {
    recursive: true,
    filter: (src) => !/\.test\.ts$|test\.setup\.ts$/.test(src),
  });
  fs.writeFileSync(path.join(functionsDir, "benchProbe.ts"), probeSource());
  const backend = await startBackend({ functionsDir });
  try {
    const nowMs = Date.now();
    const today = new Date(nowMs).toISOString().slice(0, 10);
    const http = new ConvexHttpClient(backend.url, { logger: false });
    const signed = (await http.action(api.auth.signIn, {
      provider: "password",
      params: { email: "bench-heavy@example.com", password: "punchline-42", flow: "signUp" },
    })) as { tokens: { token: string } };
    http.setAuth(signed.tokens.token);

    let mics = 0;
    const micIds: string[] = [];
    const addMics = async (upTo: number) => {
      for (; mics < upTo; mics = Math.min(upTo, mics + 2000)) {
        const ids = (await http.mutation(api.benchProbe.seedMics, { start: mics, end: Math.min(upTo, mics + 2000) })) as string[];
        if (micIds.length < 5) micIds.push(...ids.slice(0, 5 - micIds.length));
      }
    };
    const loadStarted = Date.now();
    await addMics(1000);
    for (let from = 0; from < HEAVY_SETS; from += 2000) {
      await http.mutation(api.benchProbe.seedSets, { micIds, from, to: from + 2000, nowMs, today });
    }
    console.log(
      `Signed up one comedian and gave them ${HEAVY_SETS.toLocaleString("en-US")} sets over ~${Math.round(HEAVY_SETS / 3.4)} nights ` +
        `(with stats, day and venue rows) in ${((Date.now() - loadStarted) / 1000).toFixed(1)} s.\n` +
        "(These queries read only the caller's rows, so other comedians' sets do not change them;\n" +
        " scripts/generate-scale.ts makes the full 1,000 comedians for a local backend data dir.)",
    );

    const goal = goalWeek(nowMs, "UTC");
    const week = scheduleWeek(nowMs, "UTC");
    const hourMs = Math.floor(nowMs / 3_600_000) * 3_600_000;
    const queries: Array<[string, string, Record<string, unknown>]> = [
      ["scene area, 10 mi NYC, 1st page of 50", "sceneArea:listArea", { ...NYC, radiusMiles: 10, paginationOpts: { numItems: 50, cursor: null } }],
      ["scene area, 50 mi NYC, 1st page of 50", "sceneArea:listArea", { ...NYC, radiusMiles: 50, paginationOpts: { numItems: 50, cursor: null } }],
      ["scene.list (current, all active)", "scene:list", {}],
      ["dashboard.summary (10k sets)", "dashboard:summary", { goalWeekStartMs: goal.startMs, goalWeekEndMs: goal.endMs, today }],
      ["schedule.week", "schedule:week", { weekStartMs: week.startMs, weekEndMs: week.endMs, nowMs: hourMs }],
      ["history.list (first page of 25)", "history:list", { paginationOpts: { numItems: 25, cursor: null } }],
    ];
    const widths = [38, 10, 9, 8, 10, 11, 11];
    for (const size of [1000, 10_000, 100_000].filter((n) => n <= MAX_MICS)) {
      const started = Date.now();
      await addMics(size);
      console.log(`\n-- ${size.toLocaleString("en-US")} mics nationwide (seeded in ${((Date.now() - started) / 1000).toFixed(1)} s) --`);
      console.log(row(["query", "docs read", "KB read", "ranges", "result", "median", "min"], widths));
      for (const [label, name, args] of queries) {
        const p0 = performance.now();
        const m = (await http.query(api.benchProbe.measure, { name, args })) as Measure;
        const times: number[] = [];
        // The engine filters whole tables per range: at 100k the measuring run's own round trip is
        // the one timed run the budget allows.
        if (size >= 100_000) times.push(performance.now() - p0);
        for (let i = 0; i < (size >= 100_000 ? 0 : 5); i++) {
          const t0 = performance.now();
          await http.query(name as never, args as never);
          times.push(performance.now() - t0);
        }
        const result = m.result as { page?: unknown[] } | unknown[];
        const items = Array.isArray(result) ? result.length : Array.isArray(result?.page) ? result.page.length : null;
        console.log(
          row([label, m.documentsRead, (m.bytesRead / 1024).toFixed(1), m.databaseQueries, kb(m.resultBytes), ms(median(times)), ms(Math.min(...times))], widths) +
            (items !== null ? ` (${items} items)` : ""),
        );
      }
    }
    console.log(
      "\nDocuments read and ranges (index queries) come from the engine's transaction metrics (the counters\n" +
        "behind Convex's limits); median and min over 5 runs (at 100k one run: the measuring query's own round trip).\n" +
        "Times are HTTP round trips to the local backend, whose engine keeps each table in memory and filters\n" +
        "it per index range, so its times grow with the table even where the documents read do not; on Convex\n" +
        "an index range costs what it reads. scene.list stops at 2,000 items (its take).",
    );
  } finally {
    await backend.dispose();
    fs.rmSync(work, { recursive: true, force: true });
  }
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
  fs.writeFileSync(snapshotFile, JSON.stringify({ format: "stagetime-local-backend-snapshot", version: 1, tables: { sceneItems: docs }, files: {} }));
  const imported = spawnSync(
    process.execPath,
    ["--import", "tsx", path.join(root, "local-backend/src/cli.ts"), "import", snapshotFile, "--data-dir", dataDir, "--functions", convexDir],
    { cwd: root, encoding: "utf8" },
  );
  if (imported.status !== 0) throw new Error(`import failed: ${imported.stderr}`);
  fs.rmSync(snapshotFile, { force: true });

  const backend = await startBackend({ functionsDir: convexDir, dataDir });
  const clients: ConvexClient[] = [];
  try {
    await fanOut(backend, clients);
    await Promise.allSettled(clients.splice(0).map((c) => c.close()));
    await bundlesAndBrowser(backend);
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
    "scene:insertForTest",
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
  console.log(`\nRealtime fan-out: a check-in (HTTP mutation) to ${SUBSCRIBERS} ConvexClient subscribers of scene.get, 1,000 other mics, 5 check-ins`);
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

async function bundlesAndBrowser(backend: Backend): Promise<void> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "h17-bench-dist-"));
  const build = spawnSync(process.execPath, [path.join(root, "node_modules/vite/bin/vite.js"), "build", "--manifest", "--outDir", outDir, "--emptyOutDir", "--logLevel", "error"], {
    cwd: root,
    env: { ...process.env, VITE_CONVEX_URL: backend.url },
    encoding: "utf8",
  });
  if (build.status !== 0) throw new Error(`vite build failed:\n${build.stdout}\n${build.stderr}`);
  const manifest = JSON.parse(fs.readFileSync(path.join(outDir, ".vite/manifest.json"), "utf8")) as Record<string, ManifestChunk>;
  const entry = Object.keys(manifest).find((k) => manifest[k].isEntry)!;
  console.log("\nJavaScript loaded per page (vite build --manifest: entry + route chunk + static imports, gzip -9)");
  for (const [label, route] of [
    ["landing (/)", "src/routes/Landing.tsx"],
    ["scene (/scene)", "src/routes/Scene.tsx"],
  ] as const) {
    const files = routeFiles(manifest, [entry, route]);
    const raw = files.reduce((n, f) => n + fs.statSync(path.join(outDir, f)).size, 0);
    const gz = files.reduce((n, f) => n + gzipOf(path.join(outDir, f)), 0);
    console.log(`  ${label.padEnd(16)} ${kb(gz)} gzip (${kb(raw)} raw, ${files.length} files)${label.startsWith("landing") ? "; target < 200 KB" : ""}`);
  }
  const allJs = Object.values(manifest).map((c) => c.file).filter((f, i, a) => f.endsWith(".js") && a.indexOf(f) === i);
  console.log(`  whole app        ${kb(allJs.reduce((n, f) => n + gzipOf(path.join(outDir, f)), 0))} gzip over ${allJs.length} chunks`);

  if (SKIP_BROWSER) {
    fs.rmSync(outDir, { recursive: true, force: true });
    return;
  }
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    let file = path.join(outDir, decodeURIComponent(url.pathname));
    if (!file.startsWith(outDir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) file = path.join(outDir, "index.html");
    const type = file.endsWith(".js") ? "text/javascript" : file.endsWith(".css") ? "text/css" : file.endsWith(".html") ? "text/html" : "application/octet-stream";
    res.writeHead(200, { "content-type": type });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const appUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  try {
    const times: number[] = [];
    let cards = 0;
    for (let i = 0; i < 2; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const t0 = performance.now();
      await page.goto(`${appUrl}/scene`);
      await page.locator('[data-testid="scene-card"]').first().waitFor({ state: "visible", timeout: 60_000 });
      times.push(performance.now() - t0);
      cards = await page.locator('[data-testid="scene-card"]').count();
      await context.close();
    }
    console.log(
      `\nHeadless Chromium, navigation to the first scene card (/scene, 1,000 mics around New York, signed out, fresh context each):`,
    );
    console.log(`  first load ${ms(times[0])}; second load (HTTP cache warm) ${ms(times[1])}; cards rendered ${cards}`);
  } finally {
    await browser.close();
    server.close();
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  console.log(`StageTime bench, ${new Date().toISOString()}, ${os.cpus().length} cores, Node ${process.version}`);
  await querySeries();
  await fanOutAndBrowser();
  console.log(`\nTotal ${((Date.now() - started) / 1000).toFixed(0)} s`);
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
