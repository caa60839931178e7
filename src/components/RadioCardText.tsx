import { Flex, Text } from "@radix-ui/themes";
import type { ReactNode } from "react";

/** The text of a radio card: a bold title over a grey hint. */
export function RadioCardText({
  title,
  hint,
  hintSize = "2",
}: {
  title: ReactNode;
  hint: ReactNode;
  hintSize?: "1" | "2";
}) {
  return (
    <Flex direction="column" width="100%">
      <Text weight="bold">{title}</Text>
      <Text size={hintSize} color="gray">
        {hint}
      </Text>
    </Flex>
  );
}
