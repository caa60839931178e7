import { useConvexAuth, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import { HOUR_MS } from "@convex/lib/time";
import type { ViewerState } from "./types";
import { useNow } from "@/lib/useNow";

/** How far back the caller's own check-ins are loaded ("Already checked in"). */
const RECENT_CHECK_INS_MS = 48 * HOUR_MS;

/**
 * The signed-in comedian's favourites, schedule, recent check-ins and role;
 * null when signed out, undefined while loading. `sinceMs` is rounded down to
 * the hour so the query's arguments (and its subscription) stay stable.
 */
export function useViewerState(): ViewerState | null | undefined {
  // The scene renders before the session is known (StartupGate): asking now could
  // answer for nobody (null) and then flip to the comedian's state. Wait for the session.
  const { isLoading } = useConvexAuth();
  const now = useNow(5 * 60_000);
  const sinceMs = Math.floor((now - RECENT_CHECK_INS_MS) / HOUR_MS) * HOUR_MS;
  return useQuery(api.scene.viewerState, isLoading ? "skip" : { sinceMs });
}
