import { Callout } from "@radix-ui/themes";
import { useEffect } from "react";
import { toast } from "sonner";

type LoadFailedProps = {
  /** The toast's title (the spec's wording). */
  toastTitle: string;
  toastDescription?: string;
  /** What the panel says in place of the list. */
  message: string;
  /** Toast id, so a re-render does not stack a second toast. */
  id: string;
};

/** Shown by an ErrorBoundary when a query failed: a toast once, and a note in place of the list. */
export function LoadFailed({ toastTitle, toastDescription, message, id }: LoadFailedProps) {
  useEffect(() => {
    toast.error(toastTitle, { id, description: toastDescription });
  }, [id, toastTitle, toastDescription]);
  return (
    <Callout.Root color="red" role="alert">
      <Callout.Text>{message}</Callout.Text>
    </Callout.Root>
  );
}
