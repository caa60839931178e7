import { Badge, Flex, Text } from "@radix-ui/themes";
import { freshness } from "@convex/lib/tonight";
import { freshnessText } from "../item/sceneText";
import type { SceneItem } from "../item/types";
import { confirmationDateText, FRESHNESS_COLORS, FRESHNESS_LABELS } from "./tonightText";

/**
 * The graded freshness badge (fresh up to 14 days, ageing up to 45, stale
 * after; never confirmed: new for 14 days after it was added, then stale) from the last confirmation of any kind (check-in, host
 * confirmation, admin edit), with how long ago and the date in words.
 */
export function FreshnessBadge({
  item,
  now,
}: {
  item: Pick<SceneItem, "lastCheckInAt" | "lastConfirmedAt" | "timeZone" | "_creationTime">;
  now: number;
}) {
  const { grade, lastMs } = freshness(item, now);
  return (
    <Flex gap="2" align="center" wrap="wrap" data-testid="freshness" data-grade={grade}>
      <Badge color={FRESHNESS_COLORS[grade]} variant="soft" highContrast>
        {FRESHNESS_LABELS[grade]}
      </Badge>
      <Text size="2" color="gray">
        {freshnessText(lastMs ?? undefined, now, item.timeZone)}
        {lastMs !== null ? ` (${confirmationDateText(lastMs, item.timeZone)})` : ""}
      </Text>
    </Flex>
  );
}
