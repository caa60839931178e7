import type { ConvexReactClient } from "convex/react";
import { type FunctionReturnType, getFunctionName } from "convex/server";
import { jsonToConvex, type JSONValue } from "convex/values";
import { useSyncExternalStore } from "react";
import { api } from "../../../convex/_generated/api.js";
import { DEFAULT_TIME_ZONE } from "../../../convex/lib/time.ts";
import { normalPath, paths } from "../../lib/paths.ts";
import { scriptLiteral } from "../../lib/scriptLiteral.ts";
import { SCENE_PAGE_SIZE } from "./incremental.ts";

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

/**
 * On /scene, subscribes to the opening list's first page as soon as the client
 * exists: the request goes out with the WebSocket's first messages, while the
 * router and the scene's code are still loading, instead of after the page has
 * rendered. useScenePages shows that page until its paginated query has its own.
 * True when it did (the path is the scene's).
 */
export function prewarmSceneFirstPage(client: ConvexReactClient, pathname: string, nowMs = Date.now()): boolean {
  if (normalPath(pathname) !== paths.scene) return false;
  const args = firstPageArgs(openingSceneArgs(nowMs));
  prewarmed = { key: canonical(args), args };
  // Kept for 30 s: the page subscribes to the same query (same arguments) long before then.
  client.prewarmQuery({ query: api.scene.listPage, args, extendSubscriptionFor: 30_000 });
  return true;
}

/** Where index.html's inline script leaves the first page it asked for (see {@link httpFirstPageScript}). */
export const HTTP_FIRST_PAGE_GLOBAL = "__stagetimeSceneFirstPage";

/** What that script leaves: the arguments it asked with and the answer's value (null on any failure). */
export type HttpFirstPageRequest = { args: unknown; result: Promise<JSONValue | null> };

/**
 * The inline script built into index.html (scripts/earlyScripts.ts): on /scene,
 * while the HTML is still being parsed and before any of the app's JavaScript
 * has loaded, it asks the backend for the opening list's first page over HTTP
 * (Convex's `POST /api/query`, the request ConvexHttpClient makes for
 * `preloadQuery`: arguments in an array, Convex's JSON encoding), so the first
 * cards wait neither for the bundle nor for the WebSocket. The arguments are
 * {@link openingSceneArgs}' with the hour filled in as the page loads; the
 * functions are inlined from this module, so the rules stay here.
 *
 * The request says `Content-Type: application/json`, which makes it a CORS
 * preflighted one (an OPTIONS round trip first when the backend is on another
 * origin). A "simple" `text/plain` body would skip that, but Convex refuses it:
 * its /api/query handler takes the body through its `Json` extractor
 * (convex-backend crates/local_backend/src/public_api.rs, public_query_post),
 * which answers 400 BadJsonBody unless the content type is application/json or
 * +json (crates/common/src/http/extract.rs, json_content_type); ConvexHttpClient
 * sends application/json too.
 *
 * While the bundle downloads it also makes the browser load its time-zone data
 * (about 20 ms, once per page, on the first date format with a time zone),
 * which the cards' check-in windows would otherwise pay for in the first render.
 */
export function httpFirstPageScript(convexUrl: string): string {
  const template = firstPageArgs(openingSceneArgs(0));
  const request = {
    url: `${convexUrl.replace(/\/+$/, "")}/api/query`,
    path: getFunctionName(api.scene.listPage),
  };
  return (
    `(function(){if((${normalPath.toString()})(location.pathname)!==${scriptLiteral(paths.scene)})return;` +
    `var a=${scriptLiteral(template)};a.nowMs=(${sceneListHour.toString()})(Date.now());var r;` +
    `try{r=fetch(${scriptLiteral(request.url)},{method:"POST",headers:{"Content-Type":"application/json"},` +
    `body:JSON.stringify({path:${scriptLiteral(request.path)},format:"convex_encoded_json",args:[a]})})` +
    `.then(function(s){return s.ok?s.json():null}).then(function(b){return b&&b.status==="success"?b.value:null},` +
    `function(){return null})}catch(e){r=Promise.resolve(null)}` +
    `window[${scriptLiteral(HTTP_FIRST_PAGE_GLOBAL)}]={args:a,result:r};setTimeout(function(){try{` +
    `new Intl.DateTimeFormat("en-US",{timeZone:${scriptLiteral(DEFAULT_TIME_ZONE)},timeZoneName:"longOffset"}).format(0)` +
    `}catch(e){}},0)})()`
  );
}

/** How long the page fetched with the HTML may stand in (as long as the WebSocket's prewarmed copy is kept). */
export const HTTP_FIRST_PAGE_MAX_AGE_MS = 30_000;

/**
 * The page index.html's script fetched, once it has arrived (null: none, another
 * page, it failed, or it is retired). It stands in once: until a list has its
 * own live first page, and for {@link HTTP_FIRST_PAGE_MAX_AGE_MS} at most, so a
 * list mounted later (back from another page, the distance filter turned off)
 * never shows the snapshot the page loaded with.
 */
const httpFirstPage: { key: string | null; value: ScenePage | null; listeners: Set<() => void> } = {
  key: null,
  value: null,
  listeners: new Set(),
};

/** Whether a decoded answer is a page of scene.listPage's shape (the list reads these fields). */
function isScenePage(value: unknown): value is ScenePage {
  if (value === null || typeof value !== "object") return false;
  const page = value as Record<string, unknown>;
  return (
    Array.isArray(page.page) &&
    page.page.every((item) => item !== null && typeof item === "object" && typeof item._id === "string") &&
    typeof page.isDone === "boolean" &&
    typeof page.continueCursor === "string"
  );
}

/** The list has its own live first page: the page fetched with the HTML stands in no more. */
export function retireHttpFirstPage(): void {
  if (httpFirstPage.value === null && httpFirstPage.key === null) return;
  httpFirstPage.key = null;
  httpFirstPage.value = null;
  httpFirstPage.listeners.forEach((notify) => notify());
}

/** Takes over the request index.html's script made (called once, as the entry loads). */
export function adoptHttpFirstPage(request: HttpFirstPageRequest | undefined = readHttpFirstPageGlobal()): void {
  if (!request || typeof request !== "object" || typeof request.result?.then !== "function") return;
  const key = canonical(request.args);
  httpFirstPage.key = key;
  setTimeout(() => {
    if (httpFirstPage.key === key) retireHttpFirstPage();
  }, HTTP_FIRST_PAGE_MAX_AGE_MS);
  void request.result.then(
    (value) => {
      if (value === null || value === undefined || httpFirstPage.key !== key) return;
      let page: unknown;
      try {
        page = jsonToConvex(value);
      } catch {
        return;
      }
      // Anything else than a page (a proxy's error page, another version's answer) is left out.
      if (!isScenePage(page)) return;
      httpFirstPage.value = page;
      httpFirstPage.listeners.forEach((notify) => notify());
    },
    () => undefined,
  );
}

function readHttpFirstPageGlobal(): HttpFirstPageRequest | undefined {
  if (typeof window === "undefined") return undefined;
  return (window as unknown as Record<string, HttpFirstPageRequest | undefined>)[HTTP_FIRST_PAGE_GLOBAL];
}

const subscribeHttpFirstPage = (notify: () => void) => {
  httpFirstPage.listeners.add(notify);
  return () => void httpFirstPage.listeners.delete(notify);
};

/** The first page index.html's script fetched over HTTP, if it was for `args` and has arrived. */
export function httpFirstPageFor(args: SceneListArgs | null): ScenePage | undefined {
  if (args === null || httpFirstPage.value === null) return undefined;
  return canonical(firstPageArgs(args)) === httpFirstPage.key ? httpFirstPage.value : undefined;
}

/** {@link httpFirstPageFor}, re-rendering when the page arrives (null: waiting for nothing). */
export function useHttpFirstPage(args: SceneListArgs | null): ScenePage | undefined {
  return useSyncExternalStore(subscribeHttpFirstPage, () => httpFirstPageFor(args));
}
