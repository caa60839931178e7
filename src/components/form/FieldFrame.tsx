import { Flex, Text } from "@radix-ui/themes";
import { useId, type ReactNode } from "react";
import { get, useFormContext } from "react-hook-form";

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

/** A form field's control id, `register`, its zod error and whether it has one, and its aria-describedby. */
export function useField(name: string, hint?: ReactNode) {
  const id = useId();
  const {
    register,
    formState: { errors },
  } = useFormContext();
  const error = useFieldError(name);
  return {
    id,
    register,
    error,
    invalid: get(errors, name) !== undefined,
    describedBy: describedBy(id, !!hint, !!error),
  };
}

type FieldFrameProps = {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  /** A character counter (see CharacterCount), shown right under the control. */
  counter?: ReactNode;
  children: ReactNode;
};

/** A form field's label above its control, then its counter, hint and error (role alert) under it. */
export function FieldFrame({ id, label, hint, error, counter, children }: FieldFrameProps) {
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={id} size="2" weight="medium">
        {label}
      </Text>
      {children}
      {counter}
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
