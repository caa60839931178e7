import { ConvexError } from "convex/values";
import { errorMessage } from "@/lib/convexErrors";

/**
 * The toast for a failed save (part 2 §8): a validation error from the server
 * reads 'Could not save' with its message; anything else (network, a crash)
 * reads 'Could not save set: Please try again.'.
 */
export function saveErrorToast(err: unknown): { title: string; description: string } {
  if (err instanceof ConvexError) {
    return { title: "Could not save", description: errorMessage(err, "Please check your inputs and try again.") };
  }
  return { title: "Could not save set", description: "Please try again." };
}
