import { useMutation } from "convex/react";
import { ConvexError } from "convex/values";
import { useState } from "react";
import { toast } from "sonner";
import { EventDetailsStep } from "@/components/WizardSteps";
import { errorMessage } from "@/lib/convexErrors";
import { viewerTimeZone } from "@/lib/timeZone";
import type { WizardStepProps } from "@/lib/wizardPartProps";
import { api } from "@convex/_generated/api";
import type { EventDetails } from "@convex/model/events";
import { localDateString } from "@convex/lib/time";
import { ADD_EVENT_STEPS, useAddEventWizard } from "../wizardStore";

/** Step 3: the event details form; Save Event adds it to the scene and the creator's schedule. */
export function AddEventDetailsStep({ slots }: WizardStepProps) {
  const { venue, setSaved, goTo, redirect } = useAddEventWizard();
  const create = useMutation(api.events.create);
  const [today] = useState(() => localDateString(Date.now(), viewerTimeZone()));

  if (!venue) return redirect("venue");

  const onSubmit = async (details: EventDetails) => {
    try {
      const { title } = await create({ venue, details });
      toast.success("Event added!", { description: `${title} has been added to the scene list and your schedule` });
      setSaved({ title, details });
      goTo("success");
    } catch (err) {
      if (!(err instanceof ConvexError)) console.error(err);
      toast.error("Could not save event", {
        description: errorMessage(err, "Please check your inputs and try again."),
      });
    }
  };

  return (
    <EventDetailsStep
      slots={slots}
      step={3}
      total={ADD_EVENT_STEPS}
      title="Add New Event"
      venue={venue}
      onBack={() => goTo("event")}
      defaultStartTime="19:00"
      today={today}
      allowOneTime={false}
      submitLabel="Save Event"
      onSubmit={onSubmit}
    />
  );
}
