/**
 * What the first scene card waited for, seen from inside the page: times from
 * the navigation's start (performance.now()) of the WebSocket's creation,
 * opening, the client's first messages and the first query result (a wrapped
 * WebSocket), the app's first render into #root, the loading skeleton and the
 * first card (a MutationObserver) and the next frame after it, the first
 * contentful paint, the first card's paint (Element Timing: the card's title
 * carries elementtiming="scene-card"), and when the entry script, the scene,
 * Tonight and area list chunks and the stylesheet finished loading (resource
 * timing); the first card
 * of the distance filter's list (one showing its distance) and Tonight's first
 * rows (or its "nothing on" line) in the page, and the frame after each; when
 * the distance filter's switch first showed and when it was first clicked. Unlike
 * Playwright's events these are not delayed by the protocol round trip to the
 * browser, nor by its polling (a locator's waitFor checks at 0, 20, 50, 100,
 * 100, then every 500 ms, so it can see a card up to half a second late).
 *
 * Paint times are the frame's presentation time where Chromium reports it
 * (entry.startTime/renderTime), with its main-thread paint time as "paintTime".
 */
import type { Page } from "playwright-core";
import { ms } from "./options";

/**
 * Runs in the page before its own scripts (page.addInitScript). Plain JavaScript
 * in a string: a function would be serialized as tsx compiled it, with helper
 * calls (esbuild's __name) that do not exist in the page.
 */
const RECORD_PAGE_TIMELINE = `(() => {
  const marks = {};
  window.__benchMarks = marks;
  const mark = (name) => { if (!(name in marks)) marks[name] = performance.now(); };
  const Native = window.WebSocket;
  class Recorded extends Native {
    constructor(url, protocols) {
      super(url, protocols);
      mark("WebSocket created");
      this.addEventListener("open", () => mark("WebSocket open"));
      this.addEventListener("message", (event) => {
        const text = typeof event.data === "string" ? event.data : "";
        if (text.includes('"Transition"') && text.includes('"QueryUpdated"')) mark("first query result");
        if (text.includes('"Transition"') && text.includes('"continueCursor"')) mark("scene list result");
      });
    }
    send(data) {
      if (typeof data === "string") {
        if (data.includes('"ModifyQuerySet"')) mark("first subscription sent");
        if (data.includes('"ModifyQuerySet"') && data.includes("scene:listPage")) mark("scene list subscribed");
        if (data.includes('"Authenticate"')) mark("Authenticate sent");
      }
      super.send(data);
    }
  }
  window.WebSocket = Recorded;
  const nativeFetch = window.fetch;
  window.fetch = function (input, init) {
    const url = typeof input === "string" ? input : input && input.url;
    const result = nativeFetch.apply(this, arguments);
    if (typeof url === "string" && url.endsWith("/api/query")) {
      mark("HTTP query sent");
      const tonight = init && typeof init.body === "string" && init.body.includes('"tonight:list"');
      result.then(() => mark(tonight ? "HTTP Tonight answered" : "HTTP query answered"), () => undefined);
    }
    return result;
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.name === "first-contentful-paint") marks["first contentful paint"] = entry.startTime;
  }).observe({ type: "paint", buffered: true });
  let firstCard;
  window.__benchFirstCard = new Promise((resolve) => (firstCard = resolve));
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.identifier !== "scene-card" || "first card painted" in marks) continue;
      marks["first card painted"] = entry.renderTime || entry.startTime;
      if (entry.paintTime) marks["first card paintTime"] = entry.paintTime;
      firstCard(marks["first card painted"]);
    }
  }).observe({ type: "element", buffered: true });
  // The distance filter's switch (a Radix switch in a label) and, from the event's own time, its first click.
  const distanceSwitch = (el) => !!el && !!el.closest("label") && el.closest("label").textContent.includes("Filter by distance");
  document.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target.closest('[role="switch"]') : null;
    if (distanceSwitch(target) && !("distance switch clicked" in marks)) marks["distance switch clicked"] = event.timeStamp;
  }, true);
  new MutationObserver(() => {
    const root = document.getElementById("root");
    if (root && root.childElementCount > 0) mark("app's first render");
    if (document.querySelector('[aria-label="Loading the scene"]')) mark("scene skeleton");
    if (document.querySelector('[data-testid="scene-card"]') && !("first card in the page" in marks)) {
      mark("first card in the page");
      requestAnimationFrame(() => mark("next frame after the first card"));
    }
    if (document.querySelector('[data-testid="scene-card"] [data-testid="distance"]') && !("first nearby card in the page" in marks)) {
      mark("first nearby card in the page");
      requestAnimationFrame(() => mark("next frame after the first nearby card"));
    }
    if (!("distance switch shown" in marks) && [...document.querySelectorAll('[role="switch"]')].some(distanceSwitch)) mark("distance switch shown");
    if (document.querySelector('[data-testid="tonight-night"], [data-testid="tonight-empty"]') && !("Tonight filled in" in marks)) {
      mark("Tonight filled in");
      requestAnimationFrame(() => mark("next frame after Tonight filled in"));
    }
  }).observe(document, { childList: true, subtree: true, characterData: true });
})();`;

export async function recordTimeline(page: Page): Promise<void> {
  await page.addInitScript(RECORD_PAGE_TIMELINE);
}

/** The marks so far, with the resource loads, in order: "name 123.4 ms, ...". */
export async function readTimeline(page: Page): Promise<string> {
  const marks = await page.evaluate(() => {
    const all: Record<string, number> = {
      ...(window as unknown as { __benchMarks: Record<string, number> }).__benchMarks,
    };
    for (const entry of performance.getEntriesByType("resource") as PerformanceResourceTiming[]) {
      const file = new URL(entry.name).pathname;
      if (/^\/assets\/index-[^/]*\.js$/.test(file)) all["entry JS loaded"] = entry.responseEnd;
      if (/^\/assets\/index-[^/]*\.css$/.test(file)) all["CSS loaded"] = entry.responseEnd;
      if (/^\/assets\/Scene-[^/]*\.js$/.test(file)) all["scene chunk loaded"] = entry.responseEnd;
      if (/^\/assets\/TonightSection-[^/]*\.js$/.test(file)) all["Tonight chunk loaded"] = entry.responseEnd;
      if (/^\/assets\/AreaSceneResults-[^/]*\.js$/.test(file)) all["area list chunk loaded"] = entry.responseEnd;
    }
    return all;
  });
  return Object.entries(marks)
    .sort((a, b) => a[1] - b[1])
    .map(([name, at]) => `${name} ${ms(at)}`)
    .join(", ");
}

/**
 * When the first scene card was painted, in ms from the navigation's start
 * (Element Timing, read in the page): the figure "first scene card" means.
 */
export async function firstCardPainted(page: Page, timeout = 60_000): Promise<number> {
  // One promise the page resolves when it reports the paint: nothing polls the page while it loads.
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no scene card painted within ${timeout} ms`)), timeout);
  });
  try {
    return await Promise.race([
      page.evaluate(() => (window as unknown as { __benchFirstCard: Promise<number> }).__benchFirstCard),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
