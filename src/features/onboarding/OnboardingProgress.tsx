import { Flex, Progress, Text } from "@radix-ui/themes";
import { SHOWN_STEPS, shownStep } from "./progress";

/** The step indicator at the top of every onboarding screen ("Step 4 of 9"): the set length of a
 * listed mic and a new mic's details are the same step, so no path jumps a number. */
export function OnboardingProgress({ step }: { step: number }) {
  const shown = shownStep(step);
  const label = `Step ${shown} of ${SHOWN_STEPS}`;
  return (
    <Flex direction="column" gap="2">
      <Text size="1" color="gray" aria-hidden="true">
        {label}
      </Text>
      <Progress value={(shown / SHOWN_STEPS) * 100} size="2" aria-label={label} />
    </Flex>
  );
}
