import { BellIcon } from "@radix-ui/react-icons";
import { Button } from "@radix-ui/themes";
import { useState } from "react";
import { toast } from "sonner";
import { errorMessage } from "@/lib/convexErrors";
import { PushRefused, useThisDevice } from "./useThisDevice";

/**
 * After signing up to a live list, the moment that explains why: one button asks for
 * permission to notify this device. Shown only when push can work here and is not on yet.
 */
export function OnDeckPrompt() {
  const { state, enable } = useThisDevice();
  const [busy, setBusy] = useState(false);
  if (state.kind !== "off") return null;
  return (
    <Button
      variant="soft"
      size="3"
      loading={busy}
      onClick={() => {
        setBusy(true);
        enable()
          .then(() => toast.success("We'll tell you when you're on deck"))
          .catch((err: unknown) =>
            toast.error(
              err instanceof PushRefused ? err.message : errorMessage(err, "Could not turn notifications on."),
            ),
          )
          .finally(() => setBusy(false));
      }}
    >
      <BellIcon aria-hidden="true" /> Tell me when I'm on deck
    </Button>
  );
}
