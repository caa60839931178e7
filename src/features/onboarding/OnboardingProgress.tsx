import { Flex, Progress, Text } from "@radix-ui/themes";
import { onboardingSteps } from "@/lib/paths";

/** The 10-step indicator at the top of every onboarding screen. */
export function OnboardingProgress({ step }: { step: number }) {
  const total = onboardingSteps.length;
  const label = `Step ${step} of ${total}`;
  return (
    <Flex direction="column" gap="2">
      <Text size="1" color="gray" aria-hidden="true">
        {label}
      </Text>
      <Progress value={(step / total) * 100} size="2" aria-label={label} />
    </Flex>
  );
}
