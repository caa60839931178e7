import { Flex, Text, TextField } from "@radix-ui/themes";
import { useId, type ComponentProps, type ReactNode } from "react";
import { get, useFormContext } from "react-hook-form";

type FieldProps = {
  /** id of the control the label points at. */
  id: string;
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  children: ReactNode;
};

/** ids of the hint and error texts of a field, for aria-describedby. */
export function describedBy(id: string, hasHint: boolean, hasError: boolean): string | undefined {
  const ids = [hasError ? `${id}-error` : null, hasHint ? `${id}-hint` : null].filter(Boolean);
  return ids.length ? ids.join(" ") : undefined;
}

/** The error message react-hook-form holds for `name`, if any. */
export function useFieldError(name: string): string | undefined {
  const {
    formState: { errors },
  } = useFormContext();
  return (get(errors, name) as { message?: string } | undefined)?.message;
}

/** Label, control, hint and error of one form field. */
export function Field({ id, name, label, hint, children }: FieldProps) {
  const error = useFieldError(name);
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={id} size="2" weight="medium">
        {label}
      </Text>
      {children}
      {hint ? (
        <Text id={`${id}-hint`} size="1" color="gray">
          {hint}
        </Text>
      ) : null}
      {error ? (
        <Text id={`${id}-error`} size="1" color="red" role="alert">
          {error}
        </Text>
      ) : null}
    </Flex>
  );
}

type InputFieldProps = {
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  /** Called after the value changes (e.g. to mark the list time as edited by hand). */
  onChange?: () => void;
} & Pick<
  ComponentProps<typeof TextField.Root>,
  "type" | "step" | "min" | "max" | "inputMode" | "placeholder" | "autoComplete"
>;

/** A text, number, time or link input registered under `name`, with its label, hint and error. */
export function InputField({ name, label, hint, onChange, ...input }: InputFieldProps) {
  const id = useId();
  const { register } = useFormContext();
  const error = useFieldError(name);
  return (
    <Field id={id} name={name} label={label} hint={hint}>
      <TextField.Root
        id={id}
        size="3"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, !!hint, !!error)}
        {...input}
        {...register(name, { onChange })}
      />
    </Field>
  );
}
