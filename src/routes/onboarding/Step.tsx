import { EventDetailsForm } from "@/features/event-form/EventDetailsForm";
import type { EventFormValues } from "@/features/event-form/schema";
import {
  AddAnotherStep,
  CheckInInfoStep,
  CompleteStep,
  EventStep,
  GoalStep,
  SetLengthStep,
  SuccessStep,
  VenueDetailsStep,
  VenueStep,
} from "@/features/onboarding/OnboardingSteps";
import { VenueSearch } from "@/features/venues/VenueSearch";
import type { OnboardingStep as StepName } from "@/lib/paths";

/** Onboarding steps 2 to 10 (the router passes which one). */
export default function OnboardingStep({ step }: { step: Exclude<StepName, "welcome"> }) {
  switch (step) {
    case "venue":
      return (
        <VenueStep
          renderVenueSearch={(venue, onChange) => <VenueSearch value={venue} onChange={onChange} label="Venue" />}
        />
      );
    case "event":
      return <EventStep />;
    case "details":
      return <SetLengthStep />;
    case "venue-details":
      return (
        <VenueDetailsStep
          renderEventForm={({ initialValues, ...props }) => (
            <EventDetailsForm {...props} initialValues={initialValues as Partial<EventFormValues> | undefined} />
          )}
        />
      );
    case "success":
      return <SuccessStep />;
    case "checkin-info":
      return <CheckInInfoStep />;
    case "add-another":
      return <AddAnotherStep />;
    case "goal-setting":
      return <GoalStep />;
    case "complete":
      return <CompleteStep />;
  }
}
