import { Flex } from "@radix-ui/themes";
import { useState } from "react";
import { toast } from "sonner";
import type { WizardStepProps } from "@/lib/wizardPartProps";
import { OnboardingShell } from "../OnboardingShell";
import { NextButton, StepHeading } from "../StepParts";
import { TOASTS } from "../toasts";
import { useOnboardingProgress } from "../useOnboardingProgress";

/** Step 2: where the comedian performs. */
export function VenueStep({ slots }: WizardStepProps) {
  const { progress, dispatch, goTo } = useOnboardingProgress();
  const [enteringByHand, setEnteringByHand] = useState(false);
  const next = () => {
    if (!progress.venue) {
      toast.error(TOASTS.selectVenue.title, { description: TOASTS.selectVenue.description, id: "onboarding-venue" });
      return;
    }
    goTo("event");
  };
  return (
    <OnboardingShell step={2}>
      <Flex direction="column" gap="4">
        <StepHeading lead="Pick a club, bar or room where you do stage time. You can add more later.">
          Where do you perform?
        </StepHeading>
        <slots.VenueSearch
          value={progress.venue}
          onChange={(venue) => dispatch({ type: "selectVenue", venue })}
          label="Venue"
          onManualEntryChange={setEnteringByHand}
        />
        {enteringByHand ? null : <NextButton onClick={next} />}
      </Flex>
    </OnboardingShell>
  );
}
