import { Button } from "@radix-ui/themes";
import type { ComponentProps, ReactNode } from "react";
import { useFormState } from "react-hook-form";

type FormSubmitProps = {
  children: ReactNode;
  /** Extra busy flag (e.g. an OAuth redirect in flight elsewhere on the page). */
  busy?: boolean;
} & Pick<ComponentProps<typeof Button>, "size" | "color" | "variant" | "disabled">;

/** The submit button of a <Form>: disabled with a spinner while submitting. */
export function FormSubmit({ children, busy, size = "3", ...rest }: FormSubmitProps) {
  const { isSubmitting } = useFormState();
  return (
    <Button type="submit" size={size} loading={isSubmitting || busy} {...rest}>
      {children}
    </Button>
  );
}
