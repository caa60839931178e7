import { Button } from "@radix-ui/themes";
import { useState, type ReactNode } from "react";
import { toast } from "sonner";
import { DialogShell } from "@/components/DialogShell";
import { FormActions } from "@/components/FormActions";
import { errorMessage } from "@/lib/convexErrors";

type MicRequestDialogProps = {
  /** The button that opens the dialog. */
  trigger: ReactNode;
  title: string;
  description: string;
  submitLabel: string;
  /** Checks what was typed (showing its own message); false keeps the dialog open without sending. */
  validate?: () => boolean;
  send: () => Promise<unknown>;
  /** The success toast; then `onSent` clears the fields and the dialog closes. */
  sent: { title: string; description: string };
  onSent: () => void;
  /** The failure toast's title (its description is the server's message) and the console's label. */
  failed: { title: string; log: string };
  children: ReactNode;
};

/** A request about a mic to the admins (claim it, report a problem): a form in a dialog, sent with a toast. */
export function MicRequestDialog({
  trigger,
  title,
  description,
  submitLabel,
  validate,
  send,
  sent,
  onSent,
  failed,
  children,
}: MicRequestDialogProps) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (validate && !validate()) return;
    setBusy(true);
    try {
      await send();
      toast.success(sent.title, { description: sent.description });
      onSent();
      setOpen(false);
    } catch (error) {
      console.error(failed.log, error);
      toast.error(failed.title, { description: errorMessage(error, "Please try again.") });
    } finally {
      setBusy(false);
    }
  };
  return (
    <DialogShell
      trigger={trigger}
      title={title}
      description={description}
      maxWidth="480px"
      open={open}
      onOpenChange={setOpen}
    >
      {children}
      <FormActions cancel="dialog" mt="4">
        <Button onClick={() => void submit()} loading={busy}>
          {submitLabel}
        </Button>
      </FormActions>
    </DialogShell>
  );
}
