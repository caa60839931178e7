import { useConvex, useConvexAuth } from "convex/react";
import { useNavigate, type NavigateFunction } from "@/lib/router";
import { toast } from "@/lib/toast";
import { api } from "@convex/_generated/api";
import { errorCode } from "../../../lib/convexErrors";
import { paths } from "../../../lib/paths";
import { viewerTimeZone } from "../../../lib/timeZone";
import { announceAddedToSchedule } from "./scheduleAdded";
import type { SceneItem } from "../item/types";
import type { ActionContext } from "./useCheckIn";

/**
 * Adds an item to the comedian's schedule and says when it next happens: the
 * date when it falls in this Monday-to-Sunday week, otherwise an action that
 * jumps the schedule to that week. `where` picks the duplicate wording of the
 * card or of the event page.
 */
export function useAddToSchedule(where: "card" | "page" = "card") {
  const client = useConvex();
  const { isAuthenticated } = useConvexAuth();
  const navigate = useNavigate();
  return (item: Pick<SceneItem, "_id" | "title" | "timeZone">) =>
    addToScheduleFlow({ client, isAuthenticated }, navigate, where, item);
}

/** {@link useAddToSchedule}'s flow. */
export async function addToScheduleFlow(
  { client, isAuthenticated }: ActionContext,
  navigate: NavigateFunction,
  where: "card" | "page",
  item: Pick<SceneItem, "_id" | "title" | "timeZone">,
): Promise<void> {
  const add = (args: { sceneItemId: SceneItem["_id"] }) => client.mutation(api.schedule.add, args);
  if (!isAuthenticated) {
    toast.error("Please sign in to add events to your schedule");
    return;
  }
  let added;
  try {
    added = await add({ sceneItemId: item._id });
  } catch (err) {
    switch (errorCode(err)) {
      case "ALREADY_EXISTS":
        toast.error(where === "page" ? "This event is already in your schedule" : "Already in your schedule");
        break;
      case "INCOMPLETE_SCHEDULE":
        toast.error("This event doesn't have a complete schedule");
        break;
      case "NOT_SIGNED_IN":
        toast.error("Please sign in to add events to your schedule");
        break;
      default:
        console.error(err);
        toast.error("Failed to add to schedule");
    }
    return;
  }
  await announceAddedToSchedule(item, added, {
    viewerTimeZone: viewerTimeZone(),
    jumpToWeek: (week) => void navigate(paths.scheduleWeek(week)),
  });
}
