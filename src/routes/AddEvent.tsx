import { ComingSoonPage } from "@/components/ComingSoonPage";

const STEP_NAMES = ["Venue", "Event", "Details"];

/** Placeholder add-event wizard (3 steps) until the wizard lands. */
export default function AddEvent({ step = 1 }: { step?: number }) {
  return (
    <ComingSoonPage
      title="Add New Event"
      subtitle={step <= 3 ? `Step ${step} of 3: ${STEP_NAMES[step - 1]}` : "Event added!"}
    />
  );
}
