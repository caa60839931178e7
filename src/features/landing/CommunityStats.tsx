import { Box, Card, Grid, Heading, Skeleton, Text } from "@radix-ui/themes";
import { useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import { formatCompact } from "@/lib/formatCompact";

const FIGURES = [
  { key: "venues", label: "Venues" },
  { key: "hoursLogged", label: "Hours logged" },
  { key: "cities", label: "Cities" },
  { key: "comedians", label: "Comedians" },
] as const;

/** Live figures from the database (the spec's marketing numbers are not used). */
export function CommunityStats() {
  const stats = useQuery(api.community.stats);
  return (
    <Box asChild>
      <section aria-labelledby="community-heading">
        <Heading as="h2" id="community-heading" size="6" align="center" mb="2">
          The community so far
        </Heading>
        <Text as="p" size="2" color="gray" align="center" mb="5">
          Every mic and every minute here was added by comedians like you.
        </Text>
        <Grid columns={{ initial: "2", sm: "4" }} gap="3" aria-busy={stats === undefined}>
          {FIGURES.map(({ key, label }) => (
            <Card key={key} size="3" data-testid={`stat-${key}`}>
              <Skeleton loading={stats === undefined}>
                <Text as="div" size="8" weight="bold" align="center" color="violet">
                  {stats ? formatCompact(stats[key]) : "000"}
                </Text>
              </Skeleton>
              <Text as="div" size="2" color="gray" align="center" mt="1">
                {label}
              </Text>
            </Card>
          ))}
        </Grid>
      </section>
    </Box>
  );
}
