import { Button } from "@radix-ui/themes";
import type { ComponentProps, ReactNode } from "react";
import { useFormState } from "react-hook-form";

type FormSubmitProps = {
  children: ReactNode;
  /** Extra busy flag (e.g. an OAuth redirect in flight elsewhere on the page). */
  busy?: boolean;
} & Pick<ComponentProps<typeof Button>, "size" | "color" | "variant" | "disabled">;

/** The submit button of a <Form>: disabled with a spinner while submitting. */
export function FormSubmit({ children, busy, size = "3", disabled, ...rest }: FormSubmitProps) {
  const { isSubmitting } = useFormState();
  const loading = isSubmitting || busy === true;
  // An explicit `disabled` would override Radix's disable-while-loading, so a
  // second click could submit again: it is always combined with `loading`.
  return (
    <Button type="submit" size={size} loading={loading} disabled={disabled === true || loading} {...rest}>
      {children}
    </Button>
  );
}
