import { Flex, Heading, Text } from "@radix-ui/themes";
import type { ReactNode } from "react";
import { PageContainer } from "./PageContainer";

type ComingSoonPageProps = {
  title: string;
  subtitle?: ReactNode;
  children?: ReactNode;
};

/** A page whose feature arrives in a later release: its heading and a short note. */
export function ComingSoonPage({ title, subtitle, children }: ComingSoonPageProps) {
  return (
    <PageContainer>
      <Flex direction="column" gap="3">
        <Heading as="h1" size="8">
          {title}
        </Heading>
        {subtitle ? (
          <Text as="p" size="3" color="gray">
            {subtitle}
          </Text>
        ) : null}
        {children}
      </Flex>
    </PageContainer>
  );
}
