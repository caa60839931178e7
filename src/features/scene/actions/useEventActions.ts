import { useConvex, type ConvexReactClient } from "convex/react";
import { toast } from "@/lib/toast";
import { api } from "@convex/_generated/api";
import type { SceneItemId } from "../item/types";

const TRY_LATER = "Please try again later.";

/** The event dialog's actions: delete (creator or admin) and remove from schedule. */
export function useEventActions() {
  return eventActions(useConvex());
}

/** {@link useEventActions}' actions, for a page that holds the client. */
export function eventActions(client: ConvexReactClient) {
  const removeItem = (args: { id: SceneItemId }) => client.mutation(api.scene.remove, args);
  // The scheduled state flips at once and comes back if the server refuses.
  const removeByItem = (args: { sceneItemId: SceneItemId }) =>
    client.mutation(api.schedule.removeByItem, args, {
      optimisticUpdate: (store, { sceneItemId }) => {
        for (const { args, value } of store.getAllQueries(api.scene.viewerState)) {
          if (value) {
            store.setQuery(api.scene.viewerState, args, {
              ...value,
              schedule: value.schedule.filter((e) => e.sceneItemId !== sceneItemId),
            });
          }
        }
      },
    });

  const deleteEvent = async (id: SceneItemId): Promise<boolean> => {
    try {
      const { updatedSets } = await removeItem({ id });
      toast.success("Event deleted", {
        description: `${updatedSets} logged ${updatedSets === 1 ? "set" : "sets"} updated`,
      });
      return true;
    } catch (err) {
      console.error(err);
      toast.error("Failed to delete event", { description: TRY_LATER });
      return false;
    }
  };

  const removeFromSchedule = async (sceneItemId: SceneItemId): Promise<boolean> => {
    try {
      await removeByItem({ sceneItemId });
      toast.success("Removed from schedule");
      return true;
    } catch (err) {
      console.error(err);
      toast.error("Failed to remove from schedule", { description: TRY_LATER });
      return false;
    }
  };

  return { deleteEvent, removeFromSchedule };
}
