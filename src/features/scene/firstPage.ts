import type { ConvexReactClient } from "convex/react";
import { api } from "../../../convex/_generated/api";
import { paths } from "../../lib/paths";
import { SCENE_PAGE_SIZE } from "./incremental";

/** The scene list's clock: the hour, so the subscription stays put within it. */
export const sceneListHour = (nowMs: number) => Math.floor(nowMs / 3_600_000) * 3_600_000;

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
  if ((pathname.replace(/\/+$/, "") || "/") !== paths.scene) return false;
  const args = firstPageArgs(openingSceneArgs(nowMs));
  prewarmed = { key: canonical(args), args };
  // Kept for 30 s: the page subscribes to the same query (same arguments) long before then.
  client.prewarmQuery({ query: api.scene.listPage, args, extendSubscriptionFor: 30_000 });
  return true;
}
