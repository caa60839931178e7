import { TextArea } from "@radix-ui/themes";
import { FieldFrame, useField } from "./FieldFrame";

type FormTextAreaFieldProps = {
  name: string;
  label: string;
  rows?: number;
  maxLength?: number;
};

/** A labelled multi-line text bound to the surrounding <Form> (notes), with its zod error under it. */
export function FormTextAreaField({ name, label, rows, maxLength }: FormTextAreaFieldProps) {
  const { id, register, error, invalid, describedBy } = useField(name);
  return (
    <FieldFrame id={id} label={label} error={error}>
      <TextArea
        id={id}
        rows={rows}
        maxLength={maxLength}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        {...register(name)}
      />
    </FieldFrame>
  );
}
