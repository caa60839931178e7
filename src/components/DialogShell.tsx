import { Dialog } from "@radix-ui/themes";
import type { ReactNode } from "react";

type DialogShellProps = {
  /** The button that opens the dialog. */
  trigger: ReactNode;
  title: ReactNode;
  description: ReactNode;
  /** Grey for a description that only names what the dialog is about (a venue, a date). */
  descriptionColor?: "gray";
  maxWidth: string;
  /** Controlled when the dialog closes itself after a save; left out, it opens and closes on its own. */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** The body, mounted only while open (a form starts from the saved values each time). */
  children: ReactNode;
};

/** A dialog opened by `trigger`, with its title and description above its body. */
export function DialogShell({
  trigger,
  title,
  description,
  descriptionColor,
  maxWidth,
  open,
  onOpenChange,
  children,
}: DialogShellProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger>{trigger}</Dialog.Trigger>
      <Dialog.Content maxWidth={maxWidth}>
        <Dialog.Title>{title}</Dialog.Title>
        <Dialog.Description size="2" color={descriptionColor} mb="3">
          {description}
        </Dialog.Description>
        {children}
      </Dialog.Content>
    </Dialog.Root>
  );
}
