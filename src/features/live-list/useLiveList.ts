import { useQuery } from "convex/react";
import { addDaysToDate, localDateString } from "../../../convex/lib/time";
import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";
import { useNow } from "@/lib/useNow";

/** Tonight in the mic's time zone ("YYYY-MM-DD"), and yesterday there. */
export function useMicNight(timeZone: string): { today: string; yesterday: string } {
  const now = useNow(60_000);
  const today = localDateString(now, timeZone);
  return { today, yesterday: addDaysToDate(today, -1) };
}

/** The mic's current list, live (a night running past midnight stays current). */
export function useLiveList(micId: Id<"sceneItems">, timeZone: string) {
  const { yesterday } = useMicNight(timeZone);
  return useQuery(api.nightLists.current, { micId, sinceDate: yesterday });
}
