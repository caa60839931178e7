import { Button, Flex, Heading, Text } from "@radix-ui/themes";
import { Link as RouterLink } from "@/lib/router";
import { GoogleButton } from "@/components/auth/GoogleButton";
import { SignInPrompt } from "@/components/auth/SignInPrompt";
import { paths } from "@/lib/paths";

export function Hero() {
  return (
    <Flex direction="column" align="center" gap="5" py={{ initial: "6", sm: "9" }} style={{ textAlign: "center" }}>
      <Heading as="h1" size={{ initial: "8", sm: "9" }}>
        Track your stage time.
        <br />
        Grow your comedy.
      </Heading>
      <Text as="p" size={{ initial: "3", sm: "4" }} color="gray" style={{ maxWidth: 560 }}>
        StageTime is the logbook for stand-up comedians: log your sets, find open mics and shows, hit your weekly goal
        and earn badges along the way.
      </Text>
      <Flex
        direction={{ initial: "column", xs: "row" }}
        gap="3"
        align={{ initial: "stretch", xs: "center" }}
        width={{ initial: "100%", xs: "auto" }}
      >
        <GoogleButton label="Sign up with Google" size="3" />
        <Button asChild size="3">
          <RouterLink to={paths.auth} state={{ mode: "signUp" }}>
            Sign up with email
          </RouterLink>
        </Button>
      </Flex>
      <SignInPrompt />
    </Flex>
  );
}
