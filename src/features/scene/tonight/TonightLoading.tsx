import { Box, Card, Flex, Heading, Skeleton } from "@radix-ui/themes";

/** Tonight's card while its code loads: the same heading and placeholder as while its nights load. */
export function TonightLoading() {
  return (
    <Card size="2">
      <Flex direction="column" gap="3">
        <Heading as="h2" size="5">
          Tonight
        </Heading>
        <Box role="status" aria-label="Loading tonight's mics">
          <Skeleton height="60px" />
        </Box>
      </Flex>
    </Card>
  );
}
