import { Badge, Flex, Text } from "@radix-ui/themes";
import { format } from "date-fns";
import type { Doc } from "@convex/_generated/dataModel";

type Rating = Doc<"bits">["recent"][number];

export const RATING_LABELS: Record<Rating, string> = { landed: "Landed", okay: "Okay", flat: "Flat" };
export const RATING_COLORS: Record<Rating, "green" | "amber" | "red"> = { landed: "green", okay: "amber", flat: "red" };

type Numbers = { performed: number; landedRate: number | null; lastPerformedAt: number | null };

/** "Landed 67%", or null before the first rating. */
export function landedText(rate: number | null): string | null {
  return rate === null ? null : `Landed ${Math.round(rate * 100)}%`;
}

/** One grey line: times performed, landed rate and when last done ("Not performed yet" before). */
export function BitNumbersLine({ bit }: { bit: Numbers }) {
  if (bit.performed === 0) {
    return (
      <Text as="p" size="2" color="gray">
        Not performed yet
      </Text>
    );
  }
  const parts = [
    `${bit.performed} ${bit.performed === 1 ? "set" : "sets"}`,
    landedText(bit.landedRate),
    bit.lastPerformedAt !== null ? `last ${format(bit.lastPerformedAt, "MMM d")}` : null,
  ].filter((p): p is string => p !== null);
  return (
    <Text as="p" size="2" color="gray">
      {parts.join(" · ")}
    </Text>
  );
}

/** The latest ratings, oldest to newest, as small coloured marks with their words for screen readers. */
export function TrendMarks({ recent }: { recent: Rating[] }) {
  if (recent.length === 0) return null;
  const oldestFirst = [...recent].reverse();
  return (
    <Flex
      gap="1"
      wrap="wrap"
      role="list"
      aria-label={`Last ${recent.length === 1 ? "set" : `${recent.length} sets, oldest first`}`}
    >
      {oldestFirst.map((r, i) => (
        <Badge key={i} role="listitem" color={RATING_COLORS[r]} variant="soft" highContrast radius="full">
          {RATING_LABELS[r]}
        </Badge>
      ))}
    </Flex>
  );
}
