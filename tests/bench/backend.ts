/**
 * `npm run bench:backend [-- --subscribers 200 --docs 1000 --updates 30 --query summary|all]`
 *
 * `npm run bench:backend -- --fanout [--mics 1000 --scene 50 --checkins 20]`:
 * read-set invalidation at scene size (see fanout() below).
 *
 * `npm run bench:backend -- --signups [--loops 8 --seconds 15]`: a public
 * query's latency while sign-ups hash passwords (see signups() below).
 *
 * Starts the local backend on free ports with a temporary data directory over
 * tests/bench/fixture/convex, subscribes N `ConvexClient`s to one query over
 * the items table, and measures, for each of a series of mutations, the time
 * from the writer's mutation response to the moment the last subscriber sees
 * the new result. Then single-writer mutations per second and the backend's
 * resident memory. The subscribers run in this process, so the end-to-end
 * figures include their parsing; the backend's own share (from its trace) is
 * printed too. Prints figures; asserts nothing.
 *
 * `npm run bench:backend -- --index-read [--stock]` instead times, in process,
 * an index range read of 50 documents from a 100,000- and a 1,000,000-document
 * table with the backend's IndexedDatabase (and with stock convex-test
 * DatabaseFake, the "before", with --stock), plus single-document commits,
 * and full-text searches (first use of the search index, `.take(24)`, a
 * `.collect()` of up to 1,024 results and two pages of 24, for a one-term, a
 * two-term, a prefix and a three-term query; with --stock also convex-test's
 * scan).
 *
 * `npm run bench:backend -- --storage [--mics 150000 --comedians 1000 --max-sets 10000 | --snapshot FILE]
 *     [--data-dir DIR] [--cli local-backend/src/cli.ts]` (issue 18 item 3): the
 * scale generator's national scene (tests/bench/scaleData.ts; 150,000 mics make
 * ~810,000 documents) imported with the CLI into DIR (kept and reused when it
 * already holds data), then the backend over the app's convex/ is started
 * twice (the first start migrates or compacts the import; the second is a
 * plain start): documents, start time (spawn to "Local backend ready"), RSS and
 * RSS per document; then a small change (comedian 0 signs in) and a compaction
 * (`/_local/compact`): its time and bytes written. `--cli` runs another
 * checkout's backend (the "before"); one without `/_local/compact` has its
 * compaction (a forced snapshot rewrite) timed in a process of its own.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ConvexClient, ConvexHttpClient } from "convex/browser";
import { anyApi, defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";
import { loadConvexTest } from "../../local-backend/src/convexTestLoader";
import { indexedDatabaseClass } from "../../local-backend/src/indexedDatabase";

const api = anyApi as any;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

const SUBSCRIBERS = Number(flag("subscribers", "200"));
const DOCS = Number(flag("docs", "1000"));
const UPDATES = Number(flag("updates", "30"));
// "summary" reads all the documents and returns a small result; "all" also ships
// all 1,000 documents to every subscriber (then client-side parsing in this
// process dominates the figures).
const QUERY = flag("query", "summary");

async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

type BenchBackend = { child: ChildProcess; url: string; dataDir: string; output: () => string };

/**
 * Starts the backend over `functionsDir` (default tests/bench/fixture/convex) on free ports with a
 * temporary data directory; `env` is set in the deployment (`env set`) before it starts.
 */
async function startBenchBackend(
  functionsDir = path.join(root, "tests/bench/fixture/convex"),
  env: Record<string, string> = {},
): Promise<BenchBackend> {
  const port = await freePort();
  let sitePort = await freePort();
  while (sitePort === port) sitePort = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-backend-"));
  for (const [name, value] of Object.entries(env)) {
    const cli = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        path.join(root, "local-backend/src/cli.ts"),
        "env",
        "set",
        name,
        value,
        "--data-dir",
        dataDir,
      ],
      { cwd: root, stdio: "ignore" },
    );
    const code = await new Promise((resolve) => cli.once("exit", resolve));
    if (code !== 0) throw new Error(`env set ${name} failed (exit ${String(code)})`);
  }
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      path.join(root, "local-backend/src/cli.ts"),
      "start",
      "--port",
      String(port),
      "--site-port",
      String(sitePort),
      "--data-dir",
      dataDir,
      "--functions",
      functionsDir,
      "--no-seed",
      "--no-env-file",
      "--no-watch",
    ],
    // The backend traces each re-run and push, for the server-side figures below.
    { cwd: root, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, LOCAL_BACKEND_TRACE: "1" } },
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
    }, 50);
  });
  return { child, url: `http://127.0.0.1:${port}`, dataDir, output: () => output };
}

/** The backend's `/_local/stats` (query runs, contention warnings). */
async function backendStats(backend: BenchBackend): Promise<Record<string, any>> {
  const adminKey = fs.readFileSync(path.join(backend.dataDir, "admin-key"), "utf8").trim();
  const response = await fetch(`${backend.url}/_local/stats`, {
    method: "POST",
    headers: { Authorization: `Convex ${adminKey}` },
  });
  return (await response.json()) as Record<string, any>;
}

async function main(): Promise<void> {
  const backend = await startBenchBackend();
  const { child, dataDir } = backend;
  const url = backend.url;
  const writer = new ConvexHttpClient(url);
  const clients: ConvexClient[] = [];
  try {
    for (let from = 0; from < DOCS; from += 500) {
      await writer.mutation(api.items.seed, { from, count: Math.min(500, DOCS - from) });
    }
    const query = QUERY === "summary" ? api.items.summary : api.items.all;
    const countOf = (value: any): number => (QUERY === "summary" ? value.count : value.length);

    // Each subscriber records when it first saw each item count.
    const seenAt: Map<number, number>[] = [];
    for (let i = 0; i < SUBSCRIBERS; i++) {
      const client = new ConvexClient(url, { unsavedChangesWarning: false });
      clients.push(client);
      const seen = new Map<number, number>();
      seenAt.push(seen);
      client.onUpdate(query, {}, (value: any) => {
        const count = countOf(value);
        if (!seen.has(count)) seen.set(count, performance.now());
      });
    }
    const waitAll = async (count: number, timeoutMs = 60_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!seenAt.every((s) => s.has(count))) {
        if (Date.now() > deadline) throw new Error(`subscribers did not all see ${count} items`);
        await new Promise((r) => setTimeout(r, 1));
      }
    };
    const t0 = performance.now();
    await waitAll(DOCS);
    console.log(
      `${SUBSCRIBERS} subscribers to items:${QUERY} over ${DOCS} documents connected in ${Math.round(performance.now() - t0)} ms`,
    );

    const latencies: number[] = [];
    const firstLatencies: number[] = [];
    const traceStart = backend.output().length;
    for (let i = 0; i < UPDATES; i++) {
      const count = DOCS + i + 1;
      await writer.mutation(api.items.add, { n: count - 1 });
      const responded = performance.now();
      await waitAll(count);
      const times = seenAt.map((s) => s.get(count)!);
      latencies.push(Math.max(0, Math.max(...times) - responded));
      firstLatencies.push(Math.max(0, Math.min(...times) - responded));
      await new Promise((r) => setTimeout(r, 20));
    }
    latencies.sort((a, b) => a - b);
    firstLatencies.sort((a, b) => a - b);
    const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
    console.log(
      `mutation response -> last subscriber update (${UPDATES} mutations): ` +
        `p50 ${fmt(percentile(latencies, 50))}, p95 ${fmt(percentile(latencies, 95))}, max ${fmt(latencies[latencies.length - 1])}`,
    );
    console.log(
      `mutation response -> first subscriber update: p50 ${fmt(percentile(firstLatencies, 50))}, p95 ${fmt(percentile(firstLatencies, 95))}`,
    );
    const flushes = [
      ...backend
        .output()
        .slice(traceStart)
        .matchAll(/re-ran (?:\d+ )?queries in ([\d.]+) ms, pushed to (\d+) sessions in ([\d.]+) ms/g),
    ]
      .filter((m) => Number(m[2]) === SUBSCRIBERS)
      .map((m) => Number(m[1]) + Number(m[3]))
      .sort((a, b) => a - b);
    if (flushes.length > 0) {
      console.log(
        `backend alone, query re-run + sending to ${SUBSCRIBERS} sessions: p50 ${fmt(percentile(flushes, 50))}, ` +
          `p95 ${fmt(percentile(flushes, 95))}, max ${fmt(flushes[flushes.length - 1])}`,
      );
    }
    console.log(`backend RSS with ${SUBSCRIBERS} subscribers: ${rssMiB(child.pid!)} MiB`);

    for (const client of clients.splice(0)) await client.close();
    const start = performance.now();
    let done = 0;
    while (performance.now() - start < 3000) {
      await writer.mutation(api.items.add, { n: 1_000_000 + done });
      done++;
    }
    const seconds = (performance.now() - start) / 1000;
    console.log(
      `single writer, no subscribers: ${(done / seconds).toFixed(0)} mutations/s (${done} in ${seconds.toFixed(1)} s, each fsync'd)`,
    );
    // A hot document: every transaction for 1 s writes the same item. The
    // backend warns about it (contention.ts); count the warnings.
    const hotStart = performance.now();
    let touches = 0;
    while (performance.now() - hotStart < 1000) {
      await writer.mutation(api.items.touchFirst, {});
      touches++;
    }
    const { contention } = await backendStats(backend);
    console.log(
      `contention warnings: ${contention.warnings} (threshold ${contention.threshold} transactions/s on one document; ` +
        `${touches} writes to one item in 1 s${contention.hot.length > 0 ? `; last: table "${contention.hot.at(-1).table}" by ${contention.hot.at(-1).functions.join(", ")}` : ""})`,
    );
    console.log(`backend RSS at the end: ${rssMiB(child.pid!)} MiB`);
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * `--fanout [--mics 1000 --scene 50 --checkins 20]`: one subscriber (its own
 * `ConvexClient`) to each mic's event page and `--scene` subscribers to the
 * scene list; check-ins at random mics. Prints the query re-runs per write
 * (from the backend's `/_local/stats`) and, per check-in, the time from the
 * writer's mutation response to the last of its watchers (the mic's page and
 * the scene list) seeing it.
 */
async function fanout(): Promise<void> {
  const MICS = Number(flag("mics", "1000"));
  const SCENE = Number(flag("scene", "50"));
  const CHECKINS = Number(flag("checkins", "20"));
  const backend = await startBenchBackend();
  const clients: ConvexClient[] = [];
  try {
    const writer = new ConvexHttpClient(backend.url);
    const mics: string[] = [];
    for (let from = 0; from < MICS; from += 500) {
      mics.push(...((await writer.mutation(api.scene.seed, { from, count: Math.min(500, MICS - from) })) as string[]));
    }
    // Latest value seen by each subscriber, and when each value was first seen.
    const micSeen: Map<number, number>[] = mics.map(() => new Map());
    const sceneSeen: Map<number, number>[] = [];
    const t0 = performance.now();
    for (let i = 0; i < MICS; i++) {
      const client = new ConvexClient(backend.url, { unsavedChangesWarning: false });
      clients.push(client);
      client.onUpdate(api.scene.event, { mic: mics[i] }, (value: any) => {
        if (!micSeen[i].has(value.checkIns)) micSeen[i].set(value.checkIns, performance.now());
      });
    }
    for (let i = 0; i < SCENE; i++) {
      const client = new ConvexClient(backend.url, { unsavedChangesWarning: false });
      clients.push(client);
      const seen = new Map<number, number>();
      sceneSeen.push(seen);
      client.onUpdate(api.scene.list, {}, (value: any) => {
        if (!seen.has(value.checkIns)) seen.set(value.checkIns, performance.now());
      });
    }
    const until = async (check: () => boolean, what: string, timeoutMs = 120_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!check()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 1));
      }
    };
    await until(() => micSeen.every((s) => s.has(0)) && sceneSeen.every((s) => s.has(0)), "first results");
    console.log(
      `${MICS} event-page subscribers + ${SCENE} scene-list subscribers connected in ${Math.round(performance.now() - t0)} ms`,
    );
    await new Promise((r) => setTimeout(r, 500));

    const runsBefore = (await backendStats(backend)).queryRuns as number;
    const latencies: number[] = [];
    const perMic = new Map<number, number>();
    for (let k = 0; k < CHECKINS; k++) {
      const i = Math.floor(Math.random() * MICS);
      const expectMic = (perMic.get(i) ?? 0) + 1;
      perMic.set(i, expectMic);
      await writer.mutation(api.scene.checkIn, { mic: mics[i], comedian: `c${k}` });
      const responded = performance.now();
      await until(() => micSeen[i].has(expectMic) && sceneSeen.every((s) => s.has(k + 1)), `check-in ${k}`);
      const last = Math.max(micSeen[i].get(expectMic)!, ...sceneSeen.map((s) => s.get(k + 1)!));
      latencies.push(Math.max(0, last - responded));
      await new Promise((r) => setTimeout(r, 20));
    }
    await new Promise((r) => setTimeout(r, 300));
    const stats = await backendStats(backend);
    const reruns = ((stats.queryRuns as number) - runsBefore) / CHECKINS;
    latencies.sort((a, b) => a - b);
    const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
    console.log(`query re-runs per check-in: ${reruns.toFixed(1)} (of ${MICS + 1} shared executions)`);
    console.log(
      `check-in -> its watchers (mic page + ${SCENE} scene lists), ${CHECKINS} check-ins: ` +
        `p50 ${fmt(percentile(latencies, 50))}, p95 ${fmt(percentile(latencies, 95))}, max ${fmt(latencies[latencies.length - 1])}`,
    );
    console.log(
      `contention warnings: ${stats.contention.warnings} (threshold ${stats.contention.threshold} transactions/s on one document)`,
    );
    console.log(`backend RSS with ${MICS + SCENE} subscribers: ${rssMiB(backend.child.pid!)} MiB`);
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
    backend.child.kill("SIGTERM");
    await new Promise((r) => backend.child.once("exit", r));
    fs.rmSync(backend.dataDir, { recursive: true, force: true });
  }
}

/**
 * `--signups [--loops 8 --seconds 15]`: the backend over the app's own convex/
 * folder; `--loops` clients sign up through Convex Auth's password flow
 * (`auth:signIn`, flow signUp: a Scrypt hash per sign-up) one after another,
 * while one client runs the landing page's public query (`community:stats`)
 * every 20 ms. Prints that query's latency (p50, p95, max) alone and during the
 * sign-ups, and the sign-ups per second.
 */
async function signups(): Promise<void> {
  const LOOPS = Number(flag("loops", "8"));
  const SECONDS = Number(flag("seconds", "15"));
  const backend = await startBenchBackend(path.join(root, "convex"), { SIGN_UP_LIMIT_PER_MINUTE: "100000" });
  try {
    const reader = new ConvexHttpClient(backend.url);
    const measure = async (until: () => boolean): Promise<number[]> => {
      const out: number[] = [];
      while (!until()) {
        const start = performance.now();
        await reader.query(api.community.stats, {});
        out.push(performance.now() - start);
        await new Promise((r) => setTimeout(r, 20));
      }
      return out.sort((a, b) => a - b);
    };
    const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
    const report = (what: string, times: number[]) =>
      console.log(
        `community:stats ${what}, ${times.length} queries: p50 ${fmt(percentile(times, 50))}, ` +
          `p95 ${fmt(percentile(times, 95))}, max ${fmt(times[times.length - 1])}`,
      );
    // Warm up (first loads of the modules, first index builds).
    await measure(
      (
        (n) => () =>
          n-- <= 0
      )(20),
    );
    const aloneUntil = Date.now() + 3000;
    report("alone", await measure(() => Date.now() > aloneUntil));
    let stop = false;
    let signedUp = 0;
    let failed = 0;
    const loop = async (l: number) => {
      const client = new ConvexHttpClient(backend.url, { logger: false });
      for (let i = 0; !stop; i++) {
        try {
          await client.action(api.auth.signIn, {
            provider: "password",
            params: { email: `bench-${l}-${i}-${Date.now()}@example.com`, password: "punchline-42", flow: "signUp" },
          });
          signedUp++;
        } catch (error) {
          if (failed++ === 0) console.log(`a sign-up failed: ${String(error)}`);
        }
      }
    };
    const started = performance.now();
    const loops = Array.from({ length: LOOPS }, (_, l) => loop(l));
    // Let every loop have a sign-up in flight before measuring.
    await new Promise((r) => setTimeout(r, 500));
    const until = Date.now() + SECONDS * 1000;
    const during = await measure(() => Date.now() > until);
    stop = true;
    await Promise.all(loops);
    const elapsed = (performance.now() - started) / 1000;
    report(`during ${LOOPS} concurrent sign-up loops`, during);
    console.log(
      `sign-ups: ${signedUp} in ${elapsed.toFixed(1)} s (${(signedUp / elapsed).toFixed(1)}/s), ${failed} failed; ` +
        `backend RSS ${rssMiB(backend.child.pid!)} MiB`,
    );
  } finally {
    backend.child.kill("SIGTERM");
    await new Promise((r) => backend.child.once("exit", r));
    fs.rmSync(backend.dataDir, { recursive: true, force: true });
  }
}

/** Median of `runs` timings of `fn`, in ms. */
function timeMs(fn: () => void, runs = 9): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)];
}

async function indexRead(): Promise<void> {
  const ct = await loadConvexTest();
  const Indexed = indexedDatabaseClass(ct);
  const schema = defineSchema({
    items: defineTable({ area: v.string(), n: v.number(), body: v.string() })
      .index("by_area_and_n", ["area", "n"])
      .searchIndex("search_body", { searchField: "body", filterFields: ["area"] }),
  });
  // Search text shaped like sceneItems.searchText (title, venue, city): a city
  // is 1 in 200 documents, "laugh factory" venues 1 in 300.
  const titleWords = [
    "open",
    "mic",
    "comedy",
    "night",
    "showcase",
    "late",
    "show",
    "stand",
    "up",
    "roast",
    "hour",
    "jokes",
  ];
  const venueA = [
    "laugh",
    "comedy",
    "funny",
    "punchline",
    "improv",
    "gotham",
    "chuckle",
    "giggle",
    "the",
    "blue",
    "red",
    "brick",
    "old",
    "new",
    "main",
    "corner",
    "lucky",
    "golden",
    "silver",
    "velvet",
  ];
  const venueB = [
    "factory",
    "cellar",
    "club",
    "bar",
    "lounge",
    "room",
    "house",
    "theater",
    "tavern",
    "pub",
    "cafe",
    "stage",
    "hall",
    "attic",
    "garage",
  ];
  const cities = Array.from({ length: 200 }, (_, i) => (i === 7 ? "chicago" : i === 8 ? "chico" : `city${i}`));
  const bodyOf = (i: number) =>
    `${titleWords[i % 12]} ${titleWords[(i >> 3) % 12]} ${venueA[(i * 7) % 20]} ${venueB[(i * 11) % 15]} ${cities[(i * 13) % 200]}`;
  const withStock = process.argv.includes("--stock");
  const drain = (db: any, query: unknown) => {
    const id = db.startQuery(query);
    let count = 0;
    while (!db.queryNext(id).done) count++;
    return count;
  };
  for (const size of [100_000, 1_000_000]) {
    const areas = size / 50;
    const docs: [string, any][] = [];
    for (let i = 0; i < size; i++) {
      const _id = `${String(10000 + i).padStart(27, "0")}items`;
      docs.push([_id, { _id, _creationTime: 1_700_000_000_000 + i, area: `a${i % areas}`, n: i, body: bodyOf(i) }]);
    }
    const query = (area: string) => ({
      source: {
        type: "IndexRange",
        indexName: "items.by_area_and_n",
        range: [{ type: "Eq", fieldPath: "area", value: area }],
        order: "asc",
      },
      operators: [],
    });
    const fmt = (ms: number) => `${ms < 10 ? ms.toFixed(3) : ms.toFixed(0)} ms`;
    const db = new Indexed(schema, "");
    db.loadDocuments(docs);
    let start = performance.now();
    drain(db, query("a0"));
    const build = performance.now() - start;
    let k = 0;
    const read = timeMs(() => {
      if (drain(db, query(`a${(k++ * 7919) % areas}`)) !== 50) throw new Error("expected 50 documents");
    }, 101);
    const page = timeMs(() => {
      const first = db.paginate({ query: query(`a${k % areas}`), cursor: null, pageSize: 25 });
      const second = db.paginate({ query: query(`a${k++ % areas}`), cursor: first.continueCursor, pageSize: 25 });
      if (second.page.length !== 25) throw new Error("expected a second page of 25");
    }, 101);
    const search = (text: string, take: number | null) => ({
      source: {
        type: "Search",
        indexName: "items.search_body",
        filters: [{ type: "Search", fieldPath: "body", value: text }],
      },
      operators: take === null ? [] : [{ limit: take }],
    });
    start = performance.now();
    drain(db, search("chicago", 24));
    const searchBuild = performance.now() - start;
    const searchFigures: string[] = [];
    for (const text of ["chicago", "laugh factory", "chi", "laugh factory chicago"]) {
      const take = timeMs(() => drain(db, search(text, 24)), 21);
      const collectAll = timeMs(() => drain(db, search(text, null)), 11);
      const pages = timeMs(() => {
        const first = db.paginate({ query: search(text, null), cursor: null, pageSize: 24 });
        db.paginate({ query: search(text, null), cursor: first.continueCursor, pageSize: 24 });
      }, 11);
      searchFigures.push(
        `"${text}": take(24) ${fmt(take)}, collect (≤1024) ${fmt(collectAll)}, two pages of 24 ${fmt(pages)}`,
      );
    }
    console.log(
      `IndexedDatabase search, ${size.toLocaleString("en")} documents: first use (build) ${fmt(searchBuild)}; ` +
        searchFigures.join("; "),
    );
    start = performance.now();
    const commits = 1000;
    for (let i = 0; i < commits; i++) {
      db.startTransaction();
      db.insert("items", { area: `a${i % areas}`, n: size + i, body: "new" });
      db.commit(BigInt(i + 1));
    }
    const perCommit = (performance.now() - start) / commits;
    console.log(
      `IndexedDatabase, ${size.toLocaleString("en")} documents: range read of 50 ${fmt(read)} (median), ` +
        `two pages of 25 ${fmt(page)}, first use of the index (build) ${fmt(build)}, insert+commit ${fmt(perCommit)}`,
    );
    if (withStock) {
      const stock = new ct.DatabaseFake(schema, "");
      for (const [id, doc] of docs) stock._documents[id] = doc;
      const stockRead = timeMs(() => {
        if (drain(stock, query(`a${(k++ * 7919) % areas}`)) !== 50) throw new Error("expected 50 documents");
      }, 3);
      console.log(
        `stock convex-test DatabaseFake, ${size.toLocaleString("en")} documents: range read of 50 ${fmt(stockRead)} (median of 3)`,
      );
      const stockSearch = ["chicago", "laugh factory"].map(
        (text) => `"${text}" take(24) ${fmt(timeMs(() => drain(stock, search(text, 24)), 3))}`,
      );
      console.log(
        `stock convex-test DatabaseFake search, ${size.toLocaleString("en")} documents: ${stockSearch.join(", ")} (median of 3)`,
      );
    }
  }
}

/** The scale bench's backend: another checkout's CLI with --cli, the app's convex/ functions. */
async function startScaleBackend(
  cli: string,
  dataDir: string,
): Promise<{ child: ChildProcess; url: string; startMs: number; output: () => string }> {
  const port = await freePort();
  let sitePort = await freePort();
  while (sitePort === port) sitePort = await freePort();
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      "--max-old-space-size=12288",
      "--import",
      "tsx",
      cli,
      "start",
      "--port",
      String(port),
      "--site-port",
      String(sitePort),
      "--data-dir",
      dataDir,
      "--functions",
      path.join(root, "convex"),
      "--no-seed",
      "--no-env-file",
      "--no-watch",
    ],
    { cwd: root, stdio: ["ignore", "pipe", "pipe"] },
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
  return { child, url: `http://127.0.0.1:${port}`, startMs: performance.now() - started, output: () => output };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

async function storage(): Promise<void> {
  const { writeScaleSnapshot, SCALE_PASSWORD, scaleEmail } = await import("./scaleData");
  const cli = path.resolve(flag("cli", path.join(root, "local-backend/src/cli.ts")));
  const dataDir = path.resolve(flag("data-dir", path.join(os.tmpdir(), "bench-storage-data")));
  const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  console.log(
    `Storage bench, ${new Date().toISOString()}, backend ${path.relative(root, cli) || cli}, data ${dataDir}`,
  );
  if (!fs.existsSync(path.join(dataDir, "log.jsonl"))) {
    const given = process.argv.includes("--snapshot") ? path.resolve(flag("snapshot", "")) : null;
    const snapshot = given ?? path.join(os.tmpdir(), `bench-storage-${process.pid}.json`);
    if (!given) {
      const summary = await writeScaleSnapshot({
        mics: Number(flag("mics", "150000")),
        comedians: Number(flag("comedians", "1000")),
        maxSets: Number(flag("max-sets", "10000")),
        out: snapshot,
      });
      console.log(`generated ${summary.documents.toLocaleString("en")} documents (${mib(summary.bytes)} snapshot)`);
    }
    // The CLI under test imports (the "before" writes its own format).
    fs.mkdirSync(dataDir, { recursive: true });
    const started = performance.now();
    const result = spawnSync(
      process.execPath,
      [
        "--max-old-space-size=12288",
        "--import",
        "tsx",
        cli,
        "import",
        snapshot,
        "--data-dir",
        dataDir,
        "--functions",
        path.join(root, "convex"),
      ],
      { cwd: root, encoding: "utf8" },
    );
    if (result.status !== 0) throw new Error(`import failed:\n${result.stdout}\n${result.stderr}`);
    if (!given) fs.rmSync(snapshot, { force: true });
    console.log(`CLI import ${secs(performance.now() - started)}: ${result.stdout.trim().split("\n").pop()}`);
  }
  const adminKey = () => fs.readFileSync(path.join(dataDir, "admin-key"), "utf8").trim();
  const post = async (url: string, route: string) =>
    await fetch(`${url}/_local/${route}`, { method: "POST", headers: { Authorization: `Convex ${adminKey()}` } });

  const first = await startScaleBackend(cli, dataDir);
  const compactedAtStart = /Compacted[^\n]*/.exec(first.output())?.[0];
  console.log(
    `first start (after the import) ${secs(first.startMs)}${compactedAtStart ? `; ${compactedAtStart}` : ""}`,
  );
  await stopChild(first.child);

  const backend = await startScaleBackend(cli, dataDir);
  try {
    const stats = (await (await post(backend.url, "stats")).json()) as Record<string, any>;
    const rss = rssMiB(backend.child.pid!) * 2 ** 20;
    const documents: number | undefined = stats.documents;
    console.log(
      `start ${secs(backend.startMs)}; RSS ${mib(rss)}` +
        (documents
          ? `; ${documents.toLocaleString("en")} documents, ${(rss / documents).toFixed(0)} bytes RSS per document`
          : ""),
    );
    if (stats.storage) console.log(`segments: ${JSON.stringify({ ...stats.storage, lastCompaction: undefined })}`);
    // A small change: comedian 0 signs in (a session, a refresh token).
    const client = new ConvexHttpClient(backend.url, { logger: false });
    await client.action(api.auth.signIn, {
      provider: "password",
      params: { email: scaleEmail(0), password: SCALE_PASSWORD, flow: "signIn" },
    });
    const response = await post(backend.url, "compact");
    if (response.ok) {
      const c = (await response.json()) as Record<string, number | string>;
      console.log(
        `compaction after a sign-in: ${c.kind}, ${c.changed} documents changed, ${Number(c.ms).toFixed(1)} ms, ` +
          `${(Number(c.bytes) / 1024).toFixed(1)} KiB written in ${c.files} files`,
      );
      await client.action(api.auth.signIn, {
        provider: "password",
        params: { email: scaleEmail(0), password: SCALE_PASSWORD, flow: "signIn" },
      });
    } else {
      await response.arrayBuffer();
      await stopChild(backend.child);
      // Before the segments: compaction is JSON.stringify of the whole database into snapshot.json.
      const store = path.join(path.dirname(cli), "store.ts");
      const script =
        `const { DataStore } = await import(${JSON.stringify(store)});` +
        `const s = new DataStore(${JSON.stringify(dataDir)}); const st = s.load();` +
        `const t = performance.now(); s.maybeCompact(st.docs.entries(), st.lastTs, true);` +
        `console.log(JSON.stringify({ ms: performance.now() - t, bytes: (await import("node:fs")).statSync(s.snapshotPath).size }));`;
      const out = spawnSync(
        process.execPath,
        ["--max-old-space-size=12288", "--import", "tsx", "--input-type=module", "-e", script],
        {
          cwd: root,
          encoding: "utf8",
        },
      );
      const c = JSON.parse(out.stdout.trim().split("\n").pop() ?? "{}") as { ms: number; bytes: number };
      console.log(
        `compaction after a sign-in (no /_local/compact: the store's forced compaction, in its own process): ` +
          `${c.ms.toFixed(0)} ms, ${mib(c.bytes)} written (the whole snapshot.json)`,
      );
    }
  } finally {
    await stopChild(backend.child);
  }
}

(process.argv.includes("--index-read")
  ? indexRead()
  : process.argv.includes("--fanout")
    ? fanout()
    : process.argv.includes("--signups")
      ? signups()
      : process.argv.includes("--storage")
        ? storage()
        : main()
).then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
