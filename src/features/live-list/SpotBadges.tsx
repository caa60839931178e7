import { Badge } from "@radix-ui/themes";
import type { SpotView } from "./listText";

/** A spot's state in words: up now, on deck, done, no-show, walk-in, priority, bumped, drawn, you. */
export function SpotBadges({ spot }: { spot: SpotView }) {
  return (
    <>
      {spot.state === "up" ? (
        <Badge color="green" highContrast>
          Up now
        </Badge>
      ) : null}
      {spot.onDeck ? (
        <Badge color="amber" highContrast>
          On deck
        </Badge>
      ) : null}
      {spot.state === "done" ? <Badge color="gray">Done</Badge> : null}
      {spot.state === "no_show" ? <Badge color="red">No-show</Badge> : null}
      {spot.walkIn ? (
        <Badge variant="outline" color="gray">
          Walk-in
        </Badge>
      ) : null}
      {spot.priority ? (
        <Badge variant="soft" color="blue">
          Priority
        </Badge>
      ) : null}
      {spot.bumped ? (
        <Badge variant="soft" color="orange">
          Bumped
        </Badge>
      ) : null}
      {spot.drawIndex !== null ? (
        <Badge variant="soft" color="gray">
          Drawn #{spot.drawIndex}
        </Badge>
      ) : null}
      {spot.isMine ? <Badge variant="solid">You</Badge> : null}
    </>
  );
}
