import type { EventDetails, VenueInput } from "@convex/model/events";
import { paths, type AddEventStep } from "@/lib/paths";
import { createSessionStore } from "@/lib/sessionStore";
import { useWizard, type WizardDefinition } from "@/lib/useWizard";

/** How many steps "Step n of 3" counts (success is not one). */
export const ADD_EVENT_STEPS = 3;

export type AddEventState = {
  venue: VenueInput | null;
  /** The saved event, for the success summary. */
  saved: { title: string; details: EventDetails } | null;
};

const initial: AddEventState = { venue: null, saved: null };

export const addEventStore = createSessionStore<AddEventState>("stagetime.addEvent", initial);

const addEventWizard: WizardDefinition<"venue" | AddEventStep, AddEventState> = {
  store: addEventStore,
  path: (step) => (step === "venue" ? paths.addEvent : paths.addEventStep(step)),
};

/** The add-event wizard: 1 venue, 2 event, 3 details, then success. */
export function useAddEventWizard() {
  const wizard = useWizard(addEventWizard);
  return {
    ...wizard,
    ...wizard.state,
    setVenue: (venue: VenueInput | null) => addEventStore.update({ venue, saved: null }),
    setSaved: (saved: AddEventState["saved"]) => addEventStore.update({ saved }),
  };
}
