import { Card, DataList, Flex, Grid, Heading, Link, Text } from "@radix-ui/themes";
import { Link as RouterLink } from "@/lib/router";
import type { Season } from "@convex/model/season";
import { StatTile } from "@/components/StatTile";
import { paths } from "@/lib/paths";
import { SeasonMap } from "./SeasonMap";
import { count, monthName } from "./seasonText";

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card size="2" asChild>
      <section aria-label={title}>
        <Flex direction="column" gap="3">
          <Heading as="h2" size="4">
            {title}
          </Heading>
          {children}
        </Flex>
      </section>
    </Card>
  );
}

/**
 * A season's numbers: the headline tiles, then the mics, cities, map and bits.
 * Shows only the fields the season carries (a public link carries the chosen ones).
 */
export function SeasonNumbers({ season, linkMics = true }: { season: Season; linkMics?: boolean }) {
  const tiles: { label: string; value: string }[] = [];
  if (season.sets !== undefined) tiles.push({ label: "Sets", value: season.sets.toLocaleString("en-US") });
  if (season.minutes !== undefined) tiles.push({ label: "Minutes", value: season.minutes.toLocaleString("en-US") });
  if (season.distinctMics !== undefined) tiles.push({ label: "Mics", value: String(season.distinctMics) });
  if (season.distinctCities !== undefined) tiles.push({ label: "Cities", value: String(season.distinctCities) });
  if (season.longestDayStreak !== undefined) {
    tiles.push({ label: "Longest day streak", value: count(season.longestDayStreak, "day") });
  }
  if (season.longestWeekStreak !== undefined) {
    tiles.push({ label: "Longest week streak", value: count(season.longestWeekStreak, "week") });
  }
  if (season.busiestMonth !== undefined) {
    tiles.push({
      label: "Busiest month",
      value: season.busiestMonth ? monthName(season.busiestMonth.month) : "None yet",
    });
  }
  return (
    <Flex direction="column" gap="4">
      {tiles.length > 0 ? (
        <Grid columns={{ initial: "2", sm: "3", md: "4" }} gap="3">
          {tiles.map((t) => (
            <StatTile key={t.label} label={t.label} value={t.value} />
          ))}
        </Grid>
      ) : null}
      {season.busiestMonth ? (
        <Text as="p" size="2" color="gray">
          {`${monthName(season.busiestMonth.month)}: ${count(season.busiestMonth.sets, "set")}, ${count(season.busiestMonth.minutes, "minute")}`}
        </Text>
      ) : null}
      <Grid columns={{ initial: "1", sm: "2" }} gap="4">
        {season.topMics !== undefined ? (
          <Section title="Where you got up most">
            {season.topMics.length === 0 ? (
              <Text size="2" color="gray">
                No sets in this period.
              </Text>
            ) : (
              <DataList.Root orientation="horizontal" size="2">
                {season.topMics.map((m, i) => (
                  <DataList.Item key={`${m.name}-${i}`}>
                    <DataList.Label minWidth="0" style={{ overflowWrap: "anywhere" }}>
                      {/* One span: the label is a flex box, so the name and its city flow as one line of text. */}
                      <span>
                        {m.micId && linkMics ? (
                          <Link asChild>
                            <RouterLink to={paths.event(m.micId)}>{m.name}</RouterLink>
                          </Link>
                        ) : (
                          m.name
                        )}
                        {m.city ? ` · ${m.city}` : ""}
                      </span>
                    </DataList.Label>
                    <DataList.Value>{count(m.sets, "set")}</DataList.Value>
                  </DataList.Item>
                ))}
              </DataList.Root>
            )}
          </Section>
        ) : null}
        {season.cities !== undefined ? (
          <Section title="Cities">
            {season.cities.length === 0 ? (
              <Text size="2" color="gray">
                No sets at listed mics in this period.
              </Text>
            ) : (
              <DataList.Root orientation="horizontal" size="2">
                {season.cities.map((c) => (
                  <DataList.Item key={c.name}>
                    <DataList.Label minWidth="0">{c.name}</DataList.Label>
                    <DataList.Value>{count(c.sets, "set")}</DataList.Value>
                  </DataList.Item>
                ))}
              </DataList.Root>
            )}
          </Section>
        ) : null}
        {season.map !== undefined ? (
          <Section title="Where you performed">
            <SeasonMap places={season.map} />
          </Section>
        ) : null}
        {season.bits !== undefined ? (
          <Section title="Bits that landed most">
            {season.bits.length === 0 ? (
              <Text size="2" color="gray">
                No bits rated in this period.
              </Text>
            ) : (
              <DataList.Root orientation="horizontal" size="2">
                {season.bits.map((b, i) => (
                  <DataList.Item key={`${b.title}-${i}`}>
                    <DataList.Label minWidth="0" style={{ overflowWrap: "anywhere" }}>
                      {b.title}
                    </DataList.Label>
                    <DataList.Value>{`landed ${b.landed} of ${count(b.performed, "set")}`}</DataList.Value>
                  </DataList.Item>
                ))}
              </DataList.Root>
            )}
          </Section>
        ) : null}
      </Grid>
    </Flex>
  );
}
