import { Flex, Select, Text } from "@radix-ui/themes";
import { useId } from "react";
import { Controller, useFormContext } from "react-hook-form";

type FormSelectFieldProps = {
  name: string;
  label: string;
  options: ReadonlyArray<{ value: string; label: string }>;
};

/** A labelled Radix select bound to the surrounding <Form>. */
export function FormSelectField({ name, label, options }: FormSelectFieldProps) {
  const id = useId();
  const { control } = useFormContext();
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={id} size="2" weight="medium">
        {label}
      </Text>
      <Controller
        control={control}
        name={name}
        render={({ field }) => (
          <Select.Root value={String(field.value)} onValueChange={field.onChange}>
            <Select.Trigger id={id} aria-label={label} />
            <Select.Content position="popper">
              {options.map((o) => (
                <Select.Item key={o.value} value={o.value}>
                  {o.label}
                </Select.Item>
              ))}
            </Select.Content>
          </Select.Root>
        )}
      />
    </Flex>
  );
}
