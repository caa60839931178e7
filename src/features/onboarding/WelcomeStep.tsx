import { CalendarIcon, MagnifyingGlassIcon, StarIcon } from "@radix-ui/react-icons";
import { Button, Flex, Heading, Text } from "@radix-ui/themes";
import { Link as RouterLink } from "@/lib/router";
import { onboardingSteps, paths } from "@/lib/paths";
import { OnboardingShell } from "./OnboardingShell";
import { SHOWN_STEPS, shownStep } from "./progress";
import { useOnboardingProgress } from "./useOnboardingProgress";
import { isDefaultStageName } from "@convex/lib/profileRules";

const POINTS = [
  { icon: <MagnifyingGlassIcon />, text: "Add the venue where you perform most" },
  { icon: <CalendarIcon />, text: "Log your first set or save a mic to your schedule" },
  { icon: <StarIcon />, text: "Set a weekly stage-time goal" },
];

/** Onboarding step 1: what setup involves, Get Started or Skip. */
export function WelcomeStep() {
  const { me, progress } = useOnboardingProgress();
  const resumeAt = progress.step > 1 ? onboardingSteps[progress.step - 1] : undefined;
  const firstName = isDefaultStageName(me?.displayName) ? undefined : me?.displayName?.trim().split(/\s+/)[0];
  return (
    <OnboardingShell step={1}>
      <Flex direction="column" gap="4" align="center" style={{ textAlign: "center" }}>
        <Heading as="h1" size="7">
          {firstName ? `Welcome to StageTime, ${firstName}!` : "Welcome to StageTime!"}
        </Heading>
        <Text as="p" size="3" color="gray">
          Let's set up your comedy logbook. It takes about a minute.
        </Text>
        <Flex direction="column" gap="2" align="start" asChild>
          <ul style={{ listStyle: "none", padding: 0, margin: 0 }}>
            {POINTS.map((point) => (
              <li key={point.text}>
                <Flex gap="2" align="center">
                  <Text color="violet" aria-hidden="true">
                    {point.icon}
                  </Text>
                  <Text size="2">{point.text}</Text>
                </Flex>
              </li>
            ))}
          </ul>
        </Flex>
        {resumeAt ? (
          <Flex direction="column" gap="2" align="center">
            <Text size="2" color="gray">
              You got to step {shownStep(progress.step)} of {SHOWN_STEPS} last time.
            </Text>
            <Flex gap="3" direction={{ initial: "column", xs: "row" }}>
              <Button asChild size="3">
                <RouterLink to={paths.onboarding(resumeAt)}>Continue where you left off</RouterLink>
              </Button>
              <Button asChild size="3" variant="soft">
                <RouterLink to={paths.onboarding("venue")}>Get Started</RouterLink>
              </Button>
            </Flex>
          </Flex>
        ) : (
          <Button asChild size="3">
            <RouterLink to={paths.onboarding("venue")}>Get Started</RouterLink>
          </Button>
        )}
      </Flex>
    </OnboardingShell>
  );
}
