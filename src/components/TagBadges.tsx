import { Badge, Flex } from "@radix-ui/themes";
import type { ComponentProps } from "react";

/** A wrapping row of soft, rounded tag badges; nothing when there are no tags. */
export function TagBadges({
  tags,
  color,
  mt,
}: {
  tags: readonly string[];
  color?: ComponentProps<typeof Badge>["color"];
  mt?: ComponentProps<typeof Flex>["mt"];
}) {
  if (tags.length === 0) return null;
  return (
    <Flex gap="1" wrap="wrap" mt={mt}>
      {tags.map((tag) => (
        <Badge key={tag} variant="soft" color={color} radius="full">
          {tag}
        </Badge>
      ))}
    </Flex>
  );
}
