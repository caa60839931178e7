import { Badge, Box, Card, Flex, Grid, Heading, Progress, Skeleton, Text } from "@radix-ui/themes";
import { useQuery } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import { format } from "date-fns";
import { useMemo, type ReactNode } from "react";
import { api } from "@convex/_generated/api";
import {
  BADGES,
  RARITY_LABELS,
  badgeByCode,
  badgeCollectionPercent,
  nextMilestone,
  type BadgeDefinition,
} from "@convex/lib/badges";
import { BackToDashboardLink } from "@/components/BackToDashboardLink";
import { EmptyState } from "@/components/EmptyState";
import { BadgeIcon } from "@/components/badges/BadgeIcon";
import { LogFirstSetButton } from "@/components/LogFirstSetButton";

type ProgressRow = FunctionReturnType<typeof api.badges.progress>[number];

const listStyle = { listStyle: "none", margin: 0, padding: 0 } as const;

const RARITY_COLORS = { rare: "blue", epic: "purple", legendary: "amber" } as const;

/** The label of a rare, epic or legendary badge; nothing for a common one. */
function RarityLabel({ def }: { def: BadgeDefinition }) {
  const label = RARITY_LABELS[def.rarity];
  if (def.rarity === "common" || label === null) return null;
  return (
    <Badge color={RARITY_COLORS[def.rarity]} variant="soft" radius="full">
      {label}
    </Badge>
  );
}

function ShowcaseIcon({ def, faded = false }: { def: BadgeDefinition; faded?: boolean }) {
  return (
    <Text color={faded ? "gray" : "amber"} style={{ display: "inline-flex", opacity: faded ? 0.6 : undefined }}>
      <BadgeIcon name={def.icon} size={32} />
    </Text>
  );
}

/** Start of this calendar month on this device (queries never read the clock). */
function monthStartMs(): number {
  const now = new Date();
  return new Date(now.getFullYear(), now.getMonth(), 1).getTime();
}

function Summary({ earned }: { earned: number }) {
  const total = BADGES.length;
  const percent = badgeCollectionPercent(earned);
  return (
    <Grid columns={{ initial: "1", xs: "3" }} gap="3">
      <Card size="2" role="group" aria-label="Earned">
        <Text as="p" size="1" color="gray" weight="medium">
          Earned
        </Text>
        <Text as="p" size="6" weight="bold">
          {earned} of {total}
        </Text>
      </Card>
      <Card size="2" role="group" aria-label="Complete">
        <Text as="p" size="1" color="gray" weight="medium">
          Complete
        </Text>
        <Text as="p" size="6" weight="bold">
          {percent}%
        </Text>
        <Progress value={percent} mt="2" aria-label="Badges complete" />
      </Card>
      <Card size="2" role="group" aria-label="To Earn">
        <Text as="p" size="1" color="gray" weight="medium">
          To Earn
        </Text>
        <Text as="p" size="6" weight="bold">
          {total - earned}
        </Text>
      </Card>
    </Grid>
  );
}

/** A badge's name, its rarity label (non-common only) and its description. */
function BadgeTitle({ def }: { def: BadgeDefinition }) {
  return (
    <>
      <Flex gap="2" align="center" wrap="wrap">
        <Text size="3" weight="bold">
          {def.name}
        </Text>
        <RarityLabel def={def} />
      </Flex>
      <Text as="p" size="2" color="gray">
        {def.description}
      </Text>
    </>
  );
}

/** The responsive list the earned and to-earn badges are laid out in. */
function BadgeGrid({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Grid columns={{ initial: "1", xs: "2", md: "3" }} gap="3" asChild>
      <ul style={listStyle} aria-label={label}>
        {children}
      </ul>
    </Grid>
  );
}

function NextMilestoneCard({ row, def }: { row: ProgressRow; def: BadgeDefinition }) {
  return (
    <Card size="3" role="region" aria-label="Next Milestone">
      <Flex direction="column" gap="3">
        <Heading as="h2" size="4">
          Next Milestone
        </Heading>
        <Flex gap="3" align="center">
          <ShowcaseIcon def={def} />
          <Box flexGrow="1">
            <BadgeTitle def={def} />
          </Box>
        </Flex>
        <Progress value={row.percentage} aria-label={`${def.name} progress`} />
        <Text size="2" color="gray">
          {row.current} of {row.required} · {row.percentage}%
        </Text>
      </Flex>
    </Card>
  );
}

function EarnedList({ rows }: { rows: Array<{ row: ProgressRow; def: BadgeDefinition }> }) {
  return (
    <BadgeGrid label="Earned badges">
      {rows.map(({ row, def }) => (
        <li key={def.code} aria-label={def.name}>
          <Card size="2" style={{ height: "100%" }}>
            <Flex gap="3" align="start">
              <ShowcaseIcon def={def} />
              <Box>
                <BadgeTitle def={def} />
                {row.earnedAt !== null ? (
                  <Text as="p" size="1" color="gray" mt="1">
                    Earned {format(row.earnedAt, "MMM d, yyyy")}
                  </Text>
                ) : null}
              </Box>
            </Flex>
          </Card>
        </li>
      ))}
    </BadgeGrid>
  );
}

function ToEarnList({ rows }: { rows: Array<{ row: ProgressRow; def: BadgeDefinition }> }) {
  return (
    <BadgeGrid label="Badges to earn">
      {rows.map(({ row, def }) => (
        <li key={def.code} aria-label={def.name}>
          <Card size="2" style={{ height: "100%" }}>
            <Flex gap="3" align="start">
              <ShowcaseIcon def={def} faded />
              <Box flexGrow="1">
                <BadgeTitle def={def} />
                <Progress value={row.percentage} mt="2" aria-label={`${def.name} progress`} />
                <Text as="p" size="1" color="gray" mt="1">
                  {row.current} of {row.required}
                </Text>
              </Box>
            </Flex>
          </Card>
        </li>
      ))}
    </BadgeGrid>
  );
}

function Showcase() {
  const since = useMemo(monthStartMs, []);
  const progress = useQuery(api.badges.progress, { monthStartMs: since });
  if (progress === undefined) {
    return (
      <Flex direction="column" gap="4" role="status" aria-label="Loading your badges" aria-busy="true">
        <Skeleton height="84px" />
        <Skeleton height="160px" />
      </Flex>
    );
  }
  const rows = progress.flatMap((row) => {
    const def = badgeByCode(row.code);
    return def ? [{ row, def }] : [];
  });
  const earned = rows.filter(({ row }) => row.earned);
  const toEarn = rows.filter(({ row }) => !row.earned);
  const nextCode = nextMilestone(
    progress.map((r) => ({ ...r, met: r.earned })),
    earned.map(({ def }) => def.code),
  );
  const next = rows.find(({ def }) => def.code === nextCode);
  return (
    <Flex direction="column" gap="5">
      <Summary earned={earned.length} />
      {next ? <NextMilestoneCard row={next.row} def={next.def} /> : null}
      <Flex direction="column" gap="3">
        <Heading as="h2" size="5">
          Earned badges
        </Heading>
        {earned.length === 0 ? (
          <EmptyState
            headingAs="h3"
            title="No badges yet"
            description="Badges come from time on stage: log a set to earn your first."
            action={<LogFirstSetButton />}
          />
        ) : (
          <EarnedList rows={earned} />
        )}
      </Flex>
      {toEarn.length > 0 ? (
        <Flex direction="column" gap="3">
          <Heading as="h2" size="5">
            To Earn
          </Heading>
          <ToEarnList rows={toEarn} />
        </Flex>
      ) : null}
    </Flex>
  );
}

/** /badges: earned badges, percent complete, what is left and the next milestone. */
export function BadgeShowcasePage() {
  return (
    <Flex direction="column" gap="5">
      <Flex direction="column" gap="2">
        <BackToDashboardLink />
        <Heading as="h1" size="8">
          Badge Showcase
        </Heading>
      </Flex>
      <Showcase />
    </Flex>
  );
}
