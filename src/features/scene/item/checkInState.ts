import { checkInWindow } from "@convex/lib/checkInWindow";
import type { SceneItem, ViewerState } from "./types";

/**
 * Where the item stands for a check-in right now, from the same pure rule the
 * server applies, or 'Already checked in' when the comedian has a check-in for
 * this occurrence's day.
 */
export function checkInState(
  item: Pick<SceneItem, "_id" | "dayOfWeek" | "startTimeLocal" | "timeZone">,
  viewer: Pick<ViewerState, "recentCheckIns"> | null | undefined,
  now: number,
) {
  const window = checkInWindow(item, now);
  const alreadyCheckedIn =
    !!viewer &&
    window.localDate !== null &&
    viewer.recentCheckIns.some((c) => c.sceneItemId === item._id && c.localDate === window.localDate);
  return {
    window,
    alreadyCheckedIn,
    label: alreadyCheckedIn ? "Already checked in" : window.label,
  };
}
