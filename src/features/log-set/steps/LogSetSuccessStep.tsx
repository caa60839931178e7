import { Badge, Box, Card, Flex, Text } from "@radix-ui/themes";
import { ErrorBoundary } from "@/components/ErrorBoundary";
import { WizardFrame } from "@/components/WizardFrame";
import { WizardExits } from "@/components/WizardSteps";
import { paths } from "@/lib/paths";
import { useReachable } from "@/lib/useReachable";
import { type QueuedSetFate, useQueuedSetFate } from "../useQueuedSetFate";
import { LOG_SET_STEPS, type LogSetState, useLogSetWizard } from "../wizardStore";

type Result = NonNullable<LogSetState["result"]>;
type Leave = ReturnType<typeof useLogSetWizard>["leave"];

/**
 * After saving: 'Set logged!' with the comedian's total minutes, or, offline, the set waiting on
 * the phone, which turns into 'Set logged!' once the outbox has sent it (or 'Set not logged').
 */
export function LogSetSuccessStep() {
  const { result, leaving, leave, redirect } = useLogSetWizard();
  if (!result) return leaving ? null : redirect("venue");
  const waiting = <SuccessView result={result} fate={{ state: "waiting" }} leave={leave} />;
  if (result.totalMinutes !== null || result.clientKey === undefined) return waiting;
  // A session lost meanwhile (signed out in another tab) leaves the page waiting, not failed.
  return (
    <ErrorBoundary fallback={waiting}>
      <FollowedSet result={result} clientKey={result.clientKey} leave={leave} />
    </ErrorBoundary>
  );
}

function FollowedSet({ result, clientKey, leave }: { result: Result; clientKey: string; leave: Leave }) {
  return <SuccessView result={result} fate={useQueuedSetFate(clientKey)} leave={leave} />;
}

function SuccessView({ result, fate, leave }: { result: Result; fate: QueuedSetFate; leave: Leave }) {
  const reachable = useReachable();
  const totalMinutes = result.totalMinutes ?? (fate.state === "logged" ? fate.totalMinutes : null);
  const refused = fate.state === "refused";
  return (
    <WizardFrame
      step={null}
      total={LOG_SET_STEPS}
      title={totalMinutes !== null ? "Set logged!" : refused ? "Set not logged" : "Set saved on this phone"}
      subtitle={`${result.minutes} min at ${result.venueName}`}
    >
      <Card size="3" variant="surface">
        {/* One live region throughout, so a screen reader hears the waiting set arrive. */}
        <Box role="status">
          {totalMinutes !== null ? (
            <Flex direction="column" align="center" gap="1">
              <Text size="2" color="gray">
                Total Minutes
              </Text>
              <Text size="8" weight="bold" data-testid="total-minutes">
                {totalMinutes}
              </Text>
            </Flex>
          ) : refused ? (
            <Flex direction="column" align="center" gap="2">
              <Badge size="3" color="red">
                Not logged
              </Badge>
              <Text size="2" color="gray" align="center">
                The server refused this set, so it was not logged.
              </Text>
            </Flex>
          ) : (
            <Flex direction="column" align="center" gap="2">
              <Badge size="3" color="amber">
                Waiting to sync
              </Badge>
              <Text size="2" color="gray" align="center">
                {reachable
                  ? "Back online: the set will be sent shortly."
                  : "You're offline. The set is logged when you're back online."}
              </Text>
            </Flex>
          )}
        </Box>
      </Card>
      <WizardExits
        exits={[
          { label: "Log Another Set", to: paths.logSet },
          { label: "Back to Dashboard", to: paths.dashboard, variant: "soft" },
        ]}
        leave={leave}
      />
    </WizardFrame>
  );
}
