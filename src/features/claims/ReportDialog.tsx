import { Button, Dialog, Flex, RadioGroup, Text, TextArea } from "@radix-ui/themes";
import { useMutation } from "convex/react";
import { useId, useState } from "react";
import { toast } from "sonner";
import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";
import { errorMessage } from "@/lib/convexErrors";
import { REPORT_KINDS, type ReportKind } from "./ownerText";

/** 'Report a problem': no longer runs, wrong day or time, or other with a note; then 'Report sent'. */
export function ReportDialog({ micId }: { micId: Id<"sceneItems"> }) {
  const submit = useMutation(api.reports.submit);
  const [open, setOpen] = useState(false);
  const [kind, setKind] = useState<ReportKind | "">("");
  const [note, setNote] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = { kind: useId(), note: useId(), error: useId() };
  const send = async () => {
    if (kind === "") return setError("Choose what is wrong");
    if (kind === "other" && !note.trim()) return setError("Please describe the problem");
    setError(null);
    setBusy(true);
    try {
      await submit({ micId, kind, note: note.trim() || undefined });
      toast.success("Report sent", { description: "Thanks! An admin will take a look." });
      setKind("");
      setNote("");
      setOpen(false);
    } catch (err) {
      console.error("Report failed", err);
      toast.error("Could not send report", { description: errorMessage(err, "Please try again.") });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger>
        <Button variant="soft" color="gray">
          Report a problem
        </Button>
      </Dialog.Trigger>
      <Dialog.Content maxWidth="480px">
        <Dialog.Title>Report a problem</Dialog.Title>
        <Dialog.Description size="2" mb="3">
          Tell the admins what is wrong with this listing.
        </Dialog.Description>
        <Flex direction="column" gap="3">
          <Text id={ids.kind} size="2" weight="medium">
            What is wrong?
          </Text>
          <RadioGroup.Root
            aria-labelledby={ids.kind}
            value={kind}
            onValueChange={(value) => setKind(value as ReportKind)}
          >
            {REPORT_KINDS.map((k) => (
              <RadioGroup.Item key={k.value} value={k.value}>
                {k.label}
              </RadioGroup.Item>
            ))}
          </RadioGroup.Root>
          <Flex direction="column" gap="1">
            <Text as="label" htmlFor={ids.note} size="2" weight="medium">
              {kind === "other" ? "Note" : "Note (optional)"}
            </Text>
            <TextArea
              id={ids.note}
              value={note}
              maxLength={1000}
              onChange={(e) => setNote(e.target.value)}
              aria-describedby={error ? ids.error : undefined}
            />
          </Flex>
          {error ? (
            <Text id={ids.error} size="1" color="red" role="alert">
              {error}
            </Text>
          ) : null}
        </Flex>
        <Flex gap="3" mt="4" justify="end">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Cancel
            </Button>
          </Dialog.Close>
          <Button onClick={() => void send()} loading={busy}>
            Send report
          </Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
