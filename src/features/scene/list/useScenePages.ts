import { usePaginatedQuery, useQuery } from "convex/react";
import { useEffect, useState } from "react";
import { api } from "@convex/_generated/api";
import { prewarmedFirstPage, retireHttpFirstPage, type SceneListArgs, useHttpFirstPage } from "./firstPage";
import { SCENE_PAGE_SIZE } from "./listPaging";

export type ScenePagesArgs = SceneListArgs;

/**
 * The scene from the server, a page of 24 at a time (scene.listPage), live. When the filters change the previous
 * results stay (`refreshing`) until the new first page arrives, so a search in progress does not blank the list.
 */
export function useScenePages(args: ScenePagesArgs) {
  const current = usePaginatedQuery(api.scene.listPage, args, { initialNumItems: SCENE_PAGE_SIZE });
  const [kept, setKept] = useState(current);
  const waiting = current.status === "LoadingFirstPage" && kept.status === "LoadingFirstPage";
  // On the very first load, the page asked for before render stands in: over the WebSocket (same arguments, live)
  // or, when it comes first, over HTTP from index.html's script, retired once a live first page is in.
  const live = useQuery(api.scene.listPage, (waiting && prewarmedFirstPage(args)) || "skip");
  const fetched = useHttpFirstPage(waiting ? args : null);
  const early = live ?? fetched;
  const settled = live !== undefined || current.status !== "LoadingFirstPage";
  useEffect(() => {
    if (settled) retireHttpFirstPage(args);
  }, [settled]); // eslint-disable-line react-hooks/exhaustive-deps
  // Remember the latest settled answer (React's "state from the previous render" pattern).
  if (current.status !== "LoadingFirstPage" && (kept.results !== current.results || kept.status !== current.status)) {
    setKept(current);
  }
  if (waiting && early !== undefined) {
    return {
      ...current,
      results: early.page,
      status: early.isDone ? ("Exhausted" as const) : ("CanLoadMore" as const),
      refreshing: false,
    };
  }
  const refreshing = current.status === "LoadingFirstPage" && kept.status !== "LoadingFirstPage";
  return { ...(refreshing ? kept : current), refreshing };
}
