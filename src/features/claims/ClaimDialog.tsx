import { Button, Dialog, Flex, Text, TextArea } from "@radix-ui/themes";
import { useMutation } from "convex/react";
import { useId, useState } from "react";
import { toast } from "sonner";
import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";
import { errorMessage } from "@/lib/convexErrors";

const MAX_MESSAGE = 1000;

/** 'Claim this mic': an optional message for the admins, then 'Claim submitted'. */
export function ClaimDialog({ micId }: { micId: Id<"sceneItems"> }) {
  const submit = useMutation(api.claims.submit);
  const [open, setOpen] = useState(false);
  const [message, setMessage] = useState("");
  const [busy, setBusy] = useState(false);
  const fieldId = useId();
  const send = async () => {
    setBusy(true);
    try {
      await submit({ micId, message: message.trim() || undefined });
      toast.success("Claim submitted", { description: "An admin will review your claim." });
      setMessage("");
      setOpen(false);
    } catch (error) {
      console.error("Claim failed", error);
      toast.error("Could not submit claim", { description: errorMessage(error, "Please try again.") });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger>
        <Button variant="soft">Claim this mic</Button>
      </Dialog.Trigger>
      <Dialog.Content maxWidth="480px">
        <Dialog.Title>Claim this mic</Dialog.Title>
        <Dialog.Description size="2" mb="3">
          Run or host this mic? Once an admin approves your claim you can keep its details up to date and cancel single
          nights.
        </Dialog.Description>
        <Flex direction="column" gap="1">
          <Text as="label" htmlFor={fieldId} size="2" weight="medium">
            Message (optional)
          </Text>
          <TextArea
            id={fieldId}
            value={message}
            maxLength={MAX_MESSAGE}
            onChange={(e) => setMessage(e.target.value)}
            placeholder="e.g. I host this mic every week"
          />
        </Flex>
        <Flex gap="3" mt="4" justify="end">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Cancel
            </Button>
          </Dialog.Close>
          <Button onClick={() => void send()} loading={busy}>
            Submit claim
          </Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
