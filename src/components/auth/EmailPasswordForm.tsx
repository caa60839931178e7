import { useAuthActions } from "@/lib/authActions";
import { EnvelopeClosedIcon, LockClosedIcon, PersonIcon } from "@radix-ui/react-icons";
import { Form, FormSubmit, FormTextField } from "@/components/form";
import { signInFailureToast, signInSuccessToast, signUpFailureToast, signUpSuccessToast } from "@/lib/authErrors";
import { forgetWizardDrafts } from "@/lib/session";
import { showToast } from "@/lib/toast";
import { signInSchema, signUpSchema, type SignInValues, type SignUpValues } from "./authSchema";

/** The email field of the sign-in, sign-up and password-reset forms. */
export function EmailField() {
  return (
    <FormTextField
      name="email"
      label="Email"
      type="email"
      autoComplete="email"
      required
      icon={<EnvelopeClosedIcon />}
    />
  );
}

/** A new password ("new-password", with the rule as a hint) or the current one. */
function PasswordField({ autoComplete, hint }: { autoComplete: "new-password" | "current-password"; hint?: string }) {
  return (
    <FormTextField
      name="password"
      label="Password"
      type="password"
      autoComplete={autoComplete}
      required
      hint={hint}
      icon={<LockClosedIcon />}
    />
  );
}

type EmailPasswordFormProps = {
  mode: "signUp" | "signIn";
  /** Called once the session exists. */
  onSuccess?: () => void;
};

/** Email + password sign-up or sign-in through @convex-dev/auth's Password
 * provider, with the spec's toasts for each outcome. */
export function EmailPasswordForm({ mode, onSuccess }: EmailPasswordFormProps) {
  const { signIn } = useAuthActions();

  const submit = async (values: SignInValues | SignUpValues) => {
    const formData = new FormData();
    formData.set("email", values.email);
    formData.set("password", values.password);
    formData.set("flow", mode);
    if (mode === "signUp" && "displayName" in values && values.displayName) {
      // The server's Password profile() takes `name` as the profile's display name.
      formData.set("name", values.displayName);
    }
    try {
      await signIn("password", formData);
    } catch (err) {
      console.error(`${mode} failed`, err);
      showToast(mode === "signUp" ? signUpFailureToast(err) : signInFailureToast(err), "error");
      return;
    }
    // Whatever a wizard still holds was typed before this sign-in, maybe by someone else.
    forgetWizardDrafts();
    showToast(mode === "signUp" ? signUpSuccessToast : signInSuccessToast, "success");
    onSuccess?.();
  };

  if (mode === "signUp") {
    return (
      <Form
        key="signUp"
        aria-label="Create account"
        schema={signUpSchema}
        defaultValues={{ displayName: "", email: "", password: "" }}
        onSubmit={submit}
      >
        <FormTextField
          name="displayName"
          label="Display name (optional)"
          autoComplete="nickname"
          placeholder="Your stage name"
          hint="The name hosts call you up by. Leave it blank and we'll ask before your first list sign-up."
          icon={<PersonIcon />}
        />
        <EmailField />
        <PasswordField autoComplete="new-password" hint="At least 6 characters" />
        <FormSubmit>Create Account</FormSubmit>
      </Form>
    );
  }
  return (
    <Form
      key="signIn"
      aria-label="Sign in"
      schema={signInSchema}
      defaultValues={{ email: "", password: "" }}
      onSubmit={submit}
    >
      <EmailField />
      <PasswordField autoComplete="current-password" />
      <FormSubmit>Sign In</FormSubmit>
    </Form>
  );
}
