import { Button } from "@radix-ui/themes";
import { useState } from "react";
import { toast } from "sonner";
import { WizardFrame } from "@/components/WizardFrame";
import { CHOOSE_FIRST, type WizardStepProps } from "@/lib/wizardPartProps";
import { ADD_EVENT_STEPS, useAddEventWizard } from "../wizardStore";

/** Step 1: 'Add New Event' with the venue search (US only, at least 3 characters). */
export function AddEventVenueStep({ slots }: WizardStepProps) {
  const { venue, setVenue, goTo } = useAddEventWizard();
  const [enteringByHand, setEnteringByHand] = useState(false);
  return (
    <WizardFrame step={1} total={ADD_EVENT_STEPS} title="Add New Event" subtitle="Where is it?">
      <slots.VenueSearch
        value={venue}
        onChange={setVenue}
        usOnly
        minChars={3}
        label="Venue"
        onManualEntryChange={setEnteringByHand}
      />
      {enteringByHand ? null : (
        <Button
          size="4"
          onClick={() => {
            if (!venue) {
              toast.error(CHOOSE_FIRST.venue.title, { description: CHOOSE_FIRST.venue.description });
              return;
            }
            goTo("event");
          }}
        >
          Continue
        </Button>
      )}
    </WizardFrame>
  );
}
