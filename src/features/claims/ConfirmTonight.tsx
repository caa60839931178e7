import { Button, Flex, Text } from "@radix-ui/themes";
import { useMutation } from "convex/react";
import { useState } from "react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import { localDateString } from "@convex/lib/time";
import { errorMessage } from "@/lib/convexErrors";
import type { OwnedMic } from "./types";

/** One tap for the host (approved claimant) or an admin: "Confirm tonight", or take it back. */
export function ConfirmTonight({ item, nowMs }: { item: OwnedMic; nowMs: number }) {
  const setConfirmed = useMutation(api.claims.setConfirmedDate);
  const [busy, setBusy] = useState(false);
  const today = localDateString(nowMs, item.timeZone);
  const confirmed = (item.confirmedDates ?? []).includes(today);
  const cancelled = (item.cancelledDates ?? []).includes(today);

  const change = async (next: boolean) => {
    setBusy(true);
    try {
      await setConfirmed({ micId: item._id, date: today, confirmed: next });
      toast.success(next ? "Host confirmed tonight" : "Tonight's confirmation removed");
    } catch (error) {
      console.error("Could not confirm tonight", error);
      toast.error("Could not confirm tonight", { description: errorMessage(error, "Please try again.") });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Flex gap="3" align="center" wrap="wrap">
      {confirmed ? (
        <>
          <Text size="2" weight="medium">
            You confirmed tonight.
          </Text>
          <Button size="1" variant="ghost" loading={busy} onClick={() => void change(false)}>
            Undo confirmation
          </Button>
        </>
      ) : (
        <Button color="green" loading={busy} onClick={() => void change(true)}>
          {cancelled ? "Confirm tonight (restores the cancelled night)" : "Confirm tonight"}
        </Button>
      )}
    </Flex>
  );
}
