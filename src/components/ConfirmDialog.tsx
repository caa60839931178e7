import { AlertDialog, Button } from "@radix-ui/themes";
import { useState, type ReactNode } from "react";
import { FormActions } from "./FormActions";

type ConfirmDialogProps = {
  /** The button that opens the dialog. */
  trigger: ReactNode;
  title: string;
  description: ReactNode;
  /** The red confirming button's text. */
  confirmLabel: string;
  /** Runs on confirm; the dialog closes when it resolves true (a failure keeps it open). */
  onConfirm: () => Promise<boolean>;
};

/** A destructive action behind 'Are you sure?': Cancel, or the red confirm with a spinner while it runs. */
export function ConfirmDialog({ trigger, title, description, confirmLabel, onConfirm }: ConfirmDialogProps) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    const done = await onConfirm();
    setBusy(false);
    if (done) setOpen(false);
  };
  return (
    <AlertDialog.Root open={open} onOpenChange={setOpen}>
      <AlertDialog.Trigger>{trigger}</AlertDialog.Trigger>
      <AlertDialog.Content maxWidth="420px">
        <AlertDialog.Title>{title}</AlertDialog.Title>
        <AlertDialog.Description size="2">{description}</AlertDialog.Description>
        <FormActions cancel="alert" cancelDisabled={busy} mt="4">
          <Button color="red" loading={busy} onClick={() => void confirm()}>
            {confirmLabel}
          </Button>
        </FormActions>
      </AlertDialog.Content>
    </AlertDialog.Root>
  );
}
