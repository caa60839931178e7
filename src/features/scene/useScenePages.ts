import { usePaginatedQuery } from "convex/react";
import { useState } from "react";
import { api } from "../../../convex/_generated/api";
import { SCENE_PAGE_SIZE } from "./incremental";
import type { TypeFilter } from "./filters";

export type ScenePagesArgs = {
  type: TypeFilter;
  day: number | null;
  search: string;
  filters: {
    freeOnly: boolean;
    signup: "any" | "in_person" | "online";
    timeOfDay: "any" | "early" | "prime" | "late";
    hideStale: boolean;
  };
  /** The clock for the stale filter (rounded to the hour, so the subscription stays put). */
  nowMs: number;
};

/**
 * The scene from the server, a page of 24 at a time (scene.listPage), live.
 * When the filters change, the previous results stay (with `refreshing` set)
 * until the new first page arrives, so a search in progress does not blank
 * the list; only the very first load has nothing to show.
 */
export function useScenePages(args: ScenePagesArgs) {
  const current = usePaginatedQuery(api.scene.listPage, args, { initialNumItems: SCENE_PAGE_SIZE });
  const [kept, setKept] = useState(current);
  // Remember the latest settled answer (React's "state from the previous render" pattern).
  if (current.status !== "LoadingFirstPage" && (kept.results !== current.results || kept.status !== current.status)) {
    setKept(current);
  }
  const refreshing = current.status === "LoadingFirstPage" && kept.status !== "LoadingFirstPage";
  return { ...(refreshing ? kept : current), refreshing };
}
