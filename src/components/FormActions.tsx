import { AlertDialog, Button, Dialog, Flex } from "@radix-ui/themes";
import type { ReactNode } from "react";

type FormActionsProps = {
  /** What Cancel does: close the surrounding Dialog ("dialog") or AlertDialog ("alert"), or call back (an inline form). */
  cancel: "dialog" | "alert" | (() => void);
  /** Cancel's text: "Cancel", or "Close" in a dialog that only shows something. */
  cancelLabel?: string;
  /** Disables Cancel (while the confirmed action runs). */
  cancelDisabled?: boolean;
  /** Space above: "4" under a dialog's body, "2" as the last row of a dialog's form. */
  mt?: "2" | "4";
  size?: "2" | "3";
  /** The confirming or submitting button, after Cancel. */
  children?: ReactNode;
};

/** The one footer of dialogs and forms: a grey Cancel, then the confirming or submitting button, at the end. */
export function FormActions({ cancel, cancelLabel = "Cancel", cancelDisabled, mt, size, children }: FormActionsProps) {
  const button = (
    <Button
      type="button"
      variant="soft"
      color="gray"
      size={size}
      disabled={cancelDisabled}
      onClick={typeof cancel === "function" ? cancel : undefined}
    >
      {cancelLabel}
    </Button>
  );
  const Close = cancel === "alert" ? AlertDialog.Cancel : Dialog.Close;
  return (
    <Flex gap="3" mt={mt} justify="end" wrap="wrap">
      {typeof cancel === "function" ? button : <Close>{button}</Close>}
      {children}
    </Flex>
  );
}
