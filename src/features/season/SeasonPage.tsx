import { Flex, Heading, SegmentedControl, Text } from "@radix-ui/themes";
import { useQuery } from "convex/react";
import { useMemo, useState } from "react";
import { useSearchParams } from "@/lib/router";
import { api } from "@convex/_generated/api";
import { periodProblem, yearPeriod, type SeasonPeriod } from "@convex/lib/season";
import { localDateString } from "@convex/lib/time";
import { BackToDashboardLink } from "@/components/BackToDashboardLink";
import { EmptyState } from "@/components/EmptyState";
import { ErrorBoundary } from "@/components/ErrorBoundary";
import { LoadingState } from "@/components/LoadingState";
import { Form, FormSubmit, FormTextField } from "@/components/form";
import { viewerTimeZone } from "@/lib/timeZone";
import { periodSchema } from "./periodSchema";
import { SeasonNumbers } from "./SeasonNumbers";
import { periodLabel } from "./seasonText";
import { ShareCard } from "./ShareCard";
import { ShareLinks } from "./ShareLinks";

type Choice = "this" | "last" | "custom";

/** The period in the address (`?from=&to=`), this year without one (or with one the page cannot show). */
function usePeriod(thisYear: number): [SeasonPeriod, Choice, (p: SeasonPeriod) => void] {
  const [params, setParams] = useSearchParams();
  const from = params.get("from");
  const to = params.get("to");
  const asked = from !== null && to !== null ? { from, to } : null;
  const period = asked !== null && periodProblem(asked) === null ? asked : yearPeriod(thisYear);
  const choice: Choice =
    period.from === `${thisYear}-01` && period.to === `${thisYear}-12`
      ? "this"
      : period.from === `${thisYear - 1}-01` && period.to === `${thisYear - 1}-12`
        ? "last"
        : "custom";
  return [period, choice, (p) => setParams({ from: p.from, to: p.to }, { replace: true })];
}

function CustomPeriod({ period, onChange }: { period: SeasonPeriod; onChange: (p: SeasonPeriod) => void }) {
  return (
    <Form
      schema={periodSchema}
      defaultValues={period}
      aria-label="Custom period"
      onSubmit={(values) => onChange({ from: values.from, to: values.to })}
    >
      <Flex gap="3" wrap="wrap" align="end">
        <FormTextField name="from" label="From month" type="month" required />
        <FormTextField name="to" label="To month" type="month" required />
        <FormSubmit size="2">Show</FormSubmit>
      </Flex>
    </Form>
  );
}

function Numbers({ period, today }: { period: SeasonPeriod; today: string }) {
  const season = useQuery(api.season.mine, { ...period, today });
  if (season === undefined) return <LoadingState variant="skeleton" label="Loading your season" rows={4} />;
  return (
    <Flex direction="column" gap="4">
      {season.sets === 0 ? (
        <EmptyState
          title="No sets in this period"
          description="Sets you log in these months show up here: sets, minutes, mics, streaks and more."
        />
      ) : (
        <ShareCard season={season} />
      )}
      <SeasonNumbers season={season} />
    </Flex>
  );
}

/** A season in review: the comedian's numbers for this year, last year or any run of months. */
export function SeasonPage() {
  const today = useMemo(() => localDateString(Date.now(), viewerTimeZone()), []);
  const thisYear = Number(today.slice(0, 4));
  const [period, choice, setPeriod] = usePeriod(thisYear);
  const [custom, setCustom] = useState(choice === "custom");
  const shown: Choice = custom ? "custom" : choice;
  return (
    <Flex direction="column" gap="4">
      <BackToDashboardLink />
      <Flex direction="column" gap="1">
        <Heading as="h1" size="7">
          Season in review
        </Heading>
        <Text color="gray" size="2">
          {periodLabel(period)}
        </Text>
      </Flex>
      <SegmentedControl.Root
        value={shown}
        aria-label="Period"
        onValueChange={(value) => {
          const next = value as Choice;
          setCustom(next === "custom");
          if (next === "this") setPeriod(yearPeriod(thisYear));
          if (next === "last") setPeriod(yearPeriod(thisYear - 1));
        }}
        style={{ maxWidth: 420 }}
      >
        <SegmentedControl.Item value="this">This year</SegmentedControl.Item>
        <SegmentedControl.Item value="last">Last year</SegmentedControl.Item>
        <SegmentedControl.Item value="custom">Custom</SegmentedControl.Item>
      </SegmentedControl.Root>
      {shown === "custom" ? <CustomPeriod period={period} onChange={setPeriod} /> : null}
      <ErrorBoundary fallback={<EmptyState title="Could not load your season" description="Please reload the page." />}>
        <Numbers period={period} today={today} />
      </ErrorBoundary>
      <ShareLinks period={period} />
    </Flex>
  );
}
