import type { VenueInput } from "@convex/model/events";
import { paths, type LogSetStep } from "@/lib/paths";
import { createSessionStore } from "@/lib/sessionStore";
import { useWizard, type WizardDefinition } from "@/lib/useWizard";
import type { EventChoice } from "@/lib/wizardPartProps";
import type { SetDraft } from "./setDetails";

export type { EventChoice };

/** How many steps "Step n of 4" counts (success is not one). */
export const LOG_SET_STEPS = 4;

export type LogSetState = {
  venue: VenueInput | null;
  event: EventChoice | null;
  set: SetDraft | null;
  /** What the success step shows; no total while the set waits in the device's outbox (under `clientKey`). */
  result: { totalMinutes: number | null; minutes: number; venueName: string; clientKey?: string } | null;
};

const initial: LogSetState = { venue: null, event: null, set: null, result: null };

export const logSetStore = createSessionStore<LogSetState>("stagetime.logSet", initial);

const logSetWizard: WizardDefinition<LogSetStep, LogSetState> = {
  store: logSetStore,
  path: (step) => (step === "venue" ? paths.logSet : paths.logSetStep(step)),
};

/** The log-a-set wizard: 1 venue, 2 event, 3 set details, 4 venue/mic details, then success. */
export function useLogSetWizard() {
  const wizard = useWizard(logSetWizard);
  return {
    ...wizard,
    ...wizard.state,
    /** A new venue forgets the event chosen for the old one. */
    setVenue: (venue: VenueInput | null) => logSetStore.update({ venue, event: null }),
    setEvent: (event: EventChoice | null) => logSetStore.update({ event }),
    setSet: (set: SetDraft) => logSetStore.update({ set }),
    finish: (result: LogSetState["result"]) => logSetStore.update({ ...initial, result }),
  };
}
