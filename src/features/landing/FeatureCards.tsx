import { CalendarIcon, MagnifyingGlassIcon, StarIcon } from "@radix-ui/react-icons";
import { Box, Card, Flex, Grid, Heading, Text } from "@radix-ui/themes";
import type { ReactNode } from "react";

const FEATURES: Array<{ title: string; body: string; icon: ReactNode }> = [
  {
    title: "Log your stage time",
    body: "Record every set in seconds: minutes, venue and notes. Watch your weekly goal fill up.",
    icon: <CalendarIcon width="24" height="24" />,
  },
  {
    title: "Find mics in the scene",
    body: "Browse open mics and shows near you, see what's verified, and keep your week's schedule.",
    icon: <MagnifyingGlassIcon width="24" height="24" />,
  },
  {
    title: "Earn badges and streaks",
    body: "Check in at venues, keep your streak alive and unlock badges as your stage time grows.",
    icon: <StarIcon width="24" height="24" />,
  },
];

export function FeatureCards() {
  return (
    <Box asChild>
      <section aria-labelledby="features-heading">
        <Heading as="h2" id="features-heading" size="6" align="center" mb="5">
          Built for comedians who get up
        </Heading>
        <Grid columns={{ initial: "1", sm: "3" }} gap="4">
          {FEATURES.map((feature) => (
            <Card key={feature.title} size="3">
              <Flex direction="column" gap="2">
                <Text color="violet" aria-hidden="true">
                  {feature.icon}
                </Text>
                <Heading as="h3" size="4">
                  {feature.title}
                </Heading>
                <Text as="p" size="2" color="gray">
                  {feature.body}
                </Text>
              </Flex>
            </Card>
          ))}
        </Grid>
      </section>
    </Box>
  );
}
