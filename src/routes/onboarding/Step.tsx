import { AddAnotherStep } from "@/features/onboarding/steps/AddAnotherStep";
import { CheckInInfoStep } from "@/features/onboarding/steps/CheckInInfoStep";
import { CompleteStep } from "@/features/onboarding/steps/CompleteStep";
import { EventStep } from "@/features/onboarding/steps/EventStep";
import { GoalStep } from "@/features/onboarding/steps/GoalStep";
import { SetLengthStep } from "@/features/onboarding/steps/SetLengthStep";
import { SuccessStep } from "@/features/onboarding/steps/SuccessStep";
import { VenueDetailsStep } from "@/features/onboarding/steps/VenueDetailsStep";
import { VenueStep } from "@/features/onboarding/steps/VenueStep";
import type { OnboardingStep as StepName } from "@/lib/paths";
import { wizardSlots } from "../wizardParts";

/** Onboarding steps 2 to 10 (the router passes which one). */
export default function OnboardingStep({ step }: { step: Exclude<StepName, "welcome"> }) {
  switch (step) {
    case "venue":
      return <VenueStep slots={wizardSlots} />;
    case "event":
      return <EventStep slots={wizardSlots} />;
    case "details":
      return <SetLengthStep />;
    case "venue-details":
      return <VenueDetailsStep slots={wizardSlots} />;
    case "success":
      return <SuccessStep />;
    case "checkin-info":
      return <CheckInInfoStep />;
    case "add-another":
      return <AddAnotherStep />;
    case "goal-setting":
      return <GoalStep />;
    case "complete":
      return <CompleteStep />;
  }
}
