import { Link, Text } from "@radix-ui/themes";
import { Link as RouterLink } from "@/lib/router";
import { paths } from "@/lib/paths";

/** "Already have an account? Sign in", opening the auth page on the sign-in form. */
export function SignInPrompt() {
  return (
    <Text size="2" color="gray">
      Already have an account?{" "}
      <Link asChild>
        <RouterLink to={paths.auth} state={{ mode: "signIn" }}>
          Sign in
        </RouterLink>
      </Link>
    </Text>
  );
}
