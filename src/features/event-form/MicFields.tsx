import { Box, Flex, RadioGroup, Text } from "@radix-ui/themes";
import { useId } from "react";
import { Controller, useFormContext, useWatch } from "react-hook-form";
import { InputField } from "./Field";
import { COST_OPTIONS, LIST_TIME_LEAD_MINUTES, type CostType, type EventFormInput } from "./schema";

/** The amounts a cost type asks for: the mic fee, the drink minimum, or both. */
const AMOUNT_FIELDS = [
  {
    name: "coverAmount",
    label: "Mic Fee Amount ($)",
    min: 0,
    step: 0.01,
    inputMode: "decimal",
    shownFor: (cost?: CostType) => cost === "cover" || cost === "combo",
  },
  {
    name: "minimumItems",
    label: "Minimum Items",
    min: 1,
    step: 1,
    inputMode: "numeric",
    shownFor: (cost?: CostType) => cost === "minimum" || cost === "combo",
  },
] as const;

/** The open-mic fields: how to sign up (list time or link) and what it costs. */
export function MicFields() {
  const { control, setValue } = useFormContext<EventFormInput>();
  const ids = { signup: useId(), cost: useId() };
  const [signupMethod, costType] = useWatch({ control, name: ["signupMethod", "costType"] });
  return (
    <>
      <Flex direction="column" gap="2">
        <Text as="div" size="2" weight="medium" id={ids.signup}>
          Sign-up
        </Text>
        <Controller
          control={control}
          name="signupMethod"
          render={({ field }) => (
            <RadioGroup.Root aria-labelledby={ids.signup} size="3" value={field.value} onValueChange={field.onChange}>
              <Flex gap="4">
                <RadioGroup.Item value="in_person">In person</RadioGroup.Item>
                <RadioGroup.Item value="online">Online</RadioGroup.Item>
              </Flex>
            </RadioGroup.Root>
          )}
        />
      </Flex>
      {signupMethod === "in_person" ? (
        <InputField
          name="listTimeLocal"
          label="List time"
          hint={`When the sign-up list goes up (${LIST_TIME_LEAD_MINUTES} minutes before the start unless you change it)`}
          type="time"
          step={300}
          onChange={() => setValue("listTimeEdited", true)}
        />
      ) : (
        <InputField name="signupLink" label="Sign-up link" type="url" inputMode="url" placeholder="https://" />
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
          {AMOUNT_FIELDS.filter((f) => f.shownFor(costType)).map(({ shownFor: _, ...field }) => (
            <Box key={field.name} flexGrow="1" minWidth="140px">
              <InputField type="number" {...field} />
            </Box>
          ))}
        </Flex>
      </Flex>
    </>
  );
}
