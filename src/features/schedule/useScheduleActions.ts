import { useMutation } from "convex/react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { errorCode } from "../../lib/convexErrors";
import { withoutEntry } from "./optimistic";

/**
 * 'Remove from Schedule' with an optimistic update: the entry leaves every
 * loaded week at once; Convex drops the optimistic change when the mutation
 * fails, so the item comes back (rollback) and the live query stays the truth.
 */
export function useRemoveFromSchedule() {
  const remove = useMutation(api.schedule.remove).withOptimisticUpdate((localStore, { entryId }) => {
    for (const { args, value } of localStore.getAllQueries(api.schedule.week)) {
      if (value === undefined) continue;
      const next = withoutEntry(value, entryId);
      if (next !== value) localStore.setQuery(api.schedule.week, args, next);
    }
  });

  return async (entryId: Id<"scheduleEntries"> | undefined) => {
    if (!entryId) {
      toast.error("Unable to remove item - missing schedule ID");
      return;
    }
    try {
      await remove({ entryId });
      toast.success("Event removed from your schedule");
    } catch (err) {
      if (errorCode(err) === "NOT_FOUND") {
        // The live week query already shows what is really there.
        toast.error("Event not found in your schedule");
      } else {
        console.error(err);
        toast.error("Failed to remove event from schedule");
      }
    }
  };
}

/** 'Delete Performance Log': deletes one of the comedian's logged sets (after confirmation). */
export function useDeletePerformance() {
  const remove = useMutation(api.performances.remove);
  return async (performanceId: Id<"performances"> | undefined): Promise<boolean> => {
    if (!performanceId) {
      toast.error("Unable to delete session - missing session ID");
      return false;
    }
    try {
      await remove({ id: performanceId });
      toast.success("Performance log deleted");
      return true;
    } catch (err) {
      if (errorCode(err) === "NOT_FOUND") {
        toast.error("Performance log not found");
      } else {
        console.error(err);
        toast.error("Failed to delete performance log");
      }
      return false;
    }
  };
}
