import { TextField } from "@radix-ui/themes";
import type { ComponentProps, ReactNode } from "react";
import { FieldCharacterCount } from "./CharacterCount";
import { FieldFrame, useField } from "./FieldFrame";

type FormTextFieldProps = {
  name: string;
  label: string;
  type?: "text" | "email" | "password" | "number" | "url" | "tel" | "search" | "time" | "date" | "month";
  placeholder?: string;
  autoComplete?: string;
  hint?: ReactNode;
  required?: boolean;
  size?: ComponentProps<typeof TextField.Root>["size"];
  icon?: ReactNode;
  /** The field's cap: a counter shows near it and the schema's message past it. */
  maxLength?: number;
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
  maxLength,
}: FormTextFieldProps) {
  const { id, register, error, invalid, describedBy } = useField(name, hint);
  const counter = maxLength ? <FieldCharacterCount name={name} max={maxLength} /> : null;
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} counter={counter}>
      <TextField.Root
        id={id}
        type={type}
        size={size}
        placeholder={placeholder}
        autoComplete={autoComplete}
        aria-invalid={invalid || undefined}
        aria-required={required || undefined}
        aria-describedby={describedBy}
        color={invalid ? "red" : undefined}
        {...register(name, type === "number" ? { valueAsNumber: true } : undefined)}
      >
        {icon ? <TextField.Slot>{icon}</TextField.Slot> : null}
      </TextField.Root>
    </FieldFrame>
  );
}
