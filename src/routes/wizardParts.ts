import { EventDetailsForm } from "@/features/event-form/EventDetailsForm";
import { EventAtVenuePicker } from "@/features/venues/EventAtVenuePicker";
import { VenueSearch } from "@/features/venues/VenueSearch";
import type { WizardSlots } from "@/lib/wizardPartProps";

/** The parts the onboarding, log-a-set and add-event wizards share, from the venues and event-form features. */
export const wizardSlots: WizardSlots = { VenueSearch, EventPicker: EventAtVenuePicker, EventForm: EventDetailsForm };
