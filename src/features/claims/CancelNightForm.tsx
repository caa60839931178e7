import { Button, Flex, Text, TextField } from "@radix-ui/themes";
import { useMutation } from "convex/react";
import { useId, useState } from "react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import { localDateString } from "@convex/lib/time";
import { ConfirmDialog } from "@/components/ConfirmDialog";
import { errorMessage } from "@/lib/convexErrors";
import { cancelledDateLabel } from "./ownerText";
import type { OwnedMic } from "./types";

/** 'Cancel a night': pick a date to mark cancelled, or restore one already cancelled. */
export function CancelNightForm({ item, nowMs }: { item: OwnedMic; nowMs: number }) {
  const setCancelled = useMutation(api.claims.setCancelledDate);
  const today = localDateString(nowMs, item.timeZone);
  const [date, setDate] = useState(today);
  const [busy, setBusy] = useState<string | null>(null);
  const id = useId();
  const upcoming = (item.cancelledDates ?? []).filter((d) => d >= today);

  const change = async (day: string, cancelled: boolean): Promise<boolean> => {
    setBusy(day);
    try {
      await setCancelled({ micId: item._id, date: day, cancelled });
      toast.success(cancelled ? `Cancelled on ${cancelledDateLabel(day)}` : `${cancelledDateLabel(day)} is back on`);
      return true;
    } catch (error) {
      console.error("Could not update the night", error);
      toast.error("Could not update the night", { description: errorMessage(error, "Please try again.") });
      return false;
    } finally {
      setBusy(null);
    }
  };

  return (
    <Flex direction="column" gap="3">
      <Flex gap="2" align="end" wrap="wrap">
        <Flex direction="column" gap="1">
          <Text as="label" htmlFor={id} size="2" weight="medium">
            Night to cancel
          </Text>
          <TextField.Root id={id} type="date" min={today} value={date} onChange={(e) => setDate(e.target.value)} />
        </Flex>
        <ConfirmDialog
          trigger={
            <Button
              color="red"
              variant="soft"
              disabled={!date || date < today || upcoming.includes(date)}
              loading={busy === date}
            >
              Cancel this night
            </Button>
          }
          title={date ? `Cancel ${cancelledDateLabel(date)}?` : "Cancel this night?"}
          description="Comedians see the night as cancelled and its list closes. You can restore it later."
          confirmLabel="Cancel this night"
          onConfirm={() => change(date, true)}
        />
      </Flex>
      {upcoming.length > 0 ? (
        <Flex direction="column" gap="2" asChild>
          <ul aria-label="Cancelled nights" style={{ listStyle: "none", margin: 0, padding: 0 }}>
            {upcoming.map((d) => (
              <li key={d}>
                <Flex gap="3" align="center">
                  <Text size="2">{cancelledDateLabel(d)}</Text>
                  <Button
                    size="1"
                    variant="ghost"
                    loading={busy === d}
                    onClick={() => void change(d, false)}
                    aria-label={`Restore ${cancelledDateLabel(d)}`}
                  >
                    Restore
                  </Button>
                </Flex>
              </li>
            ))}
          </ul>
        </Flex>
      ) : null}
    </Flex>
  );
}
