import { EventDetailsForm } from "@/features/event-form/EventDetailsForm";
import {
  LogSetDetailsStep,
  LogSetEventStep,
  LogSetSuccessStep,
  LogSetVenueDetailsStep,
  LogSetVenueStep,
} from "@/features/log-set/LogSetSteps";
import { VenueSearch } from "@/features/venues/VenueSearch";

/** The log-a-set wizard: 1 venue, 2 event, 3 set details, 4 venue/mic details, 5 success. */
export default function LogSet({ step = 1 }: { step?: number }) {
  switch (step) {
    case 2:
      return <LogSetEventStep />;
    case 3:
      return <LogSetDetailsStep />;
    case 4:
      return <LogSetVenueDetailsStep renderEventForm={(props) => <EventDetailsForm {...props} />} />;
    case 5:
      return <LogSetSuccessStep />;
    default:
      return (
        <LogSetVenueStep
          renderVenueSearch={(venue, onChange) => (
            <VenueSearch value={venue} onChange={onChange} label="Venue" autoFocus />
          )}
        />
      );
  }
}
