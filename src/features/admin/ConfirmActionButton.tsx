import { AlertDialog, Button, Flex } from "@radix-ui/themes";
import { useState, type ReactNode } from "react";
import { toast } from "sonner";

type ConfirmActionButtonProps = {
  /** The button's text, also the confirming button's text. */
  label: string;
  /** The accessible name of the button, naming what it acts on. */
  ariaLabel: string;
  icon: ReactNode;
  title: string;
  description: string;
  /** Runs after the admin confirms. */
  action: () => Promise<unknown>;
  successMessage: string;
  failureMessage: string;
};

/** A destructive admin action (delete a mic, revoke a claim): a red button that
 * asks for confirmation, runs the action, and says how it went in a toast. */
export function ConfirmActionButton({
  label,
  ariaLabel,
  icon,
  title,
  description,
  action,
  successMessage,
  failureMessage,
}: ConfirmActionButtonProps) {
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await action();
      toast.success(successMessage);
    } catch (error) {
      console.error(failureMessage, error);
      toast.error(failureMessage);
    } finally {
      setBusy(false);
    }
  };
  return (
    <AlertDialog.Root>
      <AlertDialog.Trigger>
        <Button size="2" variant="soft" color="red" aria-label={ariaLabel} loading={busy}>
          {icon}
          {label}
        </Button>
      </AlertDialog.Trigger>
      <AlertDialog.Content maxWidth="420px">
        <AlertDialog.Title>{title}</AlertDialog.Title>
        <AlertDialog.Description size="2">{description}</AlertDialog.Description>
        <Flex gap="3" mt="4" justify="end">
          <AlertDialog.Cancel>
            <Button variant="soft" color="gray">
              Cancel
            </Button>
          </AlertDialog.Cancel>
          <AlertDialog.Action>
            <Button color="red" onClick={() => void confirm()}>
              {label}
            </Button>
          </AlertDialog.Action>
        </Flex>
      </AlertDialog.Content>
    </AlertDialog.Root>
  );
}
