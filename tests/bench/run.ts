/**
 * `npm run bench`: figures for issue 9 (items 6 and 7). Prints; asserts nothing.
 *
 * 1. Queries at 1k, 10k and 100k mics (convex-test in this process, the same
 *    engine the local backend runs, with the app's convex/ modules): documents
 *    and bytes read (the engine's transaction metrics) and the median time of
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
import { convexTest } from "convex-test";
import { chromium } from "playwright-core";
import schema from "../../convex/schema";
import { goalWeek, scheduleWeek } from "../../convex/lib/weeks";
import { startBackend, type Backend } from "../local-backend/harness";
import { generateMic, generateSets, setCountFor, summarizeSets } from "./scaleData";

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
const OTHER_COMEDIANS = 99;
const OTHER_MAX_SETS = 2_000;
const NYC = { lat: 40.7128, lng: -74.006 };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => `${x.toFixed(1)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
function row(cells: Array<string | number>, widths: number[]): string {
  return cells.map((c, i) => String(c).padEnd(widths[i])).join("  ");
}

/** convex/ as convex-test's module map (what import.meta.glob gives the function tests), plus the probe. */
function moduleMap(): Record<string, () => Promise<unknown>> {
  const modules: Record<string, () => Promise<unknown>> = {};
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(ts|js)$/.test(entry.name) && !/\.test\.ts$|test\.setup\.ts$|\.d\.ts$/.test(entry.name)) {
        const key = "./" + path.relative(convexDir, full).split(path.sep).join("/");
        modules[key] = () => import(full);
      }
    }
  };
  walk(convexDir);
  modules["./benchProbe.ts"] = () => import("./probe");
  return modules;
}

type Measure = { documentsRead: number; bytesRead: number; resultBytes: number; result: unknown };

async function querySeries(): Promise<void> {
  console.log("\n== Queries (convex-test engine in process, the app's convex/ functions) ==");
  const t = convexTest({ schema, modules: moduleMap(), transactionLimits: true });
  const nowMs = Date.now();
  const today = new Date(nowMs).toISOString().slice(0, 10);

  // Mics first (the comedians' sets point at some of them), 2,000 per transaction.
  const micIds: string[] = [];
  const addMics = async (upTo: number) => {
    for (let start = micIds.length; start < upTo; start += 2000) {
      const end = Math.min(upTo, start + 2000);
      const ids = await t.run(async (ctx) => {
        const out: string[] = [];
        for (let i = start; i < end; i++) out.push(await ctx.db.insert("sceneItems", generateMic(i)));
        return out;
      });
      micIds.push(...ids);
    }
  };
  const loadStarted = Date.now();
  await addMics(1000);

  // The heavy comedian (10,000 sets at NYC mics) and 99 others with a long tail.
  const nycMics = micIds.filter((_, i) => generateMic(i).city === "New York").slice(0, 5);
  let totalSets = 0;
  let heavy: { userId: string; sessionId: string } | null = null;
  for (let c = 0; c <= OTHER_COMEDIANS; c++) {
    const count = c === 0 ? HEAVY_SETS : setCountFor(c, OTHER_MAX_SETS);
    const homeIdx = nycMics.map((id) => micIds.indexOf(id));
    const sets = generateSets(count, homeIdx, nowMs, 31 + c);
    const summary = summarizeSets(sets, today);
    totalSets += sets.length;
    const ids = await t.run(async (ctx) => {
      const userId = await ctx.db.insert("users", { email: `bench${c}@example.com`, name: `Bench Comic ${c}` });
      const sessionId = await ctx.db.insert("authSessions", { userId, expirationTime: nowMs + 86_400_000 });
      await ctx.db.insert("profiles", {
        userId,
        displayName: `Bench Comic ${c}`,
        onboardingCompleted: true,
        needsOnboarding: false,
        weeklyGoalMinutes: 15,
        timeZone: "UTC",
        isAdmin: false,
      });
      await ctx.db.insert("userStats", { userId, ...summary.stats });
      for (const [date, n] of summary.days) await ctx.db.insert("performanceDays", { userId, date, sets: n });
      for (const [micIndex, n] of summary.venues) {
        await ctx.db.insert("venueVisits", { userId, sceneItemId: micIds[micIndex] as never, sets: n });
      }
      if (c === 0) {
        for (const id of micIds.slice(0, 10)) {
          await ctx.db.insert("scheduleEntries", { userId, sceneItemId: id as never, addedAt: nowMs - 86_400_000 });
        }
      }
      return { userId, sessionId };
    });
    for (let i = 0; i < sets.length; i += 2000) {
      const chunk = sets.slice(i, i + 2000);
      await t.run(async (ctx) => {
        for (const set of chunk) {
          await ctx.db.insert("performances", {
            userId: ids.userId,
            minutes: set.minutes,
            performedAt: set.performedAt,
            performanceDate: set.performanceDate,
            sceneItemId: micIds[set.micIndex] as never,
            tags: set.tags,
          });
        }
      });
    }
    if (c === 0) heavy = ids;
  }
  console.log(
    `Loaded 1,000 mics, ${OTHER_COMEDIANS + 1} comedians and ${totalSets.toLocaleString("en-US")} sets ` +
      `(the measured comedian has ${HEAVY_SETS.toLocaleString("en-US")}; others 1-${OTHER_MAX_SETS}, long tail) in ${((Date.now() - loadStarted) / 1000).toFixed(1)} s`,
  );
  console.log(
    "(The per-comedian queries read only that comedian's rows, so 99 other comedians stand in for the\n" +
      " generator's 1,000: scripts/generate-scale.ts makes the full set for the local backend.)",
  );

  const asHeavy = t.withIdentity({ subject: `${heavy!.userId}|${heavy!.sessionId}` });
  const goal = goalWeek(nowMs, "UTC");
  const week = scheduleWeek(nowMs, "UTC");
  const hourMs = Math.floor(nowMs / 3_600_000) * 3_600_000;
  const queries: Array<[string, string, Record<string, unknown>]> = [
    ["scene (area, 10 mi NYC, page 50)", "sceneArea:listArea", { ...NYC, radiusMiles: 10, paginationOpts: { numItems: 50, cursor: null } }],
    ["scene (area, 50 mi NYC, page 50)", "sceneArea:listArea", { ...NYC, radiusMiles: 50, paginationOpts: { numItems: 50, cursor: null } }],
    ["scene.list (current, all active)", "scene:list", {}],
    ["dashboard.summary (10k sets)", "dashboard:summary", { goalWeekStartMs: goal.startMs, goalWeekEndMs: goal.endMs, today }],
    ["schedule.week", "schedule:week", { weekStartMs: week.startMs, weekEndMs: week.endMs, nowMs: hourMs }],
    ["history.list (first page, 25)", "history:list", { paginationOpts: { numItems: 25, cursor: null } }],
  ];
  const widths = [36, 10, 10, 12, 12, 12];
  for (const size of [1000, 10_000, 100_000].filter((n) => n <= MAX_MICS)) {
    const started = Date.now();
    await addMics(size);
    console.log(`\n-- ${size.toLocaleString("en-US")} mics (added in ${((Date.now() - started) / 1000).toFixed(1)} s) --`);
    console.log(row(["query", "docs read", "KB read", "result", "median", "min"], widths));
    for (const [label, name, args] of queries) {
      const times: number[] = [];
      let last: Measure | null = null;
      // The engine scans whole tables, so the largest size gets fewer repetitions.
      for (let i = 0; i < (size >= 100_000 ? 3 : 5); i++) {
        const t0 = performance.now();
        last = (await asHeavy.query(anyApi.benchProbe.measure, { name, args })) as Measure;
        times.push(performance.now() - t0);
      }
      const m = last!;
      const extra =
        name === "sceneArea:listArea" || name === "history:list"
          ? ` (${(m.result as { page: unknown[] }).page.length} items)`
          : name === "scene:list"
            ? ` (${(m.result as unknown[]).length} items)`
            : "";
      console.log(
        row([label, m.documentsRead, (m.bytesRead / 1024).toFixed(1), kb(m.resultBytes), ms(median(times)), ms(Math.min(...times))], widths) + extra,
      );
    }
  }
  console.log(
    "\nTimes are the engine's (convex-test scans a table's documents in memory for every index range),\n" +
      "so they grow with the table even where the documents read do not; on Convex an index range costs\n" +
      "what it reads. scene.list stops at 2,000 items (its take), the area query at one page.",
  );
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
    const httpClient = new ConvexHttpClient(backend.url);
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
    for (let i = 0; i < 4; i++) {
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
    console.log(`  cold (first load) ${ms(times[0])}; warm runs ${times.slice(1).map(ms).join(", ")}; median ${ms(median(times))}; cards rendered ${cards}`);
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
