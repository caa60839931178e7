import { Flex, Text, TextField } from "@radix-ui/themes";
import { useId, type ComponentProps, type ReactNode } from "react";
import { get, useFormContext } from "react-hook-form";

type FormTextFieldProps = {
  name: string;
  label: string;
  type?: "text" | "email" | "password" | "number" | "url" | "tel" | "search" | "time" | "date";
  placeholder?: string;
  autoComplete?: string;
  hint?: ReactNode;
  required?: boolean;
  size?: ComponentProps<typeof TextField.Root>["size"];
  icon?: ReactNode;
};

/** A labelled text input bound to the surrounding <Form>, showing its zod error
 * under the field (announced through aria-describedby). */
export function FormTextField({
  name,
  label,
  type = "text",
  placeholder,
  autoComplete,
  hint,
  required,
  size = "3",
  icon,
}: FormTextFieldProps) {
  const id = useId();
  const {
    register,
    formState: { errors },
  } = useFormContext();
  const error = get(errors, name) as { message?: string } | undefined;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error?.message ? errorId : null, hint ? hintId : null].filter(Boolean).join(" ");
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={id} size="2" weight="medium">
        {label}
      </Text>
      <TextField.Root
        id={id}
        type={type}
        size={size}
        placeholder={placeholder}
        autoComplete={autoComplete}
        aria-invalid={error ? true : undefined}
        aria-required={required || undefined}
        aria-describedby={describedBy || undefined}
        color={error ? "red" : undefined}
        {...register(name, type === "number" ? { valueAsNumber: true } : undefined)}
      >
        {icon ? <TextField.Slot>{icon}</TextField.Slot> : null}
      </TextField.Root>
      {hint ? (
        <Text id={hintId} size="1" color="gray">
          {hint}
        </Text>
      ) : null}
      {error?.message ? (
        <Text id={errorId} size="1" color="red" role="alert">
          {error.message}
        </Text>
      ) : null}
    </Flex>
  );
}
