import { Button, Flex, Heading, Text } from "@radix-ui/themes";
import { Link as RouterLink } from "react-router-dom";
import { onboardingStepNumber, onboardingSteps, paths, type OnboardingStep } from "@/lib/paths";
import { OnboardingShell } from "./OnboardingShell";
import { useFinishOnboarding } from "./useFinishOnboarding";

const HEADINGS: Record<Exclude<OnboardingStep, "welcome">, string> = {
  venue: "Where do you perform?",
  event: "Pick your event",
  details: "How long was your set?",
  "venue-details": "Event details",
  success: "Venue Added!",
  "checkin-info": "Pro tip: check in at your mics",
  "add-another": "Add another?",
  "goal-setting": "Set your weekly goal",
  complete: "You're all set!",
};

/** Steps 2 to 10 until the onboarding wizard lands: heading, Continue, and on the
 * last step 'Let's Go' / 'Skip to Dashboard' (both finish with the default goal). */
export function StepPlaceholder({ step }: { step: Exclude<OnboardingStep, "welcome"> }) {
  const number = onboardingStepNumber(step);
  const next = onboardingSteps[number] as OnboardingStep | undefined;
  const { skip, pending } = useFinishOnboarding();
  const isLast = step === "complete";
  return (
    <OnboardingShell step={number} hideSkip={isLast}>
      <Flex direction="column" gap="4" align="center" style={{ textAlign: "center" }}>
        <Heading as="h1" size="7">
          {HEADINGS[step]}
        </Heading>
        {isLast ? (
          <>
            <Text as="p" color="gray">
              Your logbook is ready. Time to get up on stage.
            </Text>
            <Flex gap="3" direction={{ initial: "column", xs: "row" }}>
              <Button size="3" loading={pending} onClick={() => void skip()}>
                Let's Go
              </Button>
              <Button size="3" variant="soft" loading={pending} onClick={() => void skip()}>
                Skip to Dashboard
              </Button>
            </Flex>
          </>
        ) : (
          <>
            <Text as="p" color="gray">
              This step is coming soon. You can continue or skip ahead.
            </Text>
            {next ? (
              <Button asChild size="3">
                <RouterLink to={paths.onboarding(next)}>Continue</RouterLink>
              </Button>
            ) : null}
          </>
        )}
      </Flex>
    </OnboardingShell>
  );
}
