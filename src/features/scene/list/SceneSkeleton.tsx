import { Card, Flex, Grid, Skeleton } from "@radix-ui/themes";

/** The scene's card grid: one column on phones, two from sm, three from lg. */
export const GRID_COLUMNS = { initial: "1", sm: "2", lg: "3" } as const;

/** The list's place while its first page loads. */
export function SceneSkeleton() {
  return (
    <Grid columns={GRID_COLUMNS} gap="4" role="status" aria-label="Loading the scene" aria-busy="true">
      {Array.from({ length: 6 }, (_, i) => (
        <Card key={i} size="2">
          <Flex direction="column" gap="2">
            <Skeleton height="20px" width="80px" />
            <Skeleton height="24px" width="70%" />
            <Skeleton height="16px" width="50%" />
            <Skeleton height="16px" width="90%" />
            <Skeleton height="32px" width="100%" />
          </Flex>
        </Card>
      ))}
    </Grid>
  );
}
