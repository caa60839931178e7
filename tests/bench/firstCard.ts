/**
 * Headless Chromium on the built app (run.ts part 4): navigation to the first
 * scene card's paint with 1,000 mics in the area, what it waited for (a
 * timeline from Playwright's events and one from inside the page), and the
 * page's main-thread CPU time until then (a Chromium trace).
 *
 * "First card" is when the page painted it, from the navigation's start, as
 * the page reports it (Element Timing on the card's title; pageTimeline.ts).
 * When Playwright's locator saw it is printed too: that figure runs late by
 * the protocol round trip and by the locator's polling, which backs off to a
 * check every 500 ms, so it says more about when Playwright looked.
 */
import fs from "node:fs";
import { chromium } from "playwright-core";
import type { Backend } from "../local-backend/harness";
import { buildAndMeasure } from "./bundleSizes";
import { BASELINE, buildBaseline, nearMeComparison, printSizes, serveBuild } from "./nearMe";
import { ms, SKIP_BROWSER } from "./options";
import { firstCardPainted, readTimeline, recordTimeline } from "./pageTimeline";

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
  // Where the CPU went: the children of the main thread's tasks, by name (CPU time, top 10).
  const byName = new Map<string, number>();
  for (const e of events) {
    if (e.ph !== "X" || e.name === "RunTask" || thread(e) !== thread(end)) continue;
    if (e.ts < start || e.ts > end.ts) continue;
    byName.set(e.name, (byName.get(e.name) ?? 0) + (e.tdur ?? 0) / 1000);
  }
  const top = [...byName.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 10)
    .map(([name, t]) => `${name} ${t.toFixed(0)}`)
    .join(", ");
  return `${ms(cpu)} CPU (${ms(wall)} wall) [${top}]`;
}

/**
 * How long a new window is left alone before the navigation (BENCH_SETTLE_MS,
 * default 2 s; 0 navigates at once). Chromium 156 builds its own omnibox popup
 * (a WebUI page of about 290 scripts) in every new window, on the same 2 cores:
 * a visitor's browser did that when its window opened, not during their visit.
 * The page still loads cold (a fresh context, an empty HTTP cache).
 */
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 2_000);
const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

/** Scene cards in the page once the count stops changing (the first paint carries only the first few). */
async function settledCount(page: import("playwright-core").Page): Promise<number> {
  await page
    .waitForFunction(() => document.querySelectorAll('[data-testid="scene-card"]').length >= 24, null, {
      timeout: 10_000,
    })
    .catch(() => undefined);
  return await page.locator('[data-testid="scene-card"]').count();
}

export async function bundlesAndBrowser(backend: Backend): Promise<void> {
  const current = buildAndMeasure(backend.url);
  const baseline = BASELINE ? buildBaseline(BASELINE, backend.url) : null;
  printSizes([...(baseline ? [baseline] : []), { label: baseline ? "after" : "this build", sizes: current.sizes }]);
  const outDir = current.outDir;
  if (SKIP_BROWSER) {
    for (const dir of [outDir, baseline?.outDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
    return;
  }
  const server = await serveBuild(outDir);
  const baselineServer = baseline ? await serveBuild(baseline.outDir) : null;
  const appUrl = server.url;
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
    const seen: number[] = [];
    const timelines: string[] = [];
    const inPage: string[] = [];
    let mainThread = "";
    const backendTrace: string[] = [];
    let cards = 0;
    // Loads 1 and 2 are timed; load 3 is traced for the main thread's CPU (a trace's
    // own cost, about 150 ms on this machine, would otherwise be in the timed figures).
    let traceLoad = "";
    for (let i = 0; i < 3; i++) {
      const traced = i === 2;
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await settle();
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
      await recordTimeline(page);
      if (traced) {
        await browser.startTracing(page, {
          categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing"],
        });
      }
      if (traced) {
        // Only the page's own work in the trace: no locator polling the page meanwhile.
        await page.goto(`${appUrl}/scene`);
        const painted = await firstCardPainted(page);
        // The trace ends at a mark made in the page at the card's paint time.
        await page.evaluate((at) => performance.mark("bench-first-card", { startTime: at }), painted);
        mainThread = mainThreadUntil(await browser.stopTracing());
        traceLoad = ms(painted);
        await context.close();
        continue;
      }
      const logMark = backend.mark();
      const t0 = performance.now();
      await page.goto(`${appUrl}/scene`);
      const [painted, took] = await Promise.all([
        firstCardPainted(page),
        page
          .locator('[data-testid="scene-card"]')
          .first()
          .waitFor({ state: "visible", timeout: 60_000 })
          .then(() => performance.now() - t0),
      ]);
      times.push(painted);
      seen.push(took);
      // With LOCAL_BACKEND_TRACE=1 the backend prints each query run and flush (querySubscriptions.ts, sync.ts).
      backendTrace.push(
        backend
          .outputSince(logMark)
          .split("\n")
          .filter((line) => line.includes("[trace]"))
          .map((line) => line.replace(/^.*\[trace\] /, ""))
          .join("; "),
      );
      inPage.push(await readTimeline(page));
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
      `\nHeadless Chromium, navigation to the first scene card (/scene, 1,000 mics around New York, signed out, fresh context each, navigated ${SETTLE_MS} ms after its window opened):`,
    );
    console.log(
      `  first card painted (from navigation start): first load ${ms(times[0])}; second load (HTTP cache warm) ${ms(times[1])}; cards rendered ${cards}`,
    );
    console.log(
      `  Playwright's locator saw it (polling, late by up to 500 ms): first load ${ms(seen[0])}; second load ${ms(seen[1])}`,
    );
    console.log(`  first load timeline (Playwright's events): ${timelines[0]}, card seen ${ms(seen[0])}`);
    console.log(`  second load timeline (Playwright's events): ${timelines[1]}, card seen ${ms(seen[1])}`);
    console.log(`  in the page, from navigation start: first load ${inPage[0]}`);
    console.log(`                                      second load ${inPage[1]}`);
    console.log(
      `  page main thread until the first card (a third load, traced; ${traceLoad} with the trace's cost): ${mainThread}`,
    );
    if (backendTrace.some((t) => t !== "")) {
      console.log(`  backend until the first card: first load ${backendTrace[0]}`);
      console.log(`                                second load ${backendTrace[1]}`);
    }

    // With the distance filter on, remembered or turned on by hand, and Tonight, beside the plain list.
    await nearMeComparison(
      browser,
      [
        ...(baseline && baselineServer ? [{ label: baseline.label, url: baselineServer.url }] : []),
        { label: baseline ? "after" : "this build", url: appUrl },
      ],
      settle,
    );
  } finally {
    await browser.close();
    server.close();
    baselineServer?.close();
    for (const dir of [outDir, baseline?.outDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }
}
