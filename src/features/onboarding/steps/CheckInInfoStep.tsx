import { LightningBoltIcon } from "@radix-ui/react-icons";
import { Badge, Callout, Flex, Text } from "@radix-ui/themes";
import { CHECK_IN_CLOSES_AFTER_MIN, CHECK_IN_OPENS_BEFORE_MIN } from "@convex/lib/checkInWindow";
import { OnboardingShell } from "../OnboardingShell";
import { NextButton, StepHeading } from "../StepParts";
import { useOnboardingProgress } from "../useOnboardingProgress";

/** Step 7: the check-in pro tip. */
export function CheckInInfoStep() {
  const { goTo } = useOnboardingProgress();
  return (
    <OnboardingShell step={7}>
      <Flex direction="column" gap="4">
        <StepHeading>Check in at your mics</StepHeading>
        <Callout.Root color="amber" size="2">
          <Callout.Icon>
            <LightningBoltIcon />
          </Callout.Icon>
          <Flex direction="column" gap="2">
            <Text weight="bold">Pro tip</Text>
            <Callout.Text>
              Check in when you get to a mic. Check-ins are open from {CHECK_IN_OPENS_BEFORE_MIN} minutes before to{" "}
              {CHECK_IN_CLOSES_AFTER_MIN / 60} hours after show time.
            </Callout.Text>
            <Callout.Text>
              When 2 or more comedians check in, the mic earns a <Badge color="green">Verified</Badge> badge for 30
              days, so everyone knows it's really running.
            </Callout.Text>
          </Flex>
        </Callout.Root>
        <NextButton onClick={() => goTo("add-another")} />
      </Flex>
    </OnboardingShell>
  );
}
