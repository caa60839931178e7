import { Flex, RadioCards, Select, Text, TextArea } from "@radix-ui/themes";
import { useId } from "react";
import { Controller, useFormContext, useWatch } from "react-hook-form";
import { RadioCardText } from "@/components/RadioCardText";
import { RECURRENCE_OPTIONS, monthlyRuleText } from "@convex/lib/recurrence";
import { describedBy, Field, useFieldError } from "./Field";
import { nextDateOnDay, type EventFormInput } from "./schema";

/** 'How often does this mic happen?', with the monthly rule or the custom description it needs. */
export function FrequencyField({ today, allowOneTime }: { today: string; allowOneTime: boolean }) {
  const { control, register } = useFormContext<EventFormInput>();
  const ids = { frequency: useId(), custom: useId(), monthly: useId() };
  const [type, recurrence, dayOfWeek] = useWatch({ control, name: ["type", "recurrence", "dayOfWeek"] });
  const isMic = type === "open_mic";
  const frequencyOptions = RECURRENCE_OPTIONS.filter((o) => o.value !== "one-time" || (allowOneTime && !isMic));
  const customError = useFieldError("customRecurrenceDescription");
  const startDate = nextDateOnDay(today, Number(dayOfWeek ?? 0));

  return (
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
                <RadioCardText title={o.label} hint={o.hint} hintSize="1" />
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
  );
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
