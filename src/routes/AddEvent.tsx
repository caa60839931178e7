import { AddEventDetailsStep } from "@/features/add-event/steps/AddEventDetailsStep";
import { AddEventEventStep } from "@/features/add-event/steps/AddEventEventStep";
import { AddEventSuccessStep } from "@/features/add-event/steps/AddEventSuccessStep";
import { AddEventVenueStep } from "@/features/add-event/steps/AddEventVenueStep";
import { wizardSlots } from "./wizardParts";

/** The add-event wizard: 1 venue, 2 event, 3 details, 4 success. */
export default function AddEvent({ step = 1 }: { step?: number }) {
  switch (step) {
    case 2:
      return <AddEventEventStep slots={wizardSlots} />;
    case 3:
      return <AddEventDetailsStep slots={wizardSlots} />;
    case 4:
      return <AddEventSuccessStep />;
    default:
      return <AddEventVenueStep slots={wizardSlots} />;
  }
}
