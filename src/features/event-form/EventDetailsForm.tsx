import { Flex, Heading } from "@radix-ui/themes";
import { useId, useMemo } from "react";
import { useFormContext, useWatch } from "react-hook-form";
import { Form, FormSubmit } from "@/components/form";
import type { EventFormDraft, EventFormProps } from "@/lib/wizardPartProps";
import { CONFIRM_SCHEDULE_MESSAGE, ConfirmSchedule } from "./ConfirmSchedule";
import { restoreDraft } from "./draft";
import { EventFields } from "./EventFields";
import { buildEventDetails, defaultEventFormValues, eventFormSchema, type EventFormInput } from "./schema";

export type EventDetailsFormProps = EventFormProps;

/** The form's schema where the comedian must confirm the day and time first. */
const confirmedSchema = eventFormSchema.superRefine((values, ctx) => {
  if (values.scheduleConfirmed !== true) {
    ctx.addIssue({ code: "custom", path: ["scheduleConfirmed"], message: CONFIRM_SCHEDULE_MESSAGE });
  }
});

/**
 * The 'Event details' form: type, name, day, time, sign-up and
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
  confirmSchedule = false,
}: EventDetailsFormProps) {
  const titleId = useId();
  const schema = useMemo(() => (confirmSchedule ? confirmedSchema : eventFormSchema), [confirmSchedule]);
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
        schema={schema}
        defaultValues={defaults}
        aria-label="Event details"
        gap="4"
        onSubmit={(values) => onSubmit(buildEventDetails(values, today))}
      >
        <EventFields venueName={venueName} today={today} allowOneTime={allowOneTime} onDraftChange={onDraftChange} />
        {children}
        {confirmSchedule ? <ConfirmSchedule /> : null}
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
