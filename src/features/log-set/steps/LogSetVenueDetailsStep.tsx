import { Card, Checkbox, Flex, Text } from "@radix-ui/themes";
import { useMutation } from "convex/react";
import { useId, useState } from "react";
import { EventDetailsStep } from "@/components/WizardSteps";
import type { WizardStepProps } from "@/lib/wizardPartProps";
import { api } from "@convex/_generated/api";
import type { EventDetails } from "@convex/model/events";
import { localDateString } from "@convex/lib/time";
import { useSaveSet } from "../useSaveSet";
import { LOG_SET_STEPS, useLogSetWizard } from "../wizardStore";
import { MissingVenue } from "./MissingVenue";
import { OfflineNotice } from "./OfflineMics";

/** Step 4: 'Venue / Mic Details' when the set was at a mic the scene does not list yet. */
export function LogSetVenueDetailsStep({ slots }: WizardStepProps) {
  const { venue, event, set, result, goTo, redirect } = useLogSetWizard();
  const { zone, reachable, save } = useSaveSet();
  const logWithNewMic = useMutation(api.performances.logWithNewMic);
  const [alsoAddToScene, setAlsoAddToScene] = useState(true);
  const checkboxId = useId();
  const today = localDateString(Date.now(), zone);

  if (!venue) return result ? redirect("success") : <MissingVenue />;
  if (!event) return redirect("venue");
  if (event.kind === "existing" || !set) return redirect("details");

  const onSubmit = (details: EventDetails) =>
    save(set, {
      send: (payload, clientKey) => logWithNewMic({ set: payload, venue, details, alsoAddToScene, clientKey }),
      later: { newMic: { venue, details, alsoAddToScene } },
    });

  return (
    <EventDetailsStep
      slots={slots}
      step={4}
      total={LOG_SET_STEPS}
      title="Venue / Mic Details"
      venue={venue}
      onBack={() => goTo("details")}
      defaultStartTime="20:00"
      today={today}
      allowOneTime
      submitLabel="Save Set"
      onSubmit={onSubmit}
    >
      {!reachable ? <OfflineNotice /> : null}
      <Card variant="surface">
        <Text as="label" size="3" htmlFor={checkboxId}>
          <Flex gap="2" align="start">
            <Checkbox
              id={checkboxId}
              size="3"
              checked={alsoAddToScene}
              onCheckedChange={(c) => setAlsoAddToScene(c === true)}
            />
            <Flex direction="column">
              <Text weight="medium">Also add this mic to the scene</Text>
              <Text size="1" color="gray">
                Other comedians can find it. One-time shows go only to your log.
              </Text>
            </Flex>
          </Flex>
        </Text>
      </Card>
    </EventDetailsStep>
  );
}
