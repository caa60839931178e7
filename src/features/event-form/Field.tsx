import { TextField } from "@radix-ui/themes";
import { useId, type ComponentProps, type ReactNode } from "react";
import { useFormContext } from "react-hook-form";
import { FieldCharacterCount } from "@/components/form/CharacterCount";
import { describedBy, FieldFrame, useFieldError } from "@/components/form/FieldFrame";

type FieldProps = {
  /** id of the control the label points at. */
  id: string;
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  children: ReactNode;
};

export { describedBy, useFieldError };

/** Label, control, hint and error of one form field. */
export function Field({ id, name, label, hint, children }: FieldProps) {
  return (
    <FieldFrame id={id} label={label} hint={hint} error={useFieldError(name)}>
      {children}
    </FieldFrame>
  );
}

type InputFieldProps = {
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  /** Called after the value changes (e.g. to mark the list time as edited by hand). */
  onChange?: () => void;
  /** The field's cap: a counter shows near it and the schema's message past it. */
  maxLength?: number;
} & Pick<
  ComponentProps<typeof TextField.Root>,
  "type" | "step" | "min" | "max" | "inputMode" | "placeholder" | "autoComplete"
>;

/** A text, number, time or link input registered under `name`, with its label, hint and error. */
export function InputField({ name, label, hint, onChange, maxLength, ...input }: InputFieldProps) {
  const id = useId();
  const { register } = useFormContext();
  const error = useFieldError(name);
  const counter = maxLength ? <FieldCharacterCount name={name} max={maxLength} /> : null;
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} counter={counter}>
      <TextField.Root
        id={id}
        size="3"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, !!hint, !!error)}
        {...input}
        {...register(name, { onChange })}
      />
    </FieldFrame>
  );
}
