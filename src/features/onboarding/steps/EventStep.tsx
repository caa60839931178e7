import { Flex } from "@radix-ui/themes";
import { toast } from "sonner";
import { weeklySlotText } from "@/lib/format";
import type { EventAtVenue, EventChoice, WizardStepProps } from "@/lib/wizardPartProps";
import { OnboardingShell } from "../OnboardingShell";
import { chosenSceneItem } from "../progress";
import { NextButton, StepHeading } from "../StepParts";
import { TOASTS } from "../toasts";
import { useOnboardingProgress } from "../useOnboardingProgress";

const kindAndTime = (item: EventAtVenue) =>
  [item.type === "open_mic" ? "Open mic" : "Show", weeklySlotText(item)].filter(Boolean).join(" · ");

const caption = ({ count, failed }: { count: number; failed: boolean }) =>
  count > 0
    ? "Pick your event, or add a new one"
    : failed
      ? "Add the event yourself"
      : "No events here yet. Add the first one!";

/** Step 3: an existing mic or show at the venue, or a new one. */
export function EventStep({ slots }: WizardStepProps) {
  const { progress, dispatch, goTo, redirect } = useOnboardingProgress();
  const venue = progress.venue;
  if (!venue) return redirect("venue");

  const matched = chosenSceneItem(progress);
  const value: EventChoice | null =
    progress.event === "new"
      ? { kind: "none" }
      : matched
        ? { kind: "existing", sceneItemId: matched, title: progress.matchedTitle ?? "" }
        : null;
  const choose = (choice: EventChoice) =>
    dispatch({
      type: "chooseEvent",
      choice:
        choice.kind === "none" ? { kind: "new" } : { kind: "existing", id: choice.sceneItemId, title: choice.title },
    });
  const next = () => {
    if (progress.event === "new") goTo("venue-details");
    else if (matched) goTo("details");
    else
      toast.error(TOASTS.makeSelection.title, {
        description: TOASTS.makeSelection.description,
        id: "onboarding-event",
      });
  };
  return (
    <OnboardingShell step={3}>
      <Flex direction="column" gap="4">
        <StepHeading lead={`Mics and shows at ${venue.venueName}.`}>Which event do you do there?</StepHeading>
        <slots.EventPicker
          venue={venue}
          value={value}
          onChange={choose}
          label="Which event do you do there?"
          caption={caption}
          newEvent={{ title: "Add a new event", hint: "Not listed? Add it to the scene." }}
          describe={kindAndTime}
          loadError={{ ...TOASTS.loadEvents, id: "onboarding-events" }}
        />
        <NextButton onClick={next} />
      </Flex>
    </OnboardingShell>
  );
}
