import { StepPlaceholder } from "@/features/onboarding/StepPlaceholder";
import type { OnboardingStep as StepName } from "@/lib/paths";

/** Onboarding steps 2 to 10 (the router passes which one). */
export default function OnboardingStep({ step }: { step: Exclude<StepName, "welcome"> }) {
  return <StepPlaceholder step={step} />;
}
