import { Button, Flex, Heading, Text } from "@radix-ui/themes";
import { OnboardingShell } from "../OnboardingShell";
import { useOnboardingProgress } from "../useOnboardingProgress";

/** Step 8: another venue (back to step 2 with a clean selection) or on to the goal. */
export function AddAnotherStep() {
  const { progress, dispatch, goTo } = useOnboardingProgress();
  const saved = progress.addedVenues.length;
  return (
    <OnboardingShell step={8}>
      <Flex direction="column" gap="4" align="center" style={{ textAlign: "center" }}>
        <Heading as="h1" size="7">
          Add another venue?
        </Heading>
        <Text as="p" color="gray">
          {saved > 0
            ? `You've saved ${saved} ${saved === 1 ? "mic" : "mics"} so far. Most comedians hit a few rooms a week.`
            : "Most comedians hit a few rooms a week."}
        </Text>
        <Flex gap="3" direction={{ initial: "column", xs: "row" }}>
          <Button
            size="3"
            variant="soft"
            onClick={() => {
              dispatch({ type: "wantsAnother", yes: true });
              goTo("venue");
            }}
          >
            Yes, add another
          </Button>
          <Button
            size="3"
            onClick={() => {
              dispatch({ type: "wantsAnother", yes: false });
              goTo("goal-setting");
            }}
          >
            No, continue
          </Button>
        </Flex>
      </Flex>
    </OnboardingShell>
  );
}
