import { WelcomeStep } from "@/features/onboarding/WelcomeStep";

export default function OnboardingWelcome() {
  return <WelcomeStep />;
}
