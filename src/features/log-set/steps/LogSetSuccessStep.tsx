import { Button, Card, Flex, Text } from "@radix-ui/themes";
import { WizardFrame } from "@/components/WizardFrame";
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
      <Flex gap="3" direction={{ initial: "column", sm: "row" }}>
        <Button size="4" onClick={() => leave(paths.logSet)}>
          Log Another Set
        </Button>
        <Button size="4" variant="soft" onClick={() => leave(paths.dashboard)}>
          Back to Dashboard
        </Button>
      </Flex>
    </WizardFrame>
  );
}
