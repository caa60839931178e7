import { useQuery } from "convex/react";
import { addDaysToDate, localDateString } from "@convex/lib/time";
import { joinViewer } from "@convex/lib/liveListViewer";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { useNow } from "@/lib/useNow";

/** Tonight in the mic's time zone ("YYYY-MM-DD"), and yesterday there. */
export function useMicNight(timeZone: string): { today: string; yesterday: string } {
  const now = useNow(60_000);
  const today = localDateString(now, timeZone);
  return { today, yesterday: addDaysToDate(today, -1) };
}

/**
 * The mic's current list, live (a night running past midnight stays current):
 * the view every viewer shares, joined with the caller's own side of it.
 */
export function useLiveList(micId: Id<"sceneItems">, timeZone: string) {
  const { yesterday } = useMicNight(timeZone);
  const current = useQuery(api.nightLists.current, { micId });
  const viewer = useQuery(api.nightLists.viewer, { micId });
  if (current === undefined || viewer === undefined) return undefined;
  return joinViewer(current, viewer, yesterday);
}
