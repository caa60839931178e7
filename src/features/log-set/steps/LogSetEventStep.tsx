import { Button, Text } from "@radix-ui/themes";
import { EventAtVenueStep } from "@/components/WizardSteps";
import { weeklySlotText } from "@/lib/format";
import type { EventAtVenue, WizardStepProps } from "@/lib/wizardSlots";
import { LOG_SET_STEPS, useLogSetWizard } from "../wizardStore";
import { MissingVenue } from "./MissingVenue";

export const SELECT_EVENT_MESSAGE = "Select an event option";

const scheduleLine = (item: EventAtVenue) => [item.venueName, weeklySlotText(item)].filter(Boolean).join(" · ");

/** Step 2: 'What event did you perform at?': the venue's events and similar ones, the only match preselected. */
export function LogSetEventStep({ slots }: WizardStepProps) {
  const { venue, event, setEvent, goTo } = useLogSetWizard();
  if (!venue) return <MissingVenue />;
  return (
    <EventAtVenueStep
      slots={slots}
      step={2}
      total={LOG_SET_STEPS}
      title="What event did you perform at?"
      venue={venue}
      picker={{
        value: event,
        onChange: setEvent,
        newEvent: { title: "New event / not listed", hint: "Add the mic or show details next" },
        describe: scheduleLine,
        withSimilar: true,
        preselect: true,
      }}
      onBack={() => goTo("venue")}
      status={
        event === null ? (
          <Text size="2" color="gray" role="status">
            {SELECT_EVENT_MESSAGE}
          </Text>
        ) : null
      }
      actions={
        <Button size="4" disabled={event === null} onClick={() => goTo("details")}>
          Continue
        </Button>
      }
    />
  );
}
