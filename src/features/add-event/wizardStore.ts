import type { EventDetails, VenueInput } from "../../../convex/model/events";
import { createSessionStore, useSessionStore } from "@/lib/sessionStore";

export type AddEventState = {
  venue: VenueInput | null;
  /** The saved event, for the success summary. */
  saved: { title: string; details: EventDetails } | null;
};

const initial: AddEventState = { venue: null, saved: null };

export const addEventStore = createSessionStore<AddEventState>("stagetime.addEvent", initial);

export function useAddEventWizard() {
  const state = useSessionStore(addEventStore);
  return {
    ...state,
    setVenue: (venue: VenueInput | null) => addEventStore.update({ venue, saved: null }),
    setSaved: (saved: AddEventState["saved"]) => addEventStore.update({ saved }),
    reset: () => addEventStore.reset(),
  };
}
