import { ArrowLeftIcon } from "@radix-ui/react-icons";
import { Button, DataList, Flex, RadioCards, Text } from "@radix-ui/themes";
import { useMutation, useQuery } from "convex/react";
import { ConvexError } from "convex/values";
import { useEffect, useState, type ReactNode } from "react";
import { Navigate, useNavigate } from "react-router-dom";
import { toast } from "sonner";
import { ErrorBoundary } from "@/components/ErrorBoundary";
import { LoadingState } from "@/components/LoadingState";
import { errorCode, errorMessage } from "@/lib/convexErrors";
import { weeklySlotText } from "@/lib/format";
import { paths } from "@/lib/paths";
import type { EventFormSlotProps, VenueSearchSlot } from "@/lib/wizardSlots";
import { viewerTimeZone } from "@/lib/timeZone";
import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";
import type { EventDetails, VenueInput } from "../../../convex/model/events";
import { localDateString } from "../../../convex/lib/time";
import { eventSummary } from "./summary";
import { WizardFrame } from "@/components/WizardFrame";
import { useAddEventWizard } from "./wizardStore";

const TOTAL_STEPS = 3;
export const VENUE_REQUIRED = {
  title: "Please select a venue",
  description: "Search and select a venue to continue",
} as const;
export const SELECTION_REQUIRED = {
  title: "Please make a selection",
  description: "Select an existing event or choose to create a new one",
} as const;

/** Step 1: 'Add New Event' with the venue search (US only, at least 3 characters). */
export function AddEventVenueStep({ renderVenueSearch }: { renderVenueSearch: VenueSearchSlot }) {
  const { venue, setVenue } = useAddEventWizard();
  const navigate = useNavigate();
  return (
    <WizardFrame step={1} total={TOTAL_STEPS} title="Add New Event" subtitle="Where is it?">
      {renderVenueSearch(venue, setVenue)}
      <Button
        size="4"
        onClick={() => {
          if (!venue) {
            toast.error(VENUE_REQUIRED.title, { description: VENUE_REQUIRED.description });
            return;
          }
          void navigate(paths.addEventStep("event"));
        }}
      >
        Continue
      </Button>
    </WizardFrame>
  );
}

type Choice = { kind: "new" } | { kind: "existing"; sceneItemId: Id<"sceneItems">; title: string };

function CreateNewEventItem() {
  return (
    <RadioCards.Item value="new">
      <Flex direction="column" width="100%">
        <Text weight="bold">Create New Event</Text>
        <Text size="2" color="gray">
          A mic or show not listed here
        </Text>
      </Flex>
    </RadioCards.Item>
  );
}

/** The venue's active events plus 'Create New Event'. */
function EventChoices({
  venue,
  choice,
  onChoice,
}: {
  venue: VenueInput;
  choice: Choice | null;
  onChoice: (c: Choice) => void;
}) {
  const events = useQuery(api.venues.eventsAt, { venueName: venue.venueName, googlePlaceId: venue.googlePlaceId });
  if (events === undefined) return <LoadingState variant="skeleton" rows={2} label="Loading events at this venue" />;
  return (
    <RadioCards.Root
      aria-label="What event is it?"
      columns="1"
      size="3"
      value={choice === null ? "" : choice.kind === "new" ? "new" : choice.sceneItemId}
      onValueChange={(v) => {
        if (v === "new") {
          onChoice({ kind: "new" });
          return;
        }
        const item = events.find((e) => e._id === v);
        if (item) onChoice({ kind: "existing", sceneItemId: item._id, title: item.title });
      }}
    >
      {events.map((item) => (
        <RadioCards.Item key={item._id} value={item._id}>
          <Flex direction="column" width="100%">
            <Text weight="bold">{item.title}</Text>
            <Text size="2" color="gray">
              {weeklySlotText(item)}
            </Text>
          </Flex>
        </RadioCards.Item>
      ))}
      <CreateNewEventItem />
    </RadioCards.Root>
  );
}

/** When the venue's events cannot be loaded: say so, and still offer a new event. */
function EventChoicesFailed({ choice, onChoice }: { choice: Choice | null; onChoice: (c: Choice) => void }) {
  useEffect(() => {
    toast.error("Error", { description: "Failed to load existing events", id: "add-event-load" });
  }, []);
  return (
    <RadioCards.Root
      aria-label="What event is it?"
      columns="1"
      size="3"
      value={choice?.kind === "new" ? "new" : ""}
      onValueChange={() => onChoice({ kind: "new" })}
    >
      <CreateNewEventItem />
    </RadioCards.Root>
  );
}

/** Step 2: 'What event is it?': an event already listed at the venue, or a new one. */
export function AddEventEventStep() {
  const { venue } = useAddEventWizard();
  const navigate = useNavigate();
  const addToSchedule = useMutation(api.schedule.add);
  const [choice, setChoice] = useState<Choice | null>(null);
  const [busy, setBusy] = useState(false);

  if (!venue) return <Navigate to={paths.addEvent} replace />;

  const next = async () => {
    if (choice === null) {
      toast.error(SELECTION_REQUIRED.title, { description: SELECTION_REQUIRED.description });
      return;
    }
    if (choice.kind === "new") {
      void navigate(paths.addEventStep("details"));
      return;
    }
    setBusy(true);
    try {
      await addToSchedule({ sceneItemId: choice.sceneItemId });
      toast.success("Added to schedule!", { duration: 1500 });
      void navigate(paths.schedule);
    } catch (err) {
      if (errorCode(err) === "ALREADY_EXISTS") {
        toast("Already in schedule", { description: `${choice.title} is already in your schedule` });
      } else {
        console.error(err);
        toast.error("Error", { description: "Failed to add event to your schedule. Please try again." });
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <WizardFrame step={2} total={TOTAL_STEPS} title="What event is it?" subtitle={venue.venueName}>
      <ErrorBoundary fallback={<EventChoicesFailed choice={choice} onChoice={setChoice} />}>
        <EventChoices venue={venue} choice={choice} onChoice={setChoice} />
      </ErrorBoundary>
      <Flex justify="between" gap="3" wrap="wrap">
        <Button variant="soft" color="gray" size="4" onClick={() => void navigate(paths.addEvent)}>
          <ArrowLeftIcon aria-hidden="true" /> Back
        </Button>
        <Flex gap="3">
          <Button variant="ghost" color="gray" size="4" onClick={() => void navigate(paths.dashboard)}>
            Skip for now
          </Button>
          <Button size="4" loading={busy} onClick={() => void next()}>
            Continue
          </Button>
        </Flex>
      </Flex>
    </WizardFrame>
  );
}

/** Step 3: the event details form; Save Event adds it to the scene and the creator's schedule. */
export function AddEventDetailsStep({
  renderEventForm,
}: {
  renderEventForm: (props: EventFormSlotProps) => ReactNode;
}) {
  const { venue, setSaved } = useAddEventWizard();
  const navigate = useNavigate();
  const create = useMutation(api.events.create);
  const [today] = useState(() => localDateString(Date.now(), viewerTimeZone()));

  if (!venue) return <Navigate to={paths.addEvent} replace />;

  const onSubmit = async (details: EventDetails) => {
    try {
      const { title } = await create({ venue, details });
      toast.success("Event added!", { description: `${title} has been added to the scene list and your schedule` });
      setSaved({ title, details });
      void navigate(paths.addEventStep("success"));
    } catch (err) {
      if (!(err instanceof ConvexError)) console.error(err);
      toast.error("Could not save event", {
        description: errorMessage(err, "Please check your inputs and try again."),
      });
    }
  };

  return (
    <WizardFrame step={3} total={TOTAL_STEPS} title="Add New Event" subtitle={venue.venueName}>
      {renderEventForm({
        venueName: venue.venueName,
        defaultStartTime: "19:00",
        today,
        allowOneTime: false,
        submitLabel: "Save Event",
        onSubmit,
        secondaryAction: (
          <Button
            type="button"
            variant="soft"
            color="gray"
            size="4"
            onClick={() => void navigate(paths.addEventStep("event"))}
          >
            <ArrowLeftIcon aria-hidden="true" /> Back
          </Button>
        ),
      })}
    </WizardFrame>
  );
}

/** After saving: the event's summary and where to go next (each button resets the wizard). */
export function AddEventSuccessStep() {
  const { venue, saved, reset } = useAddEventWizard();
  const navigate = useNavigate();
  // Set while a button leaves the page, so the reset does not trigger the redirect below.
  const [leaving, setLeaving] = useState(false);
  if (!venue || !saved) return leaving ? null : <Navigate to={paths.addEvent} replace />;
  const { day, time, frequency } = eventSummary(saved.details);
  const go = (to: string) => {
    setLeaving(true);
    void navigate(to);
    reset();
  };
  return (
    <WizardFrame
      step={null}
      total={TOTAL_STEPS}
      title="Event added!"
      subtitle="It's on the scene list and in your schedule."
    >
      <DataList.Root orientation={{ initial: "vertical", xs: "horizontal" }} aria-label="Event summary">
        <DataList.Item>
          <DataList.Label>Event</DataList.Label>
          <DataList.Value>{saved.title}</DataList.Value>
        </DataList.Item>
        <DataList.Item>
          <DataList.Label>Venue</DataList.Label>
          <DataList.Value>{venue.venueName}</DataList.Value>
        </DataList.Item>
        <DataList.Item>
          <DataList.Label>Day</DataList.Label>
          <DataList.Value>{day}</DataList.Value>
        </DataList.Item>
        <DataList.Item>
          <DataList.Label>Time</DataList.Label>
          <DataList.Value>{time}</DataList.Value>
        </DataList.Item>
        <DataList.Item>
          <DataList.Label>Frequency</DataList.Label>
          <DataList.Value>{frequency}</DataList.Value>
        </DataList.Item>
      </DataList.Root>
      <Flex gap="3" direction={{ initial: "column", sm: "row" }} wrap="wrap">
        <Button size="4" onClick={() => go(paths.schedule)}>
          View My Schedule
        </Button>
        <Button size="4" variant="soft" onClick={() => go(paths.addEvent)}>
          Add Another Event
        </Button>
        <Button size="4" variant="soft" color="gray" onClick={() => go(paths.dashboard)}>
          Back to Dashboard
        </Button>
      </Flex>
    </WizardFrame>
  );
}
