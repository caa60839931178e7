import { Box, Flex, Heading, RadioCards, RadioGroup, Select, Text, TextArea, TextField } from "@radix-ui/themes";
import { useEffect, useId, type ReactNode } from "react";
import { Controller, useFormContext, useWatch } from "react-hook-form";
import { Form, FormSubmit } from "@/components/form";
import { RECURRENCE_OPTIONS, monthlyRuleText } from "../../../convex/lib/recurrence";
import { DAY_NAMES } from "../../../convex/lib/time";
import { describedBy, Field, useFieldError } from "./Field";
import {
  COST_OPTIONS,
  buildEventDetails,
  defaultEventFormValues,
  defaultTitle,
  eventFormSchema,
  followListTime,
  nextDateOnDay,
  typeDefaults,
  type EventFormInput,
  type EventFormValues,
  type EventType,
} from "./schema";
import type { EventDetails } from "./types";

export type EventDetailsFormProps = {
  venueName: string;
  /** 19:00 in add-event, 20:00 in the log wizard and onboarding (part 2 §9). */
  defaultStartTime: string;
  /** Today's date (YYYY-MM-DD) for the default day, the monthly rule and the anchor date. */
  today: string;
  /** One-time is offered for shows only, and not where the item must go to the scene list. */
  allowOneTime?: boolean;
  /** Values to start from (a draft kept by a wizard). */
  initialValues?: Partial<EventFormValues>;
  submitLabel: string;
  onSubmit: (details: EventDetails, values: EventFormValues) => void | Promise<void>;
  /** Called with the raw values on every change, so a wizard can keep a draft. */
  onDraftChange?: (values: EventFormInput) => void;
  /** Extra controls shown above the submit button (e.g. 'Also add this mic to the scene'). */
  children?: ReactNode;
  /** A button beside Save (e.g. Back). */
  secondaryAction?: ReactNode;
  /** Whether the submit button is disabled for the current values (onboarding's Next waits for a name). */
  submitDisabled?: (values: EventFormInput) => boolean;
};

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
  const defaults = { ...defaultEventFormValues({ venueName, startTime: defaultStartTime, today }), ...initialValues };
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
        onSubmit={(values) => onSubmit(buildEventDetails(values, today), values)}
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
function GuardedSubmit({ label, disabledFor }: { label: string; disabledFor: (values: EventFormInput) => boolean }) {
  const { control } = useFormContext<EventFormInput>();
  const values = useWatch({ control }) as EventFormInput;
  return (
    <FormSubmit size="4" disabled={disabledFor(values)}>
      {label}
    </FormSubmit>
  );
}

function EventFields({
  venueName,
  today,
  allowOneTime,
  onDraftChange,
}: {
  venueName: string;
  today: string;
  allowOneTime: boolean;
  onDraftChange?: (values: EventFormInput) => void;
}) {
  const { control, register, setValue, getValues, watch } = useFormContext<EventFormInput>();
  const ids = {
    type: useId(),
    title: useId(),
    day: useId(),
    start: useId(),
    signup: useId(),
    listTime: useId(),
    signupLink: useId(),
    cost: useId(),
    cover: useId(),
    minimum: useId(),
    showLink: useId(),
    frequency: useId(),
    custom: useId(),
    monthly: useId(),
    minutes: useId(),
    host: useId(),
  };
  const [type, signupMethod, costType, recurrence, startTimeLocal, dayOfWeek] = useWatch({
    control,
    name: ["type", "signupMethod", "costType", "recurrence", "startTimeLocal", "dayOfWeek"],
  });
  const isMic = type === "open_mic";

  // The list time follows the start time until it is edited by hand.
  useEffect(() => {
    const { listTimeLocal, listTimeEdited } = getValues();
    const next = followListTime(String(startTimeLocal ?? ""), listTimeLocal, listTimeEdited);
    if (next !== listTimeLocal) setValue("listTimeLocal", next);
  }, [startTimeLocal, getValues, setValue]);

  // A subscription rather than a watched value: it fires only on real changes.
  useEffect(() => {
    if (!onDraftChange) return;
    const subscription = watch((values) => onDraftChange(values as EventFormInput));
    return () => subscription.unsubscribe();
  }, [watch, onDraftChange]);

  const changeType = (next: EventType) => {
    const previous = getValues("type");
    if (next === previous) return;
    const { recurrence: r, performanceMinutes } = typeDefaults(next);
    setValue("type", next);
    setValue("recurrence", r);
    setValue("performanceMinutes", performanceMinutes);
    // Keep a name the comedian typed; replace only the generated one.
    if (getValues("title").trim() === defaultTitle(previous, venueName))
      setValue("title", defaultTitle(next, venueName));
  };

  const frequencyOptions = RECURRENCE_OPTIONS.filter((o) => o.value !== "one-time" || (allowOneTime && !isMic));
  const customError = useFieldError("customRecurrenceDescription");
  const titleError = useFieldError("title");
  const startDate = nextDateOnDay(today, Number(dayOfWeek ?? 0));

  return (
    <>
      <Flex direction="column" gap="2">
        <Text as="div" size="2" weight="medium" id={ids.type}>
          Type
        </Text>
        <RadioCards.Root
          aria-labelledby={ids.type}
          columns="2"
          value={type}
          onValueChange={(v) => changeType(v as EventType)}
        >
          <RadioCards.Item value="open_mic">
            <Text weight="bold">Mic</Text>
          </RadioCards.Item>
          <RadioCards.Item value="show">
            <Text weight="bold">Show</Text>
          </RadioCards.Item>
        </RadioCards.Root>
      </Flex>

      <Field id={ids.title} name="title" label="Event name" hint='e.g. "Monday Night Mic"'>
        <TextField.Root
          id={ids.title}
          size="3"
          placeholder="Event title"
          aria-invalid={titleError ? true : undefined}
          aria-describedby={describedBy(ids.title, true, !!titleError)}
          {...register("title")}
        />
      </Field>

      <Flex gap="3" wrap="wrap">
        <Box flexGrow="1" minWidth="140px">
          <Field id={ids.day} name="dayOfWeek" label="Day">
            <Controller
              control={control}
              name="dayOfWeek"
              render={({ field }) => (
                <Select.Root size="3" value={String(field.value)} onValueChange={(v) => field.onChange(Number(v))}>
                  <Select.Trigger id={ids.day} style={{ width: "100%" }} />
                  <Select.Content position="popper">
                    {DAY_NAMES.map((name, i) => (
                      <Select.Item key={name} value={String(i)}>
                        {name}
                      </Select.Item>
                    ))}
                  </Select.Content>
                </Select.Root>
              )}
            />
          </Field>
        </Box>
        <Box flexGrow="1" minWidth="140px">
          <Field id={ids.start} name="startTimeLocal" label="Time">
            <TextField.Root id={ids.start} size="3" type="time" step={300} {...register("startTimeLocal")} />
          </Field>
        </Box>
      </Flex>

      {isMic ? (
        <>
          <Flex direction="column" gap="2">
            <Text as="div" size="2" weight="medium" id={ids.signup}>
              Sign-up
            </Text>
            <Controller
              control={control}
              name="signupMethod"
              render={({ field }) => (
                <RadioGroup.Root
                  aria-labelledby={ids.signup}
                  size="3"
                  value={field.value}
                  onValueChange={field.onChange}
                >
                  <Flex gap="4">
                    <RadioGroup.Item value="in_person">In person</RadioGroup.Item>
                    <RadioGroup.Item value="online">Online</RadioGroup.Item>
                  </Flex>
                </RadioGroup.Root>
              )}
            />
          </Flex>
          {signupMethod === "in_person" ? (
            <Field
              id={ids.listTime}
              name="listTimeLocal"
              label="List time"
              hint="When the sign-up list goes up (30 minutes before the start unless you change it)"
            >
              <TextField.Root
                id={ids.listTime}
                size="3"
                type="time"
                step={300}
                aria-describedby={describedBy(ids.listTime, true, false)}
                {...register("listTimeLocal", { onChange: () => setValue("listTimeEdited", true) })}
              />
            </Field>
          ) : (
            <Field id={ids.signupLink} name="signupLink" label="Sign-up link">
              <TextField.Root
                id={ids.signupLink}
                size="3"
                type="url"
                inputMode="url"
                placeholder="https://"
                {...register("signupLink")}
              />
            </Field>
          )}

          <Flex direction="column" gap="2">
            <Text as="div" size="2" weight="medium" id={ids.cost}>
              Cost
            </Text>
            <Controller
              control={control}
              name="costType"
              render={({ field }) => (
                <RadioGroup.Root aria-labelledby={ids.cost} size="3" value={field.value} onValueChange={field.onChange}>
                  <Flex gap="3" wrap="wrap">
                    {COST_OPTIONS.map((o) => (
                      <RadioGroup.Item key={o.value} value={o.value}>
                        {o.label}
                      </RadioGroup.Item>
                    ))}
                  </Flex>
                </RadioGroup.Root>
              )}
            />
            <Flex gap="3" wrap="wrap">
              {costType === "cover" || costType === "combo" ? (
                <Box flexGrow="1" minWidth="140px">
                  <Field id={ids.cover} name="coverAmount" label="Mic Fee Amount ($)">
                    <TextField.Root
                      id={ids.cover}
                      size="3"
                      type="number"
                      min={0}
                      step={0.01}
                      inputMode="decimal"
                      {...register("coverAmount")}
                    />
                  </Field>
                </Box>
              ) : null}
              {costType === "minimum" || costType === "combo" ? (
                <Box flexGrow="1" minWidth="140px">
                  <Field id={ids.minimum} name="minimumItems" label="Minimum Items">
                    <TextField.Root
                      id={ids.minimum}
                      size="3"
                      type="number"
                      min={1}
                      step={1}
                      inputMode="numeric"
                      {...register("minimumItems")}
                    />
                  </Field>
                </Box>
              ) : null}
            </Flex>
          </Flex>
        </>
      ) : (
        <Field id={ids.showLink} name="showLink" label="Show Link" hint="Link to tickets, event page, or more info">
          <TextField.Root
            id={ids.showLink}
            size="3"
            type="url"
            inputMode="url"
            placeholder={typeof window === "undefined" ? "" : window.location.host}
            aria-describedby={describedBy(ids.showLink, true, false)}
            {...register("showLink")}
          />
        </Field>
      )}

      <Flex direction="column" gap="2">
        <Text as="div" size="2" weight="medium" id={ids.frequency}>
          {isMic ? "How often does this mic happen?" : "How often does this show happen?"}
        </Text>
        <Controller
          control={control}
          name="recurrence"
          render={({ field }) => (
            <RadioCards.Root
              aria-labelledby={ids.frequency}
              columns="2"
              value={field.value}
              onValueChange={field.onChange}
            >
              {frequencyOptions.map((o) => (
                <RadioCards.Item key={o.value} value={o.value}>
                  <Flex direction="column" width="100%">
                    <Text weight="bold">{o.label}</Text>
                    <Text size="1" color="gray">
                      {o.hint}
                    </Text>
                  </Flex>
                </RadioCards.Item>
              ))}
            </RadioCards.Root>
          )}
        />
        {recurrence === "monthly" ? (
          <Field id={ids.monthly} name="monthlyMode" label="Repeats">
            <Controller
              control={control}
              name="monthlyMode"
              render={({ field }) => (
                <Select.Root size="3" value={field.value} onValueChange={field.onChange}>
                  <Select.Trigger id={ids.monthly} style={{ width: "100%" }} />
                  <Select.Content position="popper">
                    <Select.Item value="weekday">{capitalize(monthlyRuleText(startDate, "weekday"))}</Select.Item>
                    <Select.Item value="date">{monthlyRuleText(startDate, "date")}</Select.Item>
                  </Select.Content>
                </Select.Root>
              )}
            />
          </Field>
        ) : null}
        {recurrence === "custom" ? (
          <Flex direction="column" gap="1">
            <Text as="label" htmlFor={ids.custom} size="2" weight="medium">
              Describe the schedule:
            </Text>
            <TextArea
              id={ids.custom}
              size="3"
              placeholder="e.g. every 3 weeks"
              aria-invalid={customError ? true : undefined}
              aria-describedby={describedBy(ids.custom, true, !!customError)}
              {...register("customRecurrenceDescription")}
            />
            <Text id={`${ids.custom}-hint`} size="1" color="gray">
              Examples: every 3 weeks, first Monday of each month, every quarter, every other Tuesday
            </Text>
            {customError ? (
              <Text id={`${ids.custom}-error`} size="1" color="red" role="alert">
                {customError}
              </Text>
            ) : null}
          </Flex>
        ) : null}
      </Flex>

      <Field
        id={ids.minutes}
        name="performanceMinutes"
        label="Set length (minutes)"
        hint="Open-mic sets are typically 3-7 minutes, shows 5-20+"
      >
        <TextField.Root
          id={ids.minutes}
          size="3"
          type="number"
          min={1}
          max={60}
          step={1}
          inputMode="numeric"
          aria-describedby={describedBy(ids.minutes, true, false)}
          {...register("performanceMinutes")}
        />
      </Field>

      <Field id={ids.host} name="hostName" label="Host (optional)">
        <TextField.Root id={ids.host} size="3" placeholder="Host name" autoComplete="off" {...register("hostName")} />
      </Field>
    </>
  );
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
