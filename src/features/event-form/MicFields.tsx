import { Box, Flex, RadioGroup, Text, TextField } from "@radix-ui/themes";
import { useId } from "react";
import { Controller, useFormContext, useWatch } from "react-hook-form";
import { describedBy, Field } from "./Field";
import { COST_OPTIONS, type EventFormInput } from "./schema";

/** The open-mic fields: how to sign up (list time or link) and what it costs. */
export function MicFields() {
  const { control, register, setValue } = useFormContext<EventFormInput>();
  const ids = { signup: useId(), listTime: useId(), signupLink: useId(), cost: useId() };
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
            <AmountField name="coverAmount" label="Mic Fee Amount ($)" min={0} step={0.01} inputMode="decimal" />
          ) : null}
          {costType === "minimum" || costType === "combo" ? (
            <AmountField name="minimumItems" label="Minimum Items" min={1} step={1} inputMode="numeric" />
          ) : null}
        </Flex>
      </Flex>
    </>
  );
}

/** A number field of the cost: the mic fee or the drink minimum. */
function AmountField({
  name,
  label,
  min,
  step,
  inputMode,
}: {
  name: "coverAmount" | "minimumItems";
  label: string;
  min: number;
  step: number;
  inputMode: "decimal" | "numeric";
}) {
  const { register } = useFormContext<EventFormInput>();
  const id = useId();
  return (
    <Box flexGrow="1" minWidth="140px">
      <Field id={id} name={name} label={label}>
        <TextField.Root
          id={id}
          size="3"
          type="number"
          min={min}
          step={step}
          inputMode={inputMode}
          {...register(name)}
        />
      </Field>
    </Box>
  );
}
