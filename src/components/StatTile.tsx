import { Card, Text } from "@radix-ui/themes";
import type { ReactNode } from "react";

/** One headline number in a card, named for screen readers by its label. */
export function StatTile({ label, value }: { label: string; value: ReactNode }) {
  return (
    <Card size="2" role="group" aria-label={label}>
      <Text as="p" size="1" color="gray" weight="medium">
        {label}
      </Text>
      <Text as="p" size="6" weight="bold">
        {value}
      </Text>
    </Card>
  );
}
