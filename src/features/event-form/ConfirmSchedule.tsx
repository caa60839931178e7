import { Card, Checkbox, Flex, Text } from "@radix-ui/themes";
import { useEffect, useId, useRef } from "react";
import { Controller, useFormContext, useWatch } from "react-hook-form";
import { DAY_NAMES, formatTime12h } from "@convex/lib/time";
import { useFieldError } from "./Field";
import type { EventFormInput } from "./schema";

export const CONFIRM_SCHEDULE_MESSAGE = "Check the day and time, then confirm them to add this mic to the scene";

/**
 * "This mic is on Saturdays at 8:00 PM": a box the comedian ticks before a mic
 * goes to the shared scene, reading back the day and time they chose (the form
 * starts from today and 8 PM). Changing either clears the tick.
 */
export function ConfirmSchedule() {
  const id = useId();
  const { control, setValue } = useFormContext<EventFormInput>();
  const [dayOfWeek, startTimeLocal] = useWatch({ control, name: ["dayOfWeek", "startTimeLocal"] });
  const error = useFieldError("scheduleConfirmed");
  const day = DAY_NAMES[Number(dayOfWeek)] as string | undefined;
  const time = typeof startTimeLocal === "string" && /^\d{1,2}:\d{2}/.test(startTimeLocal) ? startTimeLocal : null;
  const slot = `${day ? `${day}s` : "this day"} at ${time ? formatTime12h(time) : "this time"}`;

  // A confirmation is of one day and time: another choice must be confirmed again.
  const confirmedSlot = useRef(slot);
  useEffect(() => {
    if (confirmedSlot.current === slot) return;
    confirmedSlot.current = slot;
    setValue("scheduleConfirmed", false);
  }, [slot, setValue]);

  return (
    <Card variant="surface">
      <Flex direction="column" gap="1">
        <Text as="label" size="3" htmlFor={id}>
          <Flex gap="2" align="start">
            <Controller
              control={control}
              name="scheduleConfirmed"
              render={({ field }) => (
                <Checkbox
                  id={id}
                  size="3"
                  checked={field.value === true}
                  onCheckedChange={(c) => field.onChange(c === true)}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `${id}-error` : undefined}
                />
              )}
            />
            <Flex direction="column">
              <Text weight="medium">This mic is on {slot}</Text>
              <Text size="1" color="gray">
                It goes to the scene for every comedian to plan by.
              </Text>
            </Flex>
          </Flex>
        </Text>
        {error ? (
          <Text id={`${id}-error`} size="1" color="red" role="alert">
            {error}
          </Text>
        ) : null}
      </Flex>
    </Card>
  );
}
