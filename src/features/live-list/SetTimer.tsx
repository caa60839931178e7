import { Badge, Flex, Text } from "@radix-ui/themes";
import { useNow } from "@/lib/useNow";
import type { ListView } from "./listText";
import { elapsedText, LIGHT_COLOR, LIGHT_TEXT, setLight } from "./setLight";

/** The timer of whoever is up and its light (green, the light, then red), for the host and the room screen. */
export function SetTimer({ list, size = "2" }: { list: ListView; size?: "2" | "8" }) {
  const now = useNow(1000);
  if (list.upNow === null || list.upStartedAt === null) return null;
  const elapsed = now - list.upStartedAt;
  const light = setLight(elapsed, list.setMinutes, list.lightMinutes);
  return (
    <Flex gap="3" align="center" role="group" aria-label="Set timer">
      <Text size={size} weight={size === "8" ? "bold" : undefined}>
        {size === "8" ? elapsedText(elapsed) : `Timer ${elapsedText(elapsed)}`}
      </Text>
      <Badge color={LIGHT_COLOR[light]} variant="solid" size={size === "8" ? "3" : "2"} data-light={light}>
        {LIGHT_TEXT[light]}
      </Badge>
    </Flex>
  );
}
