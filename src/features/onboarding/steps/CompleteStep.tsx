import { Button, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { OnboardingShell } from "../OnboardingShell";
import { useFinishOnboarding } from "../useFinishOnboarding";
import { useOnboardingProgress } from "../useOnboardingProgress";

/** Step 10: 'You're all set!' with 'Let's Go' and 'Skip to Dashboard'. */
export function CompleteStep() {
  const { progress } = useOnboardingProgress();
  const { complete, skip, pending } = useFinishOnboarding();
  const sets = progress.addedVenues.filter((e) => e.event !== "new").length;
  const mics = progress.addedVenues.filter((e) => e.event === "new").length;
  return (
    <OnboardingShell step={10} hideSkip>
      <Flex direction="column" gap="4" align="center" style={{ textAlign: "center" }}>
        <Heading as="h1" size="7">
          You're all set!
        </Heading>
        <Card variant="surface" style={{ width: "100%" }}>
          <Flex direction="column" gap="1" align="start">
            <Text size="2">Weekly goal: {progress.weeklyGoal} minutes</Text>
            {sets > 0 ? (
              <Text size="2">First set logged and {sets === 1 ? "1 favorite" : `${sets} favorites`} saved</Text>
            ) : null}
            {mics > 0 ? (
              <Text size="2">{mics === 1 ? "1 new event" : `${mics} new events`} added to the scene</Text>
            ) : null}
          </Flex>
        </Card>
        <Text as="p" color="gray">
          Your logbook is ready. Time to get up on stage.
        </Text>
        <Flex gap="3" direction={{ initial: "column", xs: "row" }}>
          <Button size="3" loading={pending} onClick={() => void complete(progress.weeklyGoal)}>
            Let's Go
          </Button>
          <Button size="3" variant="soft" disabled={pending} onClick={() => void skip()}>
            Skip to Dashboard
          </Button>
        </Flex>
      </Flex>
    </OnboardingShell>
  );
}
