import { Button } from "@radix-ui/themes";
import type { Id } from "@convex/_generated/dataModel";
import { WizardFrame } from "@/components/WizardFrame";
import { useReachable } from "@/lib/useReachable";
import type { WizardStepProps } from "@/lib/wizardPartProps";
import { LOG_SET_STEPS, useLogSetWizard } from "../wizardStore";
import { OfflineMicChoices, OfflineNotice } from "./OfflineMics";

/** Step 1: 'Where did you perform?' Offline, also the comedian's own mics (the search needs a connection). */
export function LogSetVenueStep({ slots }: WizardStepProps) {
  const { venue, setVenue, setEvent, goTo } = useLogSetWizard();
  const reachable = useReachable();
  return (
    <WizardFrame step={1} total={LOG_SET_STEPS} title="Where did you perform?">
      {!reachable && !venue ? (
        <>
          <OfflineNotice />
          <OfflineMicChoices
            onPick={(mic) => {
              setVenue({ venueName: mic.venueName, city: mic.city });
              setEvent({ kind: "existing", sceneItemId: mic.sceneItemId as Id<"sceneItems">, title: mic.title });
              goTo("details");
            }}
          />
        </>
      ) : null}
      <slots.VenueSearch value={venue} onChange={setVenue} label="Venue" autoFocus={reachable} />
      {venue ? (
        <Button size="4" onClick={() => goTo("event")}>
          Continue
        </Button>
      ) : null}
    </WizardFrame>
  );
}
