import { Button, Dialog, Flex, Link, Separator, Text } from "@radix-ui/themes";
import { useState, type ReactNode } from "react";
import { Link as RouterLink } from "@/lib/router";
import { EmailPasswordForm } from "./auth/EmailPasswordForm";
import { GoogleButton } from "./auth/GoogleButton";
import { paths } from "@/lib/paths";

type SignUpDialogProps = {
  /** The element that opens the dialog (a Button); defaults to 'Sign up free'. */
  trigger?: ReactNode;
  /** Shown under the title, e.g. which section the user wanted. */
  description?: string;
};

/** Sign-up in a dialog: Google or email and password, without leaving the page. */
export function SignUpDialog({
  trigger,
  description = "Track your stage time, find mics and earn badges.",
}: SignUpDialogProps) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger>{trigger ?? <Button size="3">Sign up free</Button>}</Dialog.Trigger>
      <Dialog.Content maxWidth="420px">
        <Dialog.Title>Create your free account</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="4">
          {description}
        </Dialog.Description>
        <Flex direction="column" gap="4">
          <GoogleButton label="Sign up with Google" />
          <Flex align="center" gap="3">
            <Separator size="4" />
            <Text size="1" color="gray" wrap="nowrap">
              or
            </Text>
            <Separator size="4" />
          </Flex>
          <EmailPasswordForm mode="signUp" onSuccess={() => setOpen(false)} />
          <Text size="2" color="gray" align="center">
            Already have an account?{" "}
            <Dialog.Close>
              <Link asChild>
                <RouterLink to={paths.auth} state={{ mode: "signIn" }}>
                  Sign in
                </RouterLink>
              </Link>
            </Dialog.Close>
          </Text>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
