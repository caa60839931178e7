import { TextArea } from "@radix-ui/themes";
import { FieldCharacterCount } from "./CharacterCount";
import { FieldFrame, useField } from "./FieldFrame";

type FormTextAreaFieldProps = {
  name: string;
  label: string;
  rows?: number;
  /** The field's cap: a counter shows near it and the schema's message past it (typing is never cut off). */
  maxLength?: number;
};

/** A labelled multi-line text bound to the surrounding <Form> (notes), with its counter and zod error under it. */
export function FormTextAreaField({ name, label, rows, maxLength }: FormTextAreaFieldProps) {
  const { id, register, error, invalid, describedBy } = useField(name);
  const counter = maxLength ? <FieldCharacterCount name={name} max={maxLength} /> : null;
  return (
    <FieldFrame id={id} label={label} error={error} counter={counter}>
      <TextArea
        id={id}
        rows={rows}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        {...register(name)}
      />
    </FieldFrame>
  );
}
