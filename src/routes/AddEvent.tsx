import {
  AddEventDetailsStep,
  AddEventEventStep,
  AddEventSuccessStep,
  AddEventVenueStep,
} from "@/features/add-event/AddEventSteps";
import { EventDetailsForm } from "@/features/event-form/EventDetailsForm";
import { VenueSearch } from "@/features/venues/VenueSearch";

/** The add-event wizard: 1 venue, 2 event, 3 details, 4 success. */
export default function AddEvent({ step = 1 }: { step?: number }) {
  switch (step) {
    case 2:
      return <AddEventEventStep />;
    case 3:
      return <AddEventDetailsStep renderEventForm={(props) => <EventDetailsForm {...props} />} />;
    case 4:
      return <AddEventSuccessStep />;
    default:
      return (
        <AddEventVenueStep
          renderVenueSearch={(venue, onChange) => (
            <VenueSearch value={venue} onChange={onChange} usOnly minChars={3} label="Venue" />
          )}
        />
      );
  }
}
