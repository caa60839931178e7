import { Box, Container } from "@radix-ui/themes";
import type { ReactNode } from "react";

type PageContainerProps = {
  children: ReactNode;
  /** Radix container size: "1" (448 px, forms and onboarding) to "4" (1136 px). */
  size?: "1" | "2" | "3" | "4";
};

/** The padded, centred column every page sits in. */
export function PageContainer({ children, size = "3" }: PageContainerProps) {
  return (
    <Container size={size} px={{ initial: "3", sm: "5" }} py={{ initial: "4", sm: "6" }}>
      <Box>{children}</Box>
    </Container>
  );
}
