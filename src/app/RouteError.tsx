import { Button, Callout, Flex, Heading } from "@radix-ui/themes";
import { Component, type ErrorInfo, type ReactNode } from "react";
import { useLocation, type Location } from "react-router-dom";
import { PageContainer } from "@/components/PageContainer";
import { paths } from "@/lib/paths";

type BoundaryProps = { location: Location; children: ReactNode };
type BoundaryState = { error: unknown; location: Location };

/** Shows RouteError in place of a route whose page threw; a navigation elsewhere tries again. */
class Boundary extends Component<BoundaryProps, BoundaryState> {
  state: BoundaryState = { error: null, location: this.props.location };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error: error ?? new Error("A page threw nothing") };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.location !== state.location ? { error: null, location: props.location } : null;
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  render() {
    return this.state.error ? <RouteError /> : this.props.children;
  }
}

/** The route error page around a route and everything below it. */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  return <Boundary location={useLocation()}>{children}</Boundary>;
}

/** Shown when a page throws or its code fails to load (e.g. after a deploy). */
export function RouteError() {
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
