import { useMutation } from "convex/react";
import { ConvexError } from "convex/values";
import { useState } from "react";
import { toast } from "sonner";
import { errorMessage } from "@/lib/convexErrors";
import { viewerTimeZone } from "@/lib/timeZone";
import type { WizardStepProps } from "@/lib/wizardPartProps";
import { api } from "@convex/_generated/api";
import { localDateString } from "@convex/lib/time";
import type { EventDetails } from "@convex/model/events";
import { OnboardingShell } from "../OnboardingShell";
import { detailsIncomplete } from "../progress";
import { TOASTS, toastSignIn } from "../toasts";
import { useOnboardingProgress } from "../useOnboardingProgress";

/** Step 5: a new mic or show at the venue; Next creates it in the scene. */
export function VenueDetailsStep({ slots }: WizardStepProps) {
  const { progress, dispatch, goTo, redirect } = useOnboardingProgress();
  const createEvent = useMutation(api.events.create);
  const [today] = useState(() => localDateString(Date.now(), viewerTimeZone()));
  if (!progress.venue) return redirect("venue");
  const venue = progress.venue;

  const onSubmit = async (details: EventDetails) => {
    try {
      const { sceneItemId } = await createEvent({ venue, details });
      dispatch({ type: "saved", kind: "venue", entry: { venue, event: "new", details, sceneItemId } });
    } catch (err) {
      if (toastSignIn(err)) return;
      if (err instanceof ConvexError) {
        // The server refused the details (a duplicate, a bad link): the comedian can fix them here.
        toast.error("Could not save event", {
          description: errorMessage(err, "Please check your inputs and try again."),
        });
        return;
      }
      // A lost connection or a server fault: keep going and retry at completion.
      console.error("Error saving venue", err);
      toast.error(TOASTS.saveVenue.title, {
        description: TOASTS.saveVenue.description,
        duration: TOASTS.saveVenue.duration,
      });
      dispatch({
        type: "saved",
        kind: "venue",
        entry: { venue, event: "new", details, sceneItemId: null, saveError: errorMessage(err, "Could not save") },
      });
    }
    goTo("success");
  };

  return (
    <OnboardingShell step={5} backTo="event">
      <slots.EventForm
        venueName={venue.venueName}
        defaultStartTime="20:00"
        today={today}
        // Onboarding mics always go to the scene list, where one-time events do not belong.
        allowOneTime={false}
        initialValues={progress.newVenueDetails ?? undefined}
        submitLabel="Next"
        onSubmit={onSubmit}
        onDraftChange={(draft) => dispatch({ type: "setDraft", draft })}
        submitDisabled={detailsIncomplete}
        // Nothing reaches everyone's scene from the defaults alone: the comedian confirms the day and time.
        confirmSchedule
      />
    </OnboardingShell>
  );
}
