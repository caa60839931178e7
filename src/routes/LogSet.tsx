import { ComingSoonPage } from "@/components/ComingSoonPage";

const STEP_NAMES = ["Venue", "Event", "Set Details", "Event Details"];

/** Placeholder log-a-set wizard (4 steps) until the wizard lands. */
export default function LogSet({ step = 1 }: { step?: number }) {
  return (
    <ComingSoonPage
      title="Log a Set"
      subtitle={step <= 4 ? `Step ${step} of 4: ${STEP_NAMES[step - 1]}` : "Set logged!"}
    />
  );
}
