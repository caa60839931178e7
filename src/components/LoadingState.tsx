import { Flex, Skeleton, Spinner, Text } from "@radix-ui/themes";

type LoadingStateProps = {
  /** What is loading, read by screen readers (and shown under the spinner). */
  label?: string;
  /** "spinner" for a whole page, "skeleton" for a list or card that is filling in. */
  variant?: "spinner" | "skeleton";
  /** Number of skeleton rows. */
  rows?: number;
};

/** A spinner or skeleton with an accessible label, for anything waiting on data. */
export function LoadingState({ label = "Loading…", variant = "spinner", rows = 3 }: LoadingStateProps) {
  if (variant === "skeleton") {
    return (
      <Flex direction="column" gap="3" role="status" aria-label={label} aria-busy="true">
        {Array.from({ length: rows }, (_, i) => (
          <Skeleton key={i} height="64px" width="100%" />
        ))}
      </Flex>
    );
  }
  return (
    <Flex direction="column" align="center" justify="center" gap="3" py="9" role="status" aria-busy="true">
      <Spinner size="3" aria-hidden="true" />
      <Text size="2" color="gray">
        {label}
      </Text>
    </Flex>
  );
}
