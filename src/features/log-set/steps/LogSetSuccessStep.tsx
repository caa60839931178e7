import { Badge, Card, Flex, Text } from "@radix-ui/themes";
import { WizardFrame } from "@/components/WizardFrame";
import { WizardExits } from "@/components/WizardSteps";
import { paths } from "@/lib/paths";
import { LOG_SET_STEPS, useLogSetWizard } from "../wizardStore";

/** After saving: 'Set logged!' with the comedian's total minutes, or, offline, the set waiting on the phone. */
export function LogSetSuccessStep() {
  const { result, leaving, leave, redirect } = useLogSetWizard();
  if (!result) return leaving ? null : redirect("venue");
  const waiting = result.totalMinutes === null;
  return (
    <WizardFrame
      step={null}
      total={LOG_SET_STEPS}
      title={waiting ? "Set saved on this phone" : "Set logged!"}
      subtitle={`${result.minutes} min at ${result.venueName}`}
    >
      <Card size="3" variant="surface">
        {waiting ? (
          <Flex direction="column" align="center" gap="2" role="status">
            <Badge size="3" color="amber">
              Waiting to sync
            </Badge>
            <Text size="2" color="gray" align="center">
              You're offline. The set is logged when you're back online.
            </Text>
          </Flex>
        ) : (
          <Flex direction="column" align="center" gap="1">
            <Text size="2" color="gray">
              Total Minutes
            </Text>
            <Text size="8" weight="bold" data-testid="total-minutes">
              {result.totalMinutes}
            </Text>
          </Flex>
        )}
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
