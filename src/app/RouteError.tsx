import { Button, Callout, Flex, Heading } from "@radix-ui/themes";
import type { ReactNode } from "react";
import { useLocation } from "@/lib/router";
import { ErrorBoundary } from "@/components/ErrorBoundary";
import { PageContainer } from "@/components/PageContainer";
import { paths } from "@/lib/paths";

/** The route error page around a route and everything below it. */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  // A navigation elsewhere tries the page again.
  return (
    <ErrorBoundary fallback={<RouteError />} resetKey={useLocation()}>
      {children}
    </ErrorBoundary>
  );
}

/** Shown when a page throws or its code fails to load (e.g. after a deploy). */
function RouteError() {
  return (
    <PageContainer size="2">
      <Flex direction="column" gap="4" py="9">
        <Heading as="h1">Something went wrong</Heading>
        <Callout.Root color="red" role="alert">
          <Callout.Text>This page could not be shown. Reloading usually fixes it.</Callout.Text>
        </Callout.Root>
        <Flex gap="3">
          <Button onClick={() => window.location.reload()}>Reload</Button>
          <Button variant="soft" asChild>
            <a href={paths.home}>Go to home</a>
          </Button>
        </Flex>
      </Flex>
    </PageContainer>
  );
}
