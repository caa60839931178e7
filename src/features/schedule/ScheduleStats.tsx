import { Card, Grid, Skeleton, Text } from "@radix-ui/themes";
import { formatDuration } from "@convex/lib/time";

export type ScheduleStatsValues = {
  upcoming: number;
  totalSetsLogged: number;
  uniqueVenues: number;
  totalMinutes: number;
};

function Tile({ label, value }: { label: string; value: string | null }) {
  return (
    <Card size="2" role="group" aria-label={label}>
      <Text as="p" size="1" color="gray" weight="medium">
        {label}
      </Text>
      {value === null ? (
        <Skeleton height="28px" width="60px" mt="1" />
      ) : (
        <Text as="p" size="6" weight="bold">
          {value}
        </Text>
      )}
    </Card>
  );
}

/** The schedule's four tiles; skeletons while `stats` loads. */
export function ScheduleStats({ stats }: { stats: ScheduleStatsValues | undefined }) {
  return (
    <Grid columns={{ initial: "2", md: "4" }} gap="3">
      <Tile label="Upcoming" value={stats ? String(stats.upcoming) : null} />
      <Tile label="Total Sets Logged" value={stats ? String(stats.totalSetsLogged) : null} />
      <Tile label="Unique Venues" value={stats ? String(stats.uniqueVenues) : null} />
      <Tile label="Total Time on Stage" value={stats ? formatDuration(stats.totalMinutes) : null} />
    </Grid>
  );
}
