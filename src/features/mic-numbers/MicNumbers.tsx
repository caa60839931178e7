import { Card, DataList, Flex, Heading, Skeleton, Text } from "@radix-ui/themes";
import { useQuery } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { minutesText } from "@convex/lib/micNumbersLine";
import { ErrorBoundary } from "../../components/ErrorBoundary";

type Numbers = FunctionReturnType<typeof api.micNumbers.forMic>;

/** The figures that clear their thresholds, each as a label and its value. */
export function numberRows(n: Numbers): Array<[string, string]> {
  const rows: Array<[string, string]> = [];
  if (n.typicalSignUps !== null && n.typicalSpots !== null) {
    rows.push(["Sign-ups", `${n.typicalSignUps} for ${n.typicalSpots} spots (busiest night ${n.busiestSignUps})`]);
  }
  if (n.fillRate !== null) {
    const fast =
      n.typicalFillMinutes !== null ? `, usually ${minutesText(n.typicalFillMinutes)} after sign-up opens` : "";
    rows.push(["Fills up", `${n.fillRate}% of nights${fast}`]);
  }
  if (n.lotteryChance !== null) rows.push(["Lottery", `${n.lotteryChance}% chance of being drawn`]);
  if (n.myLottery !== null) rows.push(["Your draws", `Drawn ${n.myLottery.drawn} of your last ${n.myLottery.entered}`]);
  if (n.typicalWaitMinutes !== null)
    rows.push(["Typical wait", `${minutesText(n.typicalWaitMinutes)} from list time to set`]);
  if (n.typicalLateMinutes !== null) {
    const late = n.typicalLateMinutes;
    rows.push(["Real start", late <= 0 ? "On time" : `${minutesText(late)} after the listed time`]);
  }
  rows.push(["Reliability", `${n.held} of the last ${n.nights} nights held`]);
  rows.push(["Host confirmed", `${n.hostConfirmed} of the last ${n.nights} nights`]);
  return rows;
}

function MicNumbersInner({ micId }: { micId: Id<"sceneItems"> }) {
  const numbers = useQuery(api.micNumbers.forMic, { micId });
  return (
    <Card size="3" asChild>
      <section aria-labelledby="mic-numbers-heading">
        <Flex direction="column" gap="3">
          <Heading as="h2" size="4" id="mic-numbers-heading">
            This mic by the numbers
          </Heading>
          {numbers === undefined ? (
            <Skeleton height="60px" role="status" aria-label="Loading the mic's numbers" />
          ) : !numbers.enough ? (
            <Text size="2" color="gray">
              Not enough nights yet. The numbers show once this mic has run a few lists here.
            </Text>
          ) : (
            <>
              <DataList.Root orientation={{ initial: "vertical", xs: "horizontal" }} aria-label="This mic's numbers">
                {numberRows(numbers).map(([label, value]) => (
                  <DataList.Item key={label}>
                    <DataList.Label>{label}</DataList.Label>
                    <DataList.Value>{value}</DataList.Value>
                  </DataList.Item>
                ))}
              </DataList.Root>
              <Text size="1" color="gray">
                From the last {numbers.nights} nights of this mic&apos;s own lists.
              </Text>
            </>
          )}
        </Flex>
      </section>
    </Card>
  );
}

/** The event page's numbers from the mic's own lists (nothing for an id that is not a mic). */
export function MicNumbers({ id }: { id: string | undefined }) {
  if (!id) return null;
  return (
    <ErrorBoundary key={id} fallback={null}>
      <MicNumbersInner micId={id as Id<"sceneItems">} />
    </ErrorBoundary>
  );
}
