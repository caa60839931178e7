import type { ConvexReactClient } from "convex/react";
import { type FunctionReturnType, getFunctionName } from "convex/server";
import { jsonToConvex, type JSONValue } from "convex/values";
import { useSyncExternalStore } from "react";
// Relative, not @convex: vite.config.ts loads this file before its aliases apply.
import { api } from "../../../../convex/_generated/api.js";
import { DEFAULT_TIME_ZONE } from "../../../../convex/lib/defaultTimeZone.ts";
import { normalPath, paths } from "../../../lib/paths.ts";
import { scriptLiteral } from "../../../lib/scriptLiteral.ts";
import { viewerTimeZone } from "../../../lib/timeZone.ts";
import { areaCenter, SCENE_PAGE_SIZE } from "./listPaging.ts";
import { LOCATION_KEY, LOCATION_MAX_AGE_MS } from "../filters/location.ts";
import {
  NO_PLAN_FILTERS,
  QUERY_CLOCK_MS,
  tonightArgs,
  TONIGHT_PAGE,
  type TonightArea,
} from "../tonight/tonightArgs.ts";

/** The scene list's clock: the hour, so the subscription stays put within it. */
export const sceneListHour = (nowMs: number) => Math.floor(nowMs / 3_600_000) * 3_600_000;

/** One page of scene.listPage. */
export type ScenePage = FunctionReturnType<typeof api.scene.listPage>;

/** scene.listPage's arguments without the page (see useScenePages). */
export type SceneListArgs = {
  type: "all" | "open_mic" | "show";
  day: number | null;
  search: string;
  filters: {
    freeOnly: boolean;
    signup: "any" | "in_person" | "online";
    timeOfDay: "any" | "early" | "prime" | "late";
    hideStale: boolean;
  };
  /** The clock for the stale filter (rounded to the hour, see sceneListHour). */
  nowMs: number;
};

/** What the scene asks for when it opens with no filter (the page's DEFAULT_FILTERS). */
export function openingSceneArgs(nowMs: number): SceneListArgs {
  return {
    type: "all",
    day: null,
    search: "",
    filters: { freeOnly: false, signup: "any", timeOfDay: "any", hideStale: false },
    nowMs: sceneListHour(nowMs),
  };
}

/** The first page of a scene list as a plain query (no pagination id: any subscriber of the same arguments shares it). */
export const firstPageArgs = (args: SceneListArgs) => ({
  ...args,
  paginationOpts: { numItems: SCENE_PAGE_SIZE, cursor: null },
});

/** Equal arguments give equal keys, whatever the order their fields were written in. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical(record[k])}`)
    .join(",")}}`;
}

/** The first page subscribed to while the app's code loaded (see prewarmSceneFirstPage). */
let prewarmed: { key: string; args: ReturnType<typeof firstPageArgs> } | null = null;

/**
 * The arguments of the first page subscribed to before the page rendered, if
 * they are `args`' (the very object, so the client's subscription is the same), else null.
 */
export function prewarmedFirstPage(args: SceneListArgs): ReturnType<typeof firstPageArgs> | null {
  return prewarmed !== null && prewarmed.key === canonical(firstPageArgs(args)) ? prewarmed.args : null;
}

/** The area list's first page (sceneArea.listArea as AreaSceneResults pages it), for a point already rounded. */
export const areaFirstPageArgs = (area: TonightArea) => ({
  lat: area.lat,
  lng: area.lng,
  radiusMiles: area.radiusMiles,
  paginationOpts: { numItems: SCENE_PAGE_SIZE, cursor: null },
});

/**
 * Subscribes to the area list's first page for a point just found (not yet
 * rounded), before the render that mounts the list: the list's own first page
 * is the same query, so it shares this subscription.
 */
export function prewarmAreaFirstPage(
  client: ConvexReactClient,
  location: Parameters<typeof areaCenter>[0],
  radiusMiles: number,
): void {
  client.prewarmQuery({
    query: api.sceneArea.listArea,
    args: areaFirstPageArgs({ ...areaCenter(location), radiusMiles }),
    extendSubscriptionFor: 10_000,
  });
}

/** Tonight's first page on the scene (tonight.list as TonightSection pages it). */
export const tonightFirstPageArgs = (args: ReturnType<typeof tonightArgs>) => ({
  ...args,
  paginationOpts: { numItems: TONIGHT_PAGE, cursor: null },
});

/** What {@link openingQueries} needs from the app, as plain values (it runs in index.html too). */
export type OpeningConstants = {
  listPath: string;
  areaPath: string;
  tonightPath: string;
  /** The plain list's first page arguments, the clock left to fill in. */
  listTemplate: ReturnType<typeof firstPageArgs>;
  pageSize: number;
  tonightPage: number;
  listClockMs: number;
  tonightClockMs: number;
  locationMaxAgeMs: number;
};

export type OpeningQuery = { path: string; args: Record<string, unknown> };

/**
 * The two queries the scene opens with: its list (the area's when the distance
 * filter was left on with a location under an hour old, `saved` being the
 * `userLocation` entry; else the plain list) and Tonight. Self-contained (no
 * outside names): index.html's script runs its source, before any of the app's
 * code, and the app calls it to subscribe to the same queries. Its arguments
 * are those the page's own builders give (firstPage.test.ts checks them).
 */
export function openingQueries(
  nowMs: number,
  saved: string | null,
  timeZone: string,
  c: OpeningConstants,
): { area: TonightArea | null; list: OpeningQuery; tonight: OpeningQuery } {
  let area: TonightArea | null = null;
  try {
    const s = saved ? JSON.parse(saved) : null;
    const r = s ? s.radiusMiles : null;
    if (
      s &&
      typeof s.lat === "number" &&
      typeof s.lng === "number" &&
      typeof s.ts === "number" &&
      nowMs - s.ts <= c.locationMaxAgeMs &&
      typeof r === "number" &&
      r % 5 === 0 &&
      r >= 5 &&
      r <= 50
    ) {
      // Rounded to 3 decimals, as the area query's point (areaCenter).
      area = { lat: Math.round(s.lat * 1000) / 1000, lng: Math.round(s.lng * 1000) / 1000, radiusMiles: r };
    }
  } catch {
    area = null;
  }
  const list: OpeningQuery = area
    ? {
        path: c.areaPath,
        args: {
          lat: area.lat,
          lng: area.lng,
          radiusMiles: area.radiusMiles,
          paginationOpts: { numItems: c.pageSize, cursor: null },
        },
      }
    : { path: c.listPath, args: { ...c.listTemplate, nowMs: Math.floor(nowMs / c.listClockMs) * c.listClockMs } };
  const tonight: OpeningQuery = {
    path: c.tonightPath,
    args: {
      nowMs: Math.floor(nowMs / c.tonightClockMs) * c.tonightClockMs,
      timeZone: timeZone,
      ...(area ? { area: area } : {}),
      type: "all",
      search: "",
      filters: { freeOnly: false, signup: "any", timeOfDay: "any", hideStale: false },
      paginationOpts: { numItems: c.tonightPage, cursor: null },
    },
  };
  return { area: area, list: list, tonight: tonight };
}

export const OPENING_CONSTANTS: OpeningConstants = {
  listPath: getFunctionName(api.scene.listPage),
  areaPath: getFunctionName(api.sceneArea.listArea),
  tonightPath: getFunctionName(api.tonight.list),
  listTemplate: firstPageArgs(openingSceneArgs(0)),
  pageSize: SCENE_PAGE_SIZE,
  tonightPage: TONIGHT_PAGE,
  listClockMs: 3_600_000,
  tonightClockMs: QUERY_CLOCK_MS,
  locationMaxAgeMs: LOCATION_MAX_AGE_MS,
};

function savedLocationEntry(): string | null {
  try {
    return localStorage.getItem(LOCATION_KEY);
  } catch {
    return null;
  }
}

/**
 * On /scene, subscribes to the opening list's and Tonight's first pages as soon as the client exists: the requests
 * go out with the WebSocket's first messages, not after the first render. True when it did (the path is the scene's).
 */
export function prewarmSceneFirstPage(client: ConvexReactClient, pathname: string, nowMs = Date.now()): boolean {
  if (normalPath(pathname) !== paths.scene) return false;
  const { area } = openingQueries(nowMs, savedLocationEntry(), viewerTimeZone(), OPENING_CONSTANTS);
  // Each kept for 30 s: the page subscribes to the same queries long before then.
  if (area) {
    client.prewarmQuery({
      query: api.sceneArea.listArea,
      args: areaFirstPageArgs(area),
      extendSubscriptionFor: 30_000,
    });
  } else {
    // The page's own arguments, field order too (the client keys queries by their JSON); useScenePages shows
    // this page until its paginated query has its own.
    const args = firstPageArgs(openingSceneArgs(nowMs));
    prewarmed = { key: canonical(args), args };
    client.prewarmQuery({ query: api.scene.listPage, args, extendSubscriptionFor: 30_000 });
  }
  const tonight = tonightArgs({
    nowMs,
    timeZone: viewerTimeZone(),
    area,
    type: "all",
    search: "",
    filters: NO_PLAN_FILTERS,
  });
  client.prewarmQuery({ query: api.tonight.list, args: tonightFirstPageArgs(tonight), extendSubscriptionFor: 30_000 });
  return true;
}

/** Where index.html's inline script leaves the requests it made (see {@link httpFirstPageScript}). */
export const HTTP_FIRST_PAGE_GLOBAL = "__stagetimeSceneFirstPage";

/** One request that script made: the query, the arguments it asked with and the answer's value (null on any failure). */
export type HttpFirstPageRequest = { path: string; args: unknown; result: Promise<JSONValue | null> };

/**
 * The inline script built into index.html (scripts/earlyScripts.ts): on /scene, before any of the app's JavaScript,
 * it asks for the opening pages ({@link openingQueries}) with Convex's `POST /api/query`, as `preloadQuery` does.
 * The functions are inlined from this module, so the rules stay here.
 */
export function httpFirstPageScript(convexUrl: string): string {
  const url = `${convexUrl.replace(/\/+$/, "")}/api/query`;
  return (
    `(function(){if((${normalPath.toString()})(location.pathname)!==${scriptLiteral(paths.scene)})return;` +
    `var s=null,z=${scriptLiteral(DEFAULT_TIME_ZONE)};try{s=localStorage.getItem(${scriptLiteral(LOCATION_KEY)})}catch(e){}` +
    `try{z=Intl.DateTimeFormat().resolvedOptions().timeZone||z}catch(e){}` +
    `var q=(${openingQueries.toString()})(Date.now(),s,z,${scriptLiteral(OPENING_CONSTANTS)});` +
    // application/json costs a CORS preflight across origins, but Convex answers a text/plain body 400 BadJsonBody.
    `var f=function(o){try{return fetch(${scriptLiteral(url)},{method:"POST",headers:{"Content-Type":"application/json"},` +
    `body:JSON.stringify({path:o.path,format:"convex_encoded_json",args:[o.args]})})` +
    `.then(function(s){return s.ok?s.json():null}).then(function(b){return b&&b.status==="success"?b.value:null},` +
    `function(){return null})}catch(e){return Promise.resolve(null)}};` +
    // Both at once, the list's first: Tonight's start does not wait for a main thread busy with the app's code.
    `window[${scriptLiteral(HTTP_FIRST_PAGE_GLOBAL)}]=[{path:q.list.path,args:q.list.args,result:f(q.list)},` +
    `{path:q.tonight.path,args:q.tonight.args,result:f(q.tonight)}];` +
    // Loads the time-zone data (~20 ms, once) while the bundle downloads, not in the cards' first render.
    `setTimeout(function(){try{` +
    `new Intl.DateTimeFormat("en-US",{timeZone:${scriptLiteral(DEFAULT_TIME_ZONE)},timeZoneName:"longOffset"}).format(0)` +
    `}catch(e){}},0)})()`
  );
}

/** How long a page fetched with the HTML may stand in (as long as the WebSocket's prewarmed copies are kept). */
export const HTTP_FIRST_PAGE_MAX_AGE_MS = 30_000;

/**
 * The pages index.html's script fetched, by query and arguments, once arrived
 * (null: on its way). Each stands in once: until its list has its own live
 * first page, and for {@link HTTP_FIRST_PAGE_MAX_AGE_MS} at most, so a list
 * mounted later (back from another page, a filter turned off) never shows the
 * snapshot the page loaded with.
 */
const httpPages = { pages: new Map<string, unknown>(), listeners: new Set<() => void>() };

const pageKey = (path: string, args: unknown) => `${path}|${canonical(args)}`;

/** Whether a decoded answer is a page of `path`'s shape (the lists read these fields). */
function isPageOf(path: string, value: unknown): boolean {
  if (value === null || typeof value !== "object") return false;
  const page = value as Record<string, unknown>;
  const idOf = (item: Record<string, unknown>) =>
    path === OPENING_CONSTANTS.tonightPath ? (item.item as Record<string, unknown> | null)?._id : item._id;
  return (
    Array.isArray(page.page) &&
    page.page.every((item) => item !== null && typeof item === "object" && typeof idOf(item) === "string") &&
    typeof page.isDone === "boolean" &&
    typeof page.continueCursor === "string"
  );
}

const notify = () => httpPages.listeners.forEach((listener) => listener());

/** The page for `path` and `args` stands in no more (no arguments: none do). */
export function retireHttpPage(path?: string, args?: unknown): void {
  if (path === undefined) {
    if (httpPages.pages.size === 0) return;
    httpPages.pages.clear();
  } else if (!httpPages.pages.delete(pageKey(path, args))) return;
  notify();
}

/** The plain list has its own live first page (no arguments: every page fetched with the HTML is retired). */
export function retireHttpFirstPage(args?: SceneListArgs): void {
  if (args === undefined) retireHttpPage();
  else retireHttpPage(OPENING_CONSTANTS.listPath, firstPageArgs(args));
}

/** Takes over the requests index.html's script made (called once, as the entry loads). */
export function adoptHttpFirstPage(requests: unknown = readHttpFirstPageGlobal()): void {
  if (!Array.isArray(requests)) return;
  for (const request of requests as HttpFirstPageRequest[]) {
    if (!request || typeof request.path !== "string" || typeof request.result?.then !== "function") continue;
    const key = pageKey(request.path, request.args);
    httpPages.pages.set(key, null);
    setTimeout(() => {
      if (httpPages.pages.delete(key)) notify();
    }, HTTP_FIRST_PAGE_MAX_AGE_MS);
    void request.result.then(
      (value) => {
        if (value === null || value === undefined || !httpPages.pages.has(key)) return;
        let page: unknown;
        try {
          page = jsonToConvex(value);
        } catch {
          return;
        }
        // Anything else than a page (a proxy's error page, another version's answer) is left out.
        if (!isPageOf(request.path, page)) return;
        httpPages.pages.set(key, page);
        notify();
      },
      () => undefined,
    );
  }
}

function readHttpFirstPageGlobal(): unknown {
  if (typeof window === "undefined") return undefined;
  return (window as unknown as Record<string, unknown>)[HTTP_FIRST_PAGE_GLOBAL];
}

const subscribeHttpPages = (listener: () => void) => {
  httpPages.listeners.add(listener);
  return () => void httpPages.listeners.delete(listener);
};

/** The page index.html's script fetched for `path` and `args`, if it has arrived (and still stands in). */
export function httpPageFor<T>(path: string, args: unknown): T | undefined {
  return (httpPages.pages.get(pageKey(path, args)) ?? undefined) as T | undefined;
}

/** {@link httpPageFor}, re-rendering when the page arrives (null: waiting for nothing). */
export function useHttpPage<T>(query: { path: string; args: unknown } | null): T | undefined {
  return useSyncExternalStore(subscribeHttpPages, () =>
    query === null ? undefined : httpPageFor<T>(query.path, query.args),
  );
}

/** The plain list's first page fetched with the HTML, if it was for `args` and has arrived. */
export function httpFirstPageFor(args: SceneListArgs | null): ScenePage | undefined {
  return args === null ? undefined : httpPageFor<ScenePage>(OPENING_CONSTANTS.listPath, firstPageArgs(args));
}

/** {@link httpFirstPageFor}, re-rendering when the page arrives (null: waiting for nothing). */
export function useHttpFirstPage(args: SceneListArgs | null): ScenePage | undefined {
  return useHttpPage<ScenePage>(args === null ? null : { path: OPENING_CONSTANTS.listPath, args: firstPageArgs(args) });
}
