import { Box, Button, Card, Flex, Heading, Skeleton, Text } from "@radix-ui/themes";
import type { ReactNode } from "react";
import { SignInPrompt } from "@/components/auth/SignInPrompt";
import { ErrorBoundary } from "@/components/ErrorBoundary";
import { PageContainer } from "@/components/PageContainer";
import { SignUpDialog } from "@/components/SignUpDialog";

/** Stand-in content for a section page that cannot render without a session. */
function PreviewSkeleton() {
  return (
    <PageContainer>
      <Flex direction="column" gap="4">
        <Skeleton height="40px" width="60%" />
        <Flex gap="3" wrap="wrap">
          {Array.from({ length: 3 }, (_, i) => (
            <Skeleton key={i} height="96px" style={{ flex: "1 1 160px" }} />
          ))}
        </Flex>
        <Skeleton height="220px" />
      </Flex>
    </PageContainer>
  );
}

type PreviewGateProps = {
  /** Section name for the overlay, e.g. 'Dashboard'. */
  section: string;
  children: ReactNode;
};

/**
 * What a signed-out visitor sees of a section: the page blurred, hidden from
 * assistive tech and unreachable by keyboard (inert), under an invitation to sign up.
 */
export function PreviewGate({ section, children }: PreviewGateProps) {
  return (
    <Box position="relative" style={{ minHeight: "70vh" }} data-testid="preview-gate">
      <Box
        aria-hidden="true"
        inert
        data-testid="preview-content"
        style={{ filter: "blur(6px)", pointerEvents: "none", userSelect: "none" }}
      >
        <ErrorBoundary fallback={<PreviewSkeleton />}>{children}</ErrorBoundary>
      </Box>
      <Flex position="absolute" inset="0" justify="center" align="start" pt={{ initial: "6", sm: "9" }} px="3">
        <Card size="4" style={{ maxWidth: 440, width: "100%" }}>
          <Flex direction="column" gap="3" align="center" style={{ textAlign: "center" }}>
            <Heading as="h1" size="6">
              Sign up to access {section}
            </Heading>
            <Text as="p" size="2" color="gray">
              Create a free account to log your sets, keep your schedule and track your progress.
            </Text>
            <SignUpDialog
              trigger={<Button size="3">Sign up free</Button>}
              description={`Sign up to access ${section}.`}
            />
            <SignInPrompt />
          </Flex>
        </Card>
      </Flex>
    </Box>
  );
}
