import { CheckCircledIcon, StarFilledIcon } from "@radix-ui/react-icons";
import { Button, Flex, Heading, Text } from "@radix-ui/themes";
import { OnboardingShell } from "../OnboardingShell";
import { useOnboardingProgress } from "../useOnboardingProgress";

/** Step 6: 'Favorite Added!' or 'Venue Added!'. */
export function SuccessStep() {
  const { progress, goTo, redirect } = useOnboardingProgress();
  const last = progress.addedVenues.at(-1);
  if (!last || progress.lastSaved === null) return redirect("event");
  const favorite = progress.lastSaved === "favorite";
  return (
    <OnboardingShell step={6} backTo={favorite ? "details" : "venue-details"}>
      <Flex direction="column" gap="4" align="center" style={{ textAlign: "center" }}>
        <Text color="green" size="8" aria-hidden="true">
          {favorite ? <StarFilledIcon width="40" height="40" /> : <CheckCircledIcon width="40" height="40" />}
        </Text>
        <Heading as="h1" size="7">
          {favorite ? "Favorite Added!" : "Venue Added!"}
        </Heading>
        <Text as="p" color="gray">
          {favorite
            ? `Your ${progress.setDetails.minutes}-minute set is logged and ${progress.matchedTitle ?? last.venue.venueName} is in your favorites.`
            : last.saveError
              ? `We'll finish saving your event at ${last.venue.venueName} when you complete setup.`
              : `Your event at ${last.venue.venueName} is on the scene and in your schedule.`}
        </Text>
        <Button size="3" onClick={() => goTo("checkin-info")}>
          Next
        </Button>
      </Flex>
    </OnboardingShell>
  );
}
