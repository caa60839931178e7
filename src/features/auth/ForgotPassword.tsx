import { useAuthActions } from "@/lib/authActions";
import { LockClosedIcon } from "@radix-ui/react-icons";
import { Button, Flex, Text } from "@radix-ui/themes";
import { useState } from "react";
import { toast } from "sonner";
import { z } from "zod";
import { DialogShell } from "@/components/DialogShell";
import { FormActions } from "@/components/FormActions";
import { Form, FormSubmit, FormTextField } from "@/components/form";
import { signInSchema } from "@/components/auth/authSchema";
import { EmailField } from "@/components/auth/EmailPasswordForm";
import { errorMessage } from "@/lib/convexErrors";
import { forgetWizardDrafts } from "@/lib/session";

const emailSchema = signInSchema.pick({ email: true });
const resetSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{8}$/, "Enter the 8-digit code from the email"),
  newPassword: signInSchema.shape.password,
});

/**
 * "Forgot password?": an 8-digit code sent to the address (it works once, for 15 minutes),
 * then a new password with it, which signs the comedian in.
 */
export function ForgotPassword() {
  const { signIn } = useAuthActions();
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState<string | null>(null);

  const sendCode = async ({ email: address }: z.output<typeof emailSchema>) => {
    try {
      await signIn("password", { email: address, flow: "reset" });
    } catch (err) {
      toast.error("Could not send a code", { description: errorMessage(err, "Please try again.") });
      return;
    }
    setEmail(address);
  };

  const reset = async ({ code, newPassword }: z.output<typeof resetSchema>) => {
    try {
      await signIn("password", { email: email!, code, newPassword, flow: "reset-verification" });
    } catch (err) {
      toast.error("Password not changed", { description: errorMessage(err, "Please try again.") });
      return;
    }
    forgetWizardDrafts();
    setOpen(false);
    toast.success("Password changed", { description: "You are signed in with your new password." });
  };

  return (
    <DialogShell
      trigger={
        <Button type="button" variant="ghost" size="2">
          Forgot password?
        </Button>
      }
      title="Reset your password"
      description={
        email === null
          ? "We'll send a code to your email."
          : `If ${email} has an account, a code is on its way. It works once, for 15 minutes.`
      }
      maxWidth="420px"
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setEmail(null);
      }}
    >
      {email === null ? (
        <Form
          key="email"
          aria-label="Send a reset code"
          schema={emailSchema}
          defaultValues={{ email: "" }}
          onSubmit={sendCode}
        >
          <EmailField />
          <FormActions cancel="dialog" size="3">
            <FormSubmit>Send code</FormSubmit>
          </FormActions>
        </Form>
      ) : (
        <Form
          key="code"
          aria-label="Choose a new password"
          schema={resetSchema}
          defaultValues={{ code: "", newPassword: "" }}
          onSubmit={reset}
        >
          <FormTextField name="code" label="Code" autoComplete="one-time-code" required />
          <FormTextField
            name="newPassword"
            label="New password"
            type="password"
            autoComplete="new-password"
            hint="At least 6 characters"
            required
            icon={<LockClosedIcon />}
          />
          <Flex justify="between" align="center" gap="3" wrap="wrap">
            <Button type="button" variant="ghost" size="2" onClick={() => setEmail(null)}>
              <Text>Send a new code</Text>
            </Button>
            <FormActions cancel="dialog" size="3">
              <FormSubmit>Change password</FormSubmit>
            </FormActions>
          </Flex>
        </Form>
      )}
    </DialogShell>
  );
}
