import { Heading, RadioCards, Text } from "@radix-ui/themes";
import { useQuery } from "convex/react";
import { useEffect, useId, useMemo } from "react";
import { toast } from "sonner";
import { ErrorBoundary } from "@/components/ErrorBoundary";
import { LoadingState } from "@/components/LoadingState";
import { RadioCardText } from "@/components/RadioCardText";
import type { EventAtVenue, EventPickerProps } from "@/lib/wizardPartProps";
import { api } from "@convex/_generated/api";
import { initialEventChoice, otherMatches } from "./eventChoice";

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
  const similarArgs = {
    venueName: venue.venueName,
    city: venue.city,
    address: venue.address,
    latitude: venue.latitude,
    longitude: venue.longitude,
  };
  const similar = useQuery(api.venues.similar, withSimilar ? similarArgs : "skip");
  const others = useMemo(() => (atVenue && similar ? otherMatches(atVenue, similar) : []), [atVenue, similar]);
  const loading = atVenue === undefined || (withSimilar && similar === undefined);

  // Preselect from the venue's own events once they arrive (never a similar one), unless the comedian already chose.
  useEffect(() => {
    if (!preselect || loading || value !== null) return;
    const initial = initialEventChoice(atVenue);
    if (initial) onChange(initial);
  }, [preselect, loading, atVenue, value, onChange]);

  if (loading) return <LoadingState variant="skeleton" rows={2} label="Loading events at this venue" />;
  return <ChoiceCards {...props} events={atVenue} similar={others} failed={false} />;
}

function FailedChoices(props: EventPickerProps & { loadError: NonNullable<EventPickerProps["loadError"]> }) {
  const { title, description, id } = props.loadError;
  useEffect(() => {
    toast.error(title, { description, id });
  }, [title, description, id]);
  return <ChoiceCards {...props} events={[]} similar={[]} failed />;
}

function ChoiceCards({
  events,
  similar,
  failed,
  value,
  onChange,
  label,
  caption,
  newEvent,
  describe,
}: EventPickerProps & { events: EventAtVenue[]; similar: EventAtVenue[]; failed: boolean }) {
  const captionId = useId();
  const similarId = useId();
  const captionText = caption?.({ count: events.length, failed });
  const selected = value === null ? "" : value.kind === "none" ? NONE : value.sceneItemId;
  const choose = (v: string) => {
    if (v === NONE) return onChange({ kind: "none" });
    const item = [...events, ...similar].find((e) => e._id === v);
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
      {similar.length > 0 ? (
        <>
          <Heading as="h2" id={similarId} size="3" mt="2">
            Similar venue names
          </Heading>
          <RadioCards.Root aria-labelledby={similarId} columns="1" size="2" value={selected} onValueChange={choose}>
            {similar.map((item) => (
              <RadioCards.Item key={item._id} value={item._id}>
                <RadioCardText title={item.title} hint={describe(item)} />
              </RadioCards.Item>
            ))}
          </RadioCards.Root>
        </>
      ) : null}
    </>
  );
}
