import { toast } from "sonner";
import { errorCode } from "@/lib/convexErrors";
import { CHOOSE_FIRST } from "@/lib/wizardPartProps";

export const TOASTS = {
  selectVenue: CHOOSE_FIRST.venue,
  makeSelection: CHOOSE_FIRST.event,
  loadEvents: { title: "Error", description: "Failed to load events for this venue." },
  signIn: { title: "Error", description: "Please sign in to continue." },
  favorite: { title: "Error", description: "Failed to add event to favorites." },
  saveVenue: {
    title: "Error saving venue",
    description: "We'll try again during onboarding completion. You can continue for now.",
    duration: 2500,
  },
} as const;

/** Maps a failed call to the onboarding toasts; true when it was handled. */
export function toastSignIn(err: unknown): boolean {
  if (errorCode(err) !== "NOT_SIGNED_IN") return false;
  toast.error(TOASTS.signIn.title, { description: TOASTS.signIn.description, id: "onboarding-sign-in" });
  return true;
}
