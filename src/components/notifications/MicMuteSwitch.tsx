import { Flex, Switch, Text } from "@radix-ui/themes";
import { useMutation, useQuery } from "convex/react";
import { useState } from "react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { errorMessage } from "@/lib/convexErrors";

/** The event page's switch: no notifications about this one mic (the others keep coming). */
export function MicMuteSwitch({ micId }: { micId: Id<"sceneItems"> }) {
  const muted = useQuery(api.notifications.micMuted, { micId });
  const setMuted = useMutation(api.notifications.setMicMuted);
  const [busy, setBusy] = useState(false);
  return (
    <Text as="label" size="2">
      <Flex gap="2" align="center" style={{ minHeight: 44 }}>
        <Switch
          checked={muted ?? false}
          disabled={muted === undefined || busy}
          onCheckedChange={(next) => {
            setBusy(true);
            setMuted({ micId, muted: next })
              .then(() =>
                toast.success(next ? "Notifications about this mic are muted" : "Notifications about this mic are on"),
              )
              .catch((err: unknown) => toast.error(errorMessage(err, "Could not change this mic's notifications.")))
              .finally(() => setBusy(false));
          }}
        />
        Mute notifications about this mic
      </Flex>
    </Text>
  );
}
