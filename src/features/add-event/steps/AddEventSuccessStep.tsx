import { DataList } from "@radix-ui/themes";
import { WizardFrame } from "@/components/WizardFrame";
import { WizardExits } from "@/components/WizardSteps";
import { paths } from "@/lib/paths";
import { eventSummary } from "../summary";
import { ADD_EVENT_STEPS, useAddEventWizard } from "../wizardStore";

/** After saving: the event's summary and where to go next (each button resets the wizard). */
export function AddEventSuccessStep() {
  const { venue, saved, leaving, leave, redirect } = useAddEventWizard();
  if (!venue || !saved) return leaving ? null : redirect("venue");
  const { day, time, frequency } = eventSummary(saved.details);
  return (
    <WizardFrame
      step={null}
      total={ADD_EVENT_STEPS}
      title="Event added!"
      subtitle="It's on the scene list and in your schedule."
    >
      <DataList.Root orientation={{ initial: "vertical", xs: "horizontal" }} aria-label="Event summary">
        <DataList.Item>
          <DataList.Label>Event</DataList.Label>
          <DataList.Value>{saved.title}</DataList.Value>
        </DataList.Item>
        <DataList.Item>
          <DataList.Label>Venue</DataList.Label>
          <DataList.Value>{venue.venueName}</DataList.Value>
        </DataList.Item>
        <DataList.Item>
          <DataList.Label>Day</DataList.Label>
          <DataList.Value>{day}</DataList.Value>
        </DataList.Item>
        <DataList.Item>
          <DataList.Label>Time</DataList.Label>
          <DataList.Value>{time}</DataList.Value>
        </DataList.Item>
        <DataList.Item>
          <DataList.Label>Frequency</DataList.Label>
          <DataList.Value>{frequency}</DataList.Value>
        </DataList.Item>
      </DataList.Root>
      <WizardExits
        exits={[
          { label: "View My Schedule", to: paths.schedule },
          { label: "Add Another Event", to: paths.addEvent, variant: "soft" },
          { label: "Back to Dashboard", to: paths.dashboard, variant: "soft", color: "gray" },
        ]}
        leave={leave}
      />
    </WizardFrame>
  );
}
