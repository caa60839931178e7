import { AlertDialog, Button } from "@radix-ui/themes";
import type { ReactNode } from "react";
import { FormActions } from "@/components/FormActions";
import { useAdminAction } from "./AdminListParts";

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
  const { busy, run } = useAdminAction<"confirm">(failureMessage);
  const confirm = () => run("confirm", action, successMessage);
  return (
    <AlertDialog.Root>
      <AlertDialog.Trigger>
        <Button size="2" variant="soft" color="red" aria-label={ariaLabel} loading={busy !== null}>
          {icon}
          {label}
        </Button>
      </AlertDialog.Trigger>
      <AlertDialog.Content maxWidth="420px">
        <AlertDialog.Title>{title}</AlertDialog.Title>
        <AlertDialog.Description size="2">{description}</AlertDialog.Description>
        <FormActions cancel="alert" mt="4">
          <AlertDialog.Action>
            <Button color="red" onClick={() => void confirm()}>
              {label}
            </Button>
          </AlertDialog.Action>
        </FormActions>
      </AlertDialog.Content>
    </AlertDialog.Root>
  );
}
