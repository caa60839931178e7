import { Callout, Flex, RadioCards, Text } from "@radix-ui/themes";
import type { Id } from "@convex/_generated/dataModel";
import { RadioCardText } from "@/components/RadioCardText";
import type { OfflineMic } from "@/lib/offline/store";
import { useOfflineMics } from "@/lib/offline/useOfflineMics";
import type { EventPickerProps } from "@/lib/wizardPartProps";

const NONE = "none";

/** Said on the wizard's steps while there is no connection. */
export function OfflineNotice() {
  return (
    <Callout.Root color="amber" role="status">
      <Callout.Text>You're offline. The set is saved on this phone and logged when you're back online.</Callout.Text>
    </Callout.Root>
  );
}

/** Step 1 offline: the mics the comedian follows or scheduled (the venue search needs a connection). */
export function OfflineMicChoices({ onPick }: { onPick: (mic: OfflineMic) => void }) {
  const mics = useOfflineMics();
  if (mics.length === 0) return null;
  return (
    <Flex direction="column" gap="2">
      <Text as="p" size="2" weight="medium" id="offline-mics">
        Your mics
      </Text>
      <RadioCards.Root
        aria-labelledby="offline-mics"
        columns="1"
        size="2"
        value=""
        onValueChange={(id) => {
          const mic = mics.find((m) => m.sceneItemId === id);
          if (mic) onPick(mic);
        }}
      >
        {mics.map((mic) => (
          <RadioCards.Item key={mic.sceneItemId} value={mic.sceneItemId}>
            <RadioCardText title={mic.title} hint={[mic.venueName, mic.city].filter(Boolean).join(" · ")} />
          </RadioCards.Item>
        ))}
      </RadioCards.Root>
    </Flex>
  );
}

const sameVenue = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Step 2 offline: the comedian's own mics at this venue (from the device's copy), then a new event. */
export function OfflineEventPicker({ venue, value, onChange, label, newEvent }: EventPickerProps) {
  const mics = useOfflineMics().filter((mic) => sameVenue(mic.venueName, venue.venueName));
  const selected = value === null ? "" : value.kind === "none" ? NONE : value.sceneItemId;
  return (
    <RadioCards.Root
      aria-label={label}
      columns="1"
      size="3"
      value={selected}
      onValueChange={(v) => {
        if (v === NONE) return onChange({ kind: "none" });
        const mic = mics.find((m) => m.sceneItemId === v);
        if (mic) onChange({ kind: "existing", sceneItemId: mic.sceneItemId as Id<"sceneItems">, title: mic.title });
      }}
    >
      {mics.map((mic) => (
        <RadioCards.Item key={mic.sceneItemId} value={mic.sceneItemId}>
          <RadioCardText title={mic.title} hint={mic.venueName} />
        </RadioCards.Item>
      ))}
      <RadioCards.Item value={NONE}>
        <RadioCardText title={newEvent.title} hint={newEvent.hint} />
      </RadioCards.Item>
    </RadioCards.Root>
  );
}
