import { Card, Flex, Heading, Text } from "@radix-ui/themes";
import type { ReactNode } from "react";

type EmptyStateProps = {
  title: string;
  description?: ReactNode;
  icon?: ReactNode;
  /** A button or link that gets the user going (e.g. '+ Add a Local Mic'). */
  action?: ReactNode;
  /** Heading level of the title; pages that already have an h1 keep the default h2. */
  headingAs?: "h2" | "h3";
};

/** What a list shows when it has nothing in it yet. */
export function EmptyState({ title, description, icon, action, headingAs = "h2" }: EmptyStateProps) {
  return (
    <Card size="3">
      <Flex direction="column" align="center" gap="3" py="5" style={{ textAlign: "center" }}>
        {icon ? <Flex aria-hidden="true">{icon}</Flex> : null}
        <Heading as={headingAs} size="4">
          {title}
        </Heading>
        {description ? (
          <Text as="p" size="2" color="gray">
            {description}
          </Text>
        ) : null}
        {action}
      </Flex>
    </Card>
  );
}
