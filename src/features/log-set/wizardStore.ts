import type { Id } from "../../../convex/_generated/dataModel";
import type { VenueInput } from "../../../convex/model/events";
import { createSessionStore, useSessionStore } from "@/lib/sessionStore";
import type { SetDraft } from "./setDetails";

/** The event chosen on the event step: an existing mic or show, or 'New event / not listed'. */
export type EventChoice = { kind: "existing"; sceneItemId: Id<"sceneItems">; title: string } | { kind: "none" };

export type LogSetState = {
  venue: VenueInput | null;
  event: EventChoice | null;
  set: SetDraft | null;
  /** What the success step shows. */
  result: { totalMinutes: number; minutes: number; venueName: string } | null;
};

const initial: LogSetState = { venue: null, event: null, set: null, result: null };

export const logSetStore = createSessionStore<LogSetState>("stagetime.logSet", initial);

export function useLogSetWizard() {
  const state = useSessionStore(logSetStore);
  return {
    ...state,
    /** A new venue forgets the event chosen for the old one. */
    setVenue: (venue: VenueInput | null) => logSetStore.update({ venue, event: null }),
    setEvent: (event: EventChoice | null) => logSetStore.update({ event }),
    setSet: (set: SetDraft) => logSetStore.update({ set }),
    finish: (result: LogSetState["result"]) => logSetStore.update({ ...initial, result }),
    reset: () => logSetStore.reset(),
  };
}
