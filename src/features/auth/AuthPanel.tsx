import { ArrowLeftIcon } from "@radix-ui/react-icons";
import { Card, Flex, Heading, Link, Separator, Tabs, Text } from "@radix-ui/themes";
import { Link as RouterLink } from "@/lib/router";
import { EmailPasswordForm } from "@/components/auth/EmailPasswordForm";
import { GoogleButton } from "@/components/auth/GoogleButton";
import { paths } from "@/lib/paths";
import { ForgotPassword } from "./ForgotPassword";

export type AuthMode = "signUp" | "signIn";

/** Each tab's Google button text; the email form follows. */
const AUTH_TABS: ReadonlyArray<{ mode: AuthMode; google: string }> = [
  { mode: "signUp", google: "Sign up with Google" },
  { mode: "signIn", google: "Sign in with Google" },
];

type AuthPanelProps = {
  mode: AuthMode;
  onModeChange: (mode: AuthMode) => void;
};

/** The /auth card: Create Account / Sign In tabs, Google, email and password. */
export function AuthPanel({ mode, onModeChange }: AuthPanelProps) {
  return (
    <Flex direction="column" gap="4">
      <Link asChild size="2">
        <RouterLink to={paths.home}>
          <Flex align="center" gap="1" asChild>
            <span>
              <ArrowLeftIcon aria-hidden="true" /> Back to home
            </span>
          </Flex>
        </RouterLink>
      </Link>
      <Card size={{ initial: "2", sm: "4" }}>
        <Flex direction="column" gap="4">
          <Flex direction="column" gap="1" style={{ textAlign: "center" }}>
            <Heading as="h1" size="7">
              {mode === "signUp" ? "Create your account" : "Welcome back"}
            </Heading>
            <Text as="p" size="2" color="gray">
              {mode === "signUp"
                ? "Start tracking your stage time for free."
                : "Sign in to keep tracking your stage time."}
            </Text>
          </Flex>
          <Tabs.Root value={mode} onValueChange={(value) => onModeChange(value as AuthMode)}>
            <Tabs.List aria-label="Create an account or sign in" justify="center">
              <Tabs.Trigger value="signUp">Create Account</Tabs.Trigger>
              <Tabs.Trigger value="signIn">Sign In</Tabs.Trigger>
            </Tabs.List>
            {AUTH_TABS.map(({ mode: tab, google }) => (
              <Tabs.Content key={tab} value={tab}>
                <Flex direction="column" gap="4" pt="4">
                  <GoogleButton label={google} />
                  <OrDivider />
                  <EmailPasswordForm mode={tab} />
                  {tab === "signIn" ? <ForgotPassword /> : null}
                </Flex>
              </Tabs.Content>
            ))}
          </Tabs.Root>
        </Flex>
      </Card>
    </Flex>
  );
}

function OrDivider() {
  return (
    <Flex align="center" gap="3" aria-hidden="true">
      <Separator size="4" />
      <Text size="1" color="gray" wrap="nowrap">
        or with email
      </Text>
      <Separator size="4" />
    </Flex>
  );
}
