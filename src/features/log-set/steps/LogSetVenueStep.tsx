import { Button } from "@radix-ui/themes";
import { WizardFrame } from "@/components/WizardFrame";
import type { WizardStepProps } from "@/lib/wizardSlots";
import { LOG_SET_STEPS, useLogSetWizard } from "../wizardStore";

/** Step 1: 'Where did you perform?' */
export function LogSetVenueStep({ slots }: WizardStepProps) {
  const { venue, setVenue, goTo } = useLogSetWizard();
  return (
    <WizardFrame step={1} total={LOG_SET_STEPS} title="Where did you perform?">
      <slots.VenueSearch value={venue} onChange={setVenue} label="Venue" autoFocus />
      {venue ? (
        <Button size="4" onClick={() => goTo("event")}>
          Continue
        </Button>
      ) : null}
    </WizardFrame>
  );
}
