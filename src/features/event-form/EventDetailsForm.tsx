import { Flex, Heading } from "@radix-ui/themes";
import { useId } from "react";
import { useFormContext, useWatch } from "react-hook-form";
import { Form, FormSubmit } from "@/components/form";
import type { EventFormDraft, EventFormProps } from "@/lib/wizardSlots";
import { restoreDraft } from "./draft";
import { EventFields } from "./EventFields";
import { buildEventDetails, defaultEventFormValues, eventFormSchema, type EventFormInput } from "./schema";

export type EventDetailsFormProps = EventFormProps;

/**
 * The 'Event details' form of part 2 §2: type, name, day, time, sign-up and
 * cost for a mic or a link for a show, frequency, set length and host. Shared
 * by the add-event wizard, the log wizard's venue-details step and onboarding.
 */
export function EventDetailsForm({
  venueName,
  defaultStartTime,
  today,
  allowOneTime = true,
  initialValues,
  submitLabel,
  onSubmit,
  onDraftChange,
  children,
  secondaryAction,
  submitDisabled,
}: EventDetailsFormProps) {
  const titleId = useId();
  const defaults = restoreDraft(
    defaultEventFormValues({ venueName, startTime: defaultStartTime, today }),
    initialValues,
  );
  return (
    <Flex direction="column" gap="4">
      <Heading as="h2" size="5" id={titleId}>
        Event details
      </Heading>
      <Form
        schema={eventFormSchema}
        defaultValues={defaults}
        aria-label="Event details"
        gap="4"
        onSubmit={(values) => onSubmit(buildEventDetails(values, today))}
      >
        <EventFields venueName={venueName} today={today} allowOneTime={allowOneTime} onDraftChange={onDraftChange} />
        {children}
        <Flex gap="3" justify="between" wrap="wrap-reverse">
          {secondaryAction ?? <span />}
          {submitDisabled ? (
            <GuardedSubmit label={submitLabel} disabledFor={submitDisabled} />
          ) : (
            <FormSubmit size="4">{submitLabel}</FormSubmit>
          )}
        </Flex>
      </Form>
    </Flex>
  );
}

/** The submit button, disabled while `disabledFor` says so for the form's current values. */
function GuardedSubmit({ label, disabledFor }: { label: string; disabledFor: (values: EventFormDraft) => boolean }) {
  const { control } = useFormContext<EventFormInput>();
  const values = useWatch({ control });
  return (
    <FormSubmit size="4" disabled={disabledFor(values)}>
      {label}
    </FormSubmit>
  );
}
