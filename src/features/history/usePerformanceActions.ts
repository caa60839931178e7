import { useMutation } from "convex/react";
import { useCallback } from "react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { errorCode, errorMessage } from "@/lib/convexErrors";
import type { EditPerformanceValues } from "./editPerformance";

/** Browser event other screens listen to after a set is deleted. */
export const SESSION_DELETED_EVENT = "session-deleted";

/** Edit and delete of a set with the spec's toasts; each resolves to whether it worked. */
export function usePerformanceActions() {
  const update = useMutation(api.performances.update);
  const remove = useMutation(api.performances.remove);

  const save = useCallback(
    async (id: Id<"performances">, values: EditPerformanceValues): Promise<boolean> => {
      try {
        await update({ id, ...values });
        toast.success("Performance updated");
        return true;
      } catch (err) {
        console.error(err);
        // A refused value (e.g. a date in the future) or a rate limit says why; anything else gets the spec's text.
        const description =
          errorCode(err) === "INVALID_INPUT" || errorCode(err) === "RATE_LIMITED"
            ? errorMessage(err, "Failed to update performance. Please try again.")
            : "Failed to update performance. Please try again.";
        toast.error("Error", { description });
        return false;
      }
    },
    [update],
  );

  const destroy = useCallback(
    async (id: Id<"performances">): Promise<boolean> => {
      try {
        await remove({ id });
        toast.success("Performance deleted");
        window.dispatchEvent(new Event(SESSION_DELETED_EVENT));
        return true;
      } catch (err) {
        console.error(err);
        toast.error("Error", { description: "Failed to delete performance. Please try again." });
        return false;
      }
    },
    [remove],
  );

  return { save, destroy };
}
