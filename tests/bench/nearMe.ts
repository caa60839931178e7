/**
 * "What's near me tonight", beside the plain list, in one run (run.ts part 4):
 * each build (this checkout's and, with `--baseline <git ref>`, that commit's)
 * is loaded in turn, fresh context each, as
 * - plain: /scene signed out, no saved location;
 * - remembered: a comedian who left the distance filter on (25 miles around
 *   Manhattan) less than an hour ago: the saved location in localStorage, no
 *   location permission (the geolocation API is not answered); a build that
 *   does not open with the filter on has its switch turned on by hand, which
 *   then uses the saved location;
 * - by hand: no saved location, permission granted, the switch turned on as
 *   soon as it shows (the geolocation API answers at once); its figure holds
 *   that wait and the click, so the time from the click (the event's own
 *   time, in the page) to the first nearby card is printed beside it.
 * Figures are read in the page (pageTimeline.ts): the first card's next frame
 * (nearby cards for the filtered loads) and Tonight's first rows' next frame,
 * from the navigation's start.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { buildAndMeasure, PAGE_TARGET_BYTES, PAGES, type PageSizes } from "./bundleSizes";
import { kb, median, ms, NYC, root } from "./options";
import { readTimeline, recordTimeline } from "./pageTimeline";

/** `--rounds N`: loads of each build in each scenario (default 3; medians are printed). */
export const ROUNDS = (() => {
  const i = process.argv.indexOf("--rounds");
  const n = i >= 0 ? Number(process.argv[i + 1]) : 3;
  return Number.isInteger(n) && n > 0 ? n : 3;
})();

/** `--baseline <git ref>`: the commit to compare with (built from `git archive`). */
export const BASELINE = (() => {
  const i = process.argv.indexOf("--baseline");
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : null;
})();

/** Serves a built app (unknown paths get index.html); resolves to its URL and a close function. */
export async function serveBuild(outDir: string): Promise<{ url: string; close: () => void }> {
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
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, close: () => server.close() };
}

/** The baseline commit's tree with this checkout's node_modules, built for `backendUrl`. */
export function buildBaseline(ref: string, backendUrl: string): { outDir: string; sizes: PageSizes; label: string } {
  const sha = spawnSync("git", ["rev-parse", "--short", ref], { cwd: root, encoding: "utf8" });
  if (sha.status !== 0) throw new Error(`--baseline ${ref}: ${sha.stderr}`);
  const tree = fs.mkdtempSync(path.join(os.tmpdir(), "h17-bench-baseline-"));
  const archive = spawnSync("sh", ["-c", `git archive ${JSON.stringify(ref)} | tar -x -C ${JSON.stringify(tree)}`], {
    cwd: root,
    encoding: "utf8",
  });
  if (archive.status !== 0) throw new Error(`git archive ${ref}: ${archive.stderr}`);
  fs.symlinkSync(path.join(root, "node_modules"), path.join(tree, "node_modules"), "dir");
  try {
    const built = buildAndMeasure(backendUrl, tree, true);
    return { ...built, label: `before (${sha.stdout.trim()})` };
  } finally {
    fs.rmSync(tree, { recursive: true, force: true });
  }
}

/** Prints each page's JavaScript for every build, beside the target. */
export function printSizes(builds: { label: string; sizes: PageSizes }[]): void {
  console.log(`\nJavaScript before the first card, gzip -9 (target < ${kb(PAGE_TARGET_BYTES)}):`);
  for (const [page] of PAGES) {
    const cells = builds.map((b) => `${b.label} ${kb(b.sizes[page])}`).join(" → ");
    const met = builds[builds.length - 1].sizes[page] < PAGE_TARGET_BYTES ? "met" : "NOT met";
    console.log(`  ${page.padEnd(16)} ${cells}  [${met}]`);
  }
}

type Scenario = "plain" | "remembered" | "by hand";
/** Times from navigation start: the scenario's first card (nearby ones with the filter), the list's first card of any kind, Tonight's rows. */
type Load = {
  card: number;
  anyCard: number;
  tonight: number | null;
  switchedByHand: boolean;
  /** When the switch showed and when it was clicked (by hand), from navigation start. */
  switchShown: number | null;
  clicked: number | null;
  timeline: string;
};

const marksOf = (page: Page) =>
  page.evaluate(() => (window as unknown as { __benchMarks: Record<string, number> }).__benchMarks);

async function waitForMark(page: Page, name: string, timeout = 60_000): Promise<number> {
  await page.waitForFunction(
    (n) => n in ((window as unknown as { __benchMarks?: Record<string, number> }).__benchMarks ?? {}),
    name,
    { timeout, polling: 50 },
  );
  return (await marksOf(page))[name];
}

async function loadOnce(browser: Browser, appUrl: string, scenario: Scenario, settle: () => Promise<unknown>) {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    ...(scenario === "by hand"
      ? { geolocation: { latitude: NYC.lat, longitude: NYC.lng }, permissions: ["geolocation"] }
      : {}),
  });
  try {
    if (scenario === "remembered") {
      // Saved 10 minutes ago with the filter at 25 miles (the page's own format: location.ts).
      await context.addInitScript((at) => {
        const entry = { lat: at.lat, lng: at.lng, ts: Date.now() - 10 * 60_000, radiusMiles: 25 };
        localStorage.setItem("userLocation", JSON.stringify(entry));
      }, NYC);
    }
    const page = await context.newPage();
    await recordTimeline(page);
    await settle();
    await page.goto(`${appUrl}/scene`);
    let switchedByHand = false;
    if (scenario !== "plain") {
      const toggle = page.getByRole("switch", { name: "Filter by distance" });
      await toggle.waitFor({ state: "visible", timeout: 60_000 });
      if ((await toggle.getAttribute("aria-checked")) !== "true") {
        switchedByHand = true;
        await toggle.click();
      }
    }
    const card = await waitForMark(
      page,
      scenario === "plain" ? "next frame after the first card" : "next frame after the first nearby card",
    );
    const anyCard = await waitForMark(page, "next frame after the first card");
    const tonight = await waitForMark(page, "next frame after Tonight filled in", 15_000).catch(() => null);
    const marks = await marksOf(page);
    return {
      card,
      anyCard,
      tonight,
      switchedByHand,
      switchShown: marks["distance switch shown"] ?? null,
      clicked: switchedByHand ? (marks["distance switch clicked"] ?? null) : null,
      timeline: await readTimeline(page),
    } satisfies Load;
  } finally {
    await context.close();
  }
}

/**
 * Loads each build in each scenario `rounds` times, the builds interleaved so
 * both see the same machine, and prints the medians beside the targets.
 */
export async function nearMeComparison(
  browser: Browser,
  builds: { label: string; url: string }[],
  settle: () => Promise<unknown>,
  rounds = ROUNDS,
): Promise<void> {
  const scenarios: Scenario[] = ["plain", "remembered", "by hand"];
  const loads = new Map<string, Load[]>();
  for (let round = 0; round < rounds; round++) {
    for (const scenario of scenarios) {
      for (const build of builds) {
        const key = `${build.label}|${scenario}`;
        loads.set(key, [...(loads.get(key) ?? []), await loadOnce(browser, build.url, scenario, settle)]);
      }
    }
  }
  console.log(
    `\n"Near me tonight" beside the plain list (/scene, 1,000 mics around New York, signed out, fresh context each, ` +
      `medians of ${rounds}, from navigation start to the frame after the card or row was in the page):`,
  );
  for (const build of builds) {
    const get = (s: Scenario) => loads.get(`${build.label}|${s}`)!;
    const plain = median(get("plain").map((l) => l.card));
    console.log(`  ${build.label}:`);
    for (const scenario of scenarios) {
      const runs = get(scenario);
      const card = median(runs.map((l) => l.card));
      const gaps = runs.filter((l) => l.tonight !== null).map((l) => l.tonight! - l.anyCard);
      const gap = gaps.length > 0 ? median(gaps) : null;
      const ratio = card / plain;
      const parts = [
        `first card ${ms(card)}`,
        scenario === "plain"
          ? ""
          : `${ratio.toFixed(2)}× the plain list (target ≤ 1.2×, < 700 ms: ${ratio <= 1.2 && card < 700 ? "met" : "NOT met"})`,
        gap === null
          ? "Tonight: no rows within 15 s"
          : `Tonight's first rows ${gap >= 0 ? "+" : ""}${ms(gap)} after the list's first card (target ≤ +100 ms: ${gap <= 100 ? "met" : "NOT met"})`,
        runs.some((l) => l.switchedByHand) && scenario === "remembered"
          ? "filter not remembered: switched on by hand"
          : "",
      ].filter(Boolean);
      console.log(`    ${scenario.padEnd(11)} ${parts.join("; ")}`);
      const clicks = runs.filter((l) => l.clicked !== null);
      if (scenario === "by hand" && clicks.length > 0) {
        // The figure above counts from navigation start, so it holds the wait for the switch and the click itself.
        const fromClick = median(clicks.map((l) => l.card - l.clicked!));
        const shown = median(clicks.map((l) => l.switchShown ?? Number.NaN));
        const clicked = median(clicks.map((l) => l.clicked!));
        console.log(
          `      from the switch's click: first nearby card ${ms(fromClick)} after the click ` +
            `(${(fromClick / plain).toFixed(2)}× the plain list's first card)`,
        );
        console.log(
          `      (the by-hand figure above counts from navigation start, so it also holds the wait for the switch, ` +
            `shown at ${ms(shown)}, and the click, at ${ms(clicked)}: a user's action after the first paint, ` +
            `which 1.2× of the plain list's first card cannot hold)`,
        );
      }
      if (process.argv.includes("--timelines")) {
        // The load whose first card is the median one.
        const mid = [...runs].sort((a, b) => a.card - b.card)[Math.floor(runs.length / 2)];
        console.log(`      (median load: ${mid.timeline})`);
      }
    }
  }
}
