import { Box, Flex, RadioCards, Select, Text } from "@radix-ui/themes";
import { useEffect, useId } from "react";
import { Controller, useFormContext, useWatch } from "react-hook-form";
import type { EventFormDraft } from "@/lib/wizardPartProps";
import { MIC_LIMITS } from "@convex/lib/micRules";
import { DAY_NAMES } from "@convex/lib/time";
import { Field, InputField } from "./Field";
import { FrequencyField } from "./FrequencyField";
import { MicFields } from "./MicFields";
import {
  defaultTitle,
  followListTime,
  MAX_TITLE_LENGTH,
  typeDefaults,
  type EventFormInput,
  type EventType,
} from "./schema";

/** The fields of the event details form; the mic-only ones and the frequency have their own files. */
export function EventFields({
  venueName,
  today,
  allowOneTime,
  onDraftChange,
}: {
  venueName: string;
  today: string;
  allowOneTime: boolean;
  onDraftChange?: (values: EventFormDraft) => void;
}) {
  const { control, setValue, getValues, watch } = useFormContext<EventFormInput>();
  const ids = { type: useId(), day: useId() };
  const [type, startTimeLocal] = useWatch({ control, name: ["type", "startTimeLocal"] });
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
    const subscription = watch((values) => onDraftChange(values));
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

      <InputField
        name="title"
        label="Event name"
        hint='e.g. "Monday Night Mic"'
        placeholder="Event title"
        maxLength={MAX_TITLE_LENGTH}
      />

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
          <InputField name="startTimeLocal" label="Time" type="time" step={300} />
        </Box>
      </Flex>

      {isMic ? (
        <MicFields />
      ) : (
        <InputField
          name="showLink"
          label="Show Link"
          hint="Link to tickets, event page, or more info"
          type="url"
          inputMode="url"
          placeholder={typeof window === "undefined" ? "" : window.location.host}
        />
      )}

      <FrequencyField today={today} allowOneTime={allowOneTime} />

      <InputField
        name="performanceMinutes"
        label="Set length (minutes)"
        hint="Open-mic sets are typically 3-7 minutes, shows 5-20+"
        type="number"
        min={1}
        max={60}
        step={1}
        inputMode="numeric"
      />

      <InputField
        name="hostName"
        label="Host (optional)"
        placeholder="Host name"
        autoComplete="off"
        maxLength={MIC_LIMITS.hostName}
      />
    </>
  );
}
