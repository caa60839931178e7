import { Button, Text } from "@radix-ui/themes";
import { EventAtVenueStep } from "@/components/WizardSteps";
import { weeklySlotText } from "@/lib/format";
import { useReachable } from "@/lib/useReachable";
import type { EventAtVenue, WizardSlots, WizardStepProps } from "@/lib/wizardPartProps";
import { LOG_SET_STEPS, useLogSetWizard } from "../wizardStore";
import { MissingVenue } from "./MissingVenue";
import { OfflineEventPicker, OfflineNotice } from "./OfflineMics";

export const SELECT_EVENT_MESSAGE = "Select an event option";

const scheduleLine = (item: EventAtVenue) => [item.venueName, weeklySlotText(item)].filter(Boolean).join(" · ");

/** Step 2: 'What event did you perform at?': the venue's events and similar ones, the only match preselected. */
export function LogSetEventStep({ slots }: WizardStepProps) {
  const { venue, event, setEvent, goTo } = useLogSetWizard();
  const reachable = useReachable();
  if (!venue) return <MissingVenue />;
  // Offline the venue's events cannot load: the comedian's own mics there, from the device's copy.
  const picker: WizardSlots = reachable ? slots : { ...slots, EventPicker: OfflineEventPicker };
  return (
    <EventAtVenueStep
      slots={picker}
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
        !reachable ? (
          <OfflineNotice />
        ) : event === null ? (
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
