import { RadioCards, Text } from "@radix-ui/themes";
import { useQuery } from "convex/react";
import { useEffect, useId, useMemo } from "react";
import { toast } from "sonner";
import { ErrorBoundary } from "@/components/ErrorBoundary";
import { LoadingState } from "@/components/LoadingState";
import { RadioCardText } from "@/components/RadioCardText";
import type { EventAtVenue, EventPickerProps } from "@/lib/wizardSlots";
import { api } from "../../../convex/_generated/api";
import { initialEventChoice, mergeMatches } from "./eventChoice";

const NONE = "none";

/**
 * The wizards' event step: the mics and shows the scene lists at the chosen
 * venue (live, so one added meanwhile appears), then a card for a new one.
 * With `loadError`, a failed load toasts and offers only the new event.
 */
export function EventAtVenuePicker(props: EventPickerProps) {
  const { loadError } = props;
  if (!loadError) return <LiveChoices {...props} />;
  return (
    <ErrorBoundary fallback={<FailedChoices {...props} loadError={loadError} />}>
      <LiveChoices {...props} />
    </ErrorBoundary>
  );
}

function LiveChoices(props: EventPickerProps) {
  const { venue, withSimilar = false, preselect = false, value, onChange } = props;
  const atVenue = useQuery(api.venues.eventsAt, { venueName: venue.venueName, googlePlaceId: venue.googlePlaceId });
  const similar = useQuery(api.venues.similar, withSimilar ? { venueName: venue.venueName } : "skip");
  const events = useMemo(() => {
    if (!withSimilar) return atVenue;
    return atVenue && similar ? mergeMatches(atVenue, similar) : undefined;
  }, [withSimilar, atVenue, similar]);

  // Preselect once the events arrive, unless the comedian already chose.
  useEffect(() => {
    if (!preselect || events === undefined || value !== null) return;
    const initial = initialEventChoice(events);
    if (initial) onChange(initial);
  }, [preselect, events, value, onChange]);

  if (events === undefined) return <LoadingState variant="skeleton" rows={2} label="Loading events at this venue" />;
  return <ChoiceCards {...props} events={events} failed={false} />;
}

function FailedChoices(props: EventPickerProps & { loadError: NonNullable<EventPickerProps["loadError"]> }) {
  const { title, description, id } = props.loadError;
  useEffect(() => {
    toast.error(title, { description, id });
  }, [title, description, id]);
  return <ChoiceCards {...props} events={[]} failed />;
}

function ChoiceCards({
  events,
  failed,
  value,
  onChange,
  label,
  caption,
  newEvent,
  describe,
}: EventPickerProps & { events: EventAtVenue[]; failed: boolean }) {
  const captionId = useId();
  const captionText = caption?.({ count: events.length, failed });
  const selected = value === null ? "" : value.kind === "none" ? NONE : value.sceneItemId;
  const choose = (v: string) => {
    if (v === NONE) return onChange({ kind: "none" });
    const item = events.find((e) => e._id === v);
    if (item) onChange({ kind: "existing", sceneItemId: item._id, title: item.title });
  };
  return (
    <>
      {captionText ? (
        <Text id={captionId} size="2" weight="medium">
          {captionText}
        </Text>
      ) : null}
      <RadioCards.Root
        aria-label={captionText ? undefined : label}
        aria-labelledby={captionText ? captionId : undefined}
        columns="1"
        size="3"
        value={selected}
        onValueChange={choose}
      >
        {events.map((item) => (
          <RadioCards.Item key={item._id} value={item._id}>
            <RadioCardText title={item.title} hint={describe(item)} />
          </RadioCards.Item>
        ))}
        <RadioCards.Item value={NONE}>
          <RadioCardText title={newEvent.title} hint={newEvent.hint} />
        </RadioCards.Item>
      </RadioCards.Root>
    </>
  );
}
