import { Callout } from "@radix-ui/themes";
import { useEffect } from "react";
import { toast } from "sonner";

/** What a tab shows when its live query failed: the spec's toast ('Failed to load mics') and a notice. */
export function LoadFailed({ message }: { message: string }) {
  useEffect(() => {
    toast.error(message, { id: message });
  }, [message]);
  return (
    <Callout.Root color="red" role="alert">
      <Callout.Text>{message}</Callout.Text>
    </Callout.Root>
  );
}
