/**
 * The query series on generated national data (run.ts part 1): for each size,
 * the scale generator's snapshot imported into a fresh data dir, the local
 * backend process started on it, and each query measured over HTTP.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ConvexHttpClient } from "convex/browser";
import { anyApi } from "convex/server";
import { localDateString, zonedEpoch } from "@convex/lib/time";
import { goalWeek, scheduleWeek } from "@convex/lib/weeks";
import { startBackend, type Backend } from "../local-backend/harness";
import { COMEDIANS, convexDir, fmt, kb, MAX_SETS, median, mib, ms, NYC, root, row, RUNS, secs, SIZES } from "./options";
import { importScaleSnapshot, writeScaleSnapshot } from "./scaleData";

const api = anyApi as any;

type Measure = {
  documentsRead: number;
  bytesRead: number;
  databaseQueries: number;
  resultBytes: number;
  result: unknown;
};
/** Convex's search candidate limit (crates/search/src/constants.rs) and the scene search's answer time target. */
const SEARCH_SCAN_LIMIT = 1024;
const SEARCH_MS_TARGET = 250;
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

export async function querySeries(): Promise<void> {
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
        await measureQueries(client, { today, goal, week, hourMs, sets: summary.comedian0.sets, mics: size });
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
    mics: number;
  },
): Promise<void> {
  const searches: Array<{ label: string; documentsRead: number; median: number }> = [];
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
    if (name === "scene:listPage" && args.search) {
      searches.push({ label: String(args.search), documentsRead: m.documentsRead, median: median(times) });
    }
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
  await measure('scene.listPage (search "laugh fa", a prefix)', "scene:listPage", { ...list, search: "laugh fa" });
  await measure('scene.listPage (search "zyzzyva", no match)', "scene:listPage", { ...list, search: "zyzzyva" });
  // Convex fetches at most 1,024 candidates a search (more throws): what a search scans stays under
  // it at every size, and the answer stays quick.
  console.log(
    `  search at ${fmt(ctx.mics)} mics, beside the targets (≤ ${fmt(SEARCH_SCAN_LIMIT)} documents, < ${ms(SEARCH_MS_TARGET)}):`,
  );
  for (const { label, documentsRead, median: time } of searches) {
    console.log(
      `    "${label}": ${fmt(documentsRead)} documents scanned (${documentsRead <= SEARCH_SCAN_LIMIT ? "met" : "NOT met"}), ` +
        `${ms(time)} median (${time < SEARCH_MS_TARGET ? "met" : "NOT met"})`,
    );
  }
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
