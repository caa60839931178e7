import { Button, Callout, Flex, Text } from "@radix-ui/themes";
import { useState } from "react";
import { toast } from "sonner";
import { errorMessage } from "@/lib/convexErrors";
import { PushRefused, useThisDevice } from "./useThisDevice";

/** This device: push on or off, or why it cannot be (a fact about the browser or server, not an error). */
export function DeviceSettings() {
  const { state, enable, disable } = useThisDevice();
  const [busy, setBusy] = useState(false);
  const act = async (what: () => Promise<void>, fallback: string) => {
    setBusy(true);
    try {
      await what();
    } catch (err) {
      console.error(err);
      toast.error(err instanceof PushRefused ? err.message : errorMessage(err, fallback));
    } finally {
      setBusy(false);
    }
  };
  if (state.kind === "loading") return null;
  const note = (text: string) => (
    <Callout.Root color="gray" variant="surface" size="1">
      <Callout.Text>{text}</Callout.Text>
    </Callout.Root>
  );
  if (state.kind === "not_configured") {
    return note("Push notifications are not set up on this server. Your inbox still gets everything.");
  }
  if (state.kind === "unsupported") {
    return note("This browser cannot show push notifications. Your inbox still gets everything.");
  }
  if (state.kind === "blocked") {
    return note("Notifications are blocked for StageTime in this browser's site settings.");
  }
  return (
    <Flex direction="column" gap="2" align="start">
      <Text size="2" role="status">
        {state.kind === "on" ? "This device gets your notifications." : "This device does not get notifications yet."}
      </Text>
      {state.kind === "on" ? (
        <Button
          variant="soft"
          color="gray"
          size="3"
          loading={busy}
          onClick={() => void act(disable, "Could not turn notifications off here.")}
        >
          Turn off on this device
        </Button>
      ) : (
        <Button size="3" loading={busy} onClick={() => void act(enable, "Could not turn notifications on here.")}>
          Enable notifications on this device
        </Button>
      )}
    </Flex>
  );
}
