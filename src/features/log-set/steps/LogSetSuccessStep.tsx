import { Card, Flex, Text } from "@radix-ui/themes";
import { WizardFrame } from "@/components/WizardFrame";
import { WizardExits } from "@/components/WizardSteps";
import { paths } from "@/lib/paths";
import { LOG_SET_STEPS, useLogSetWizard } from "../wizardStore";

/** After saving: 'Set logged!' with the comedian's total minutes. */
export function LogSetSuccessStep() {
  const { result, leaving, leave, redirect } = useLogSetWizard();
  if (!result) return leaving ? null : redirect("venue");
  return (
    <WizardFrame
      step={null}
      total={LOG_SET_STEPS}
      title="Set logged!"
      subtitle={`${result.minutes} min at ${result.venueName}`}
    >
      <Card size="3" variant="surface">
        <Flex direction="column" align="center" gap="1">
          <Text size="2" color="gray">
            Total Minutes
          </Text>
          <Text size="8" weight="bold" data-testid="total-minutes">
            {result.totalMinutes}
          </Text>
        </Flex>
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
