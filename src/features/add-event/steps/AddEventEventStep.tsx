import { Button, Flex } from "@radix-ui/themes";
import { useMutation } from "convex/react";
import { useState } from "react";
import { useNavigate } from "@/lib/router";
import { toast } from "sonner";
import { EventAtVenueStep } from "@/components/WizardSteps";
import { errorCode } from "@/lib/convexErrors";
import { weeklySlotText } from "@/lib/format";
import { paths } from "@/lib/paths";
import { CHOOSE_FIRST, type EventChoice, type WizardStepProps } from "@/lib/wizardPartProps";
import { api } from "@convex/_generated/api";
import { ADD_EVENT_STEPS, useAddEventWizard } from "../wizardStore";

/** Step 2: 'What event is it?': an event already listed at the venue, or a new one. */
export function AddEventEventStep({ slots }: WizardStepProps) {
  const { venue, goTo, redirect } = useAddEventWizard();
  const navigate = useNavigate();
  const addToSchedule = useMutation(api.schedule.add);
  const [choice, setChoice] = useState<EventChoice | null>(null);
  const [busy, setBusy] = useState(false);

  if (!venue) return redirect("venue");

  const next = async () => {
    if (choice === null) {
      toast.error(CHOOSE_FIRST.event.title, { description: CHOOSE_FIRST.event.description });
      return;
    }
    if (choice.kind === "none") {
      goTo("details");
      return;
    }
    setBusy(true);
    try {
      await addToSchedule({ sceneItemId: choice.sceneItemId });
      toast.success("Added to schedule!", { duration: 1500 });
      void navigate(paths.schedule);
    } catch (err) {
      if (errorCode(err) === "ALREADY_EXISTS") {
        toast("Already in schedule", { description: `${choice.title} is already in your schedule` });
      } else {
        console.error(err);
        toast.error("Error", { description: "Failed to add event to your schedule. Please try again." });
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <EventAtVenueStep
      slots={slots}
      step={2}
      total={ADD_EVENT_STEPS}
      title="What event is it?"
      venue={venue}
      picker={{
        value: choice,
        onChange: setChoice,
        newEvent: { title: "Create New Event", hint: "A mic or show not listed here" },
        describe: weeklySlotText,
        loadError: { title: "Error", description: "Failed to load existing events", id: "add-event-load" },
      }}
      onBack={() => goTo("venue")}
      actions={
        <Flex gap="3">
          <Button variant="ghost" color="gray" size="4" onClick={() => void navigate(paths.dashboard)}>
            Skip for now
          </Button>
          <Button size="4" loading={busy} onClick={() => void next()}>
            Continue
          </Button>
        </Flex>
      }
    />
  );
}
