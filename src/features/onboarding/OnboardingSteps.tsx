import { CheckCircledIcon, LightningBoltIcon, StarFilledIcon } from "@radix-ui/react-icons";
import { Badge, Button, Callout, Card, Flex, Heading, RadioCards, Text } from "@radix-ui/themes";
import { useConvex, useMutation } from "convex/react";
import { ConvexError } from "convex/values";
import { useEffect, useId, useState, type ReactNode } from "react";
import { Navigate, useNavigate } from "react-router-dom";
import { toast } from "sonner";
import { LoadingState } from "@/components/LoadingState";
import { errorCode, errorMessage } from "@/lib/convexErrors";
import { paths } from "@/lib/paths";
import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";
import { DAY_NAMES, formatTime12h, localDateString } from "../../../convex/lib/time";
import type { EventDetails, VenueInput } from "../../../convex/model/events";
import { NamedSlider } from "./NamedSlider";
import { OnboardingShell } from "./OnboardingShell";
import {
  alreadyFavorited,
  detailsIncomplete,
  goalFromSlider,
  goalLabel,
  GOAL_MINUTES,
  SET_MINUTES,
  sliderFromGoal,
} from "./progress";
import { useFinishOnboarding } from "./useFinishOnboarding";
import { useOnboardingProgress } from "./useOnboardingProgress";

export const TOASTS = {
  selectVenue: { title: "Please select a venue", description: "Search and select a venue to continue" },
  makeSelection: {
    title: "Please make a selection",
    description: "Select an existing event or choose to create a new one",
  },
  loadEvents: { title: "Error", description: "Failed to load events for this venue." },
  signIn: { title: "Error", description: "Please sign in to continue." },
  favorite: { title: "Error", description: "Failed to add event to favorites." },
  saveVenue: {
    title: "Error saving venue",
    description: "We'll try again during onboarding completion. You can continue for now.",
    duration: 2500,
  },
} as const;

function browserZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "America/New_York";
  } catch {
    return "America/New_York";
  }
}

function whenLine(item: { dayOfWeek?: number | null; startTimeLocal?: string }): string {
  return [
    item.dayOfWeek !== undefined && item.dayOfWeek !== null ? `${DAY_NAMES[item.dayOfWeek]}s` : null,
    item.startTimeLocal ? formatTime12h(item.startTimeLocal) : null,
  ]
    .filter(Boolean)
    .join(" at ");
}

function StepHeading({ children, lead }: { children: ReactNode; lead?: ReactNode }) {
  return (
    <Flex direction="column" gap="1">
      <Heading as="h1" size="6">
        {children}
      </Heading>
      {lead ? (
        <Text as="p" color="gray" size="2">
          {lead}
        </Text>
      ) : null}
    </Flex>
  );
}

function NextButton({
  onClick,
  loading,
  children = "Next",
}: {
  onClick: () => void;
  loading?: boolean;
  children?: ReactNode;
}) {
  return (
    <Flex justify="end">
      <Button size="3" onClick={onClick} loading={loading}>
        {children}
      </Button>
    </Flex>
  );
}

/** Sends a step opened without its prerequisite (e.g. no venue yet) back to the venue step. */
function BackToVenue() {
  return <Navigate to={paths.onboarding("venue")} replace />;
}

/** The venue search, composed by the route (features do not import each other). */
export type VenueSearchSlot = (venue: VenueInput | null, onChange: (venue: VenueInput | null) => void) => ReactNode;

/** Step 2: where the comedian performs. */
export function VenueStep({ renderVenueSearch }: { renderVenueSearch: VenueSearchSlot }) {
  const { progress, dispatch } = useOnboardingProgress();
  const navigate = useNavigate();
  const next = () => {
    if (!progress.venue) {
      toast.error(TOASTS.selectVenue.title, { description: TOASTS.selectVenue.description, id: "onboarding-venue" });
      return;
    }
    void navigate(paths.onboarding("event"));
  };
  return (
    <OnboardingShell step={2}>
      <Flex direction="column" gap="4">
        <StepHeading lead="Pick a club, bar or room where you do stage time. You can add more later.">
          Where do you perform?
        </StepHeading>
        {renderVenueSearch(progress.venue, (venue) => dispatch({ type: "selectVenue", venue }))}
        <NextButton onClick={next} />
      </Flex>
    </OnboardingShell>
  );
}

type SceneEvent = {
  _id: Id<"sceneItems">;
  title: string;
  type: string;
  dayOfWeek?: number | null;
  startTimeLocal?: string;
};
const NEW_EVENT = "new";

/** Step 3: an existing mic or show at the venue, or a new one. */
export function EventStep() {
  const { progress, dispatch } = useOnboardingProgress();
  const navigate = useNavigate();
  const convex = useConvex();
  const venue = progress.venue;
  const [events, setEvents] = useState<SceneEvent[] | null>(null);
  const [failed, setFailed] = useState(false);
  const labelId = useId();

  useEffect(() => {
    if (!venue) return;
    let cancelled = false;
    // A one-off read: the list is a starting point, not something to keep live.
    convex.query(api.venues.eventsAt, { venueName: venue.venueName, googlePlaceId: venue.googlePlaceId }).then(
      (items) => {
        if (!cancelled) setEvents(items);
      },
      (err: unknown) => {
        if (cancelled) return;
        console.error("Failed to load events for this venue", err);
        toast.error(TOASTS.loadEvents.title, { description: TOASTS.loadEvents.description, id: "onboarding-events" });
        setFailed(true);
        setEvents([]);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [convex, venue]);

  if (!venue) return <BackToVenue />;
  const value = progress.event === "new" ? NEW_EVENT : progress.event === "existing" ? (progress.matchedId ?? "") : "";
  const choose = (v: string) => {
    if (v === NEW_EVENT) dispatch({ type: "chooseEvent", choice: { kind: "new" } });
    else {
      const item = events?.find((e) => e._id === v);
      if (item) dispatch({ type: "chooseEvent", choice: { kind: "existing", id: item._id, title: item.title } });
    }
  };
  const next = () => {
    if (progress.event === "new") void navigate(paths.onboarding("venue-details"));
    else if (progress.event === "existing" && progress.matchedId) void navigate(paths.onboarding("details"));
    else
      toast.error(TOASTS.makeSelection.title, {
        description: TOASTS.makeSelection.description,
        id: "onboarding-event",
      });
  };
  return (
    <OnboardingShell step={3}>
      <Flex direction="column" gap="4">
        <StepHeading lead={`Mics and shows at ${venue.venueName}.`}>Which event do you do there?</StepHeading>
        {events === null ? (
          <LoadingState variant="skeleton" rows={2} label="Loading events at this venue…" />
        ) : (
          <>
            <Text id={labelId} size="2" weight="medium">
              {events.length > 0
                ? "Pick your event, or add a new one"
                : failed
                  ? "Add the event yourself"
                  : "No events here yet. Add the first one!"}
            </Text>
            <RadioCards.Root aria-labelledby={labelId} columns="1" value={value} onValueChange={choose}>
              {events.map((item) => (
                <RadioCards.Item key={item._id} value={item._id}>
                  <Flex direction="column" width="100%">
                    <Text weight="bold">{item.title}</Text>
                    <Text size="1" color="gray">
                      {[item.type === "open_mic" ? "Open mic" : "Show", whenLine(item)].filter(Boolean).join(" · ")}
                    </Text>
                  </Flex>
                </RadioCards.Item>
              ))}
              <RadioCards.Item value={NEW_EVENT}>
                <Flex direction="column" width="100%">
                  <Text weight="bold">Add a new event</Text>
                  <Text size="1" color="gray">
                    Not listed? Add it to the scene.
                  </Text>
                </Flex>
              </RadioCards.Item>
            </RadioCards.Root>
          </>
        )}
        <NextButton onClick={next} />
      </Flex>
    </OnboardingShell>
  );
}

/** Maps a failed call to the onboarding toasts; true when it was handled. */
function toastSignIn(err: unknown): boolean {
  if (errorCode(err) !== "NOT_SIGNED_IN") return false;
  toast.error(TOASTS.signIn.title, { description: TOASTS.signIn.description, id: "onboarding-sign-in" });
  return true;
}

/** Step 4: the length of the set at the chosen mic; Next logs it and favourites the mic. */
export function SetLengthStep() {
  const { progress, dispatch } = useOnboardingProgress();
  const navigate = useNavigate();
  const logFirstSet = useMutation(api.onboarding.logFirstSet);
  const [saving, setSaving] = useState(false);
  if (!progress.venue) return <BackToVenue />;
  if (progress.event !== "existing" || !progress.matchedId) return <Navigate to={paths.onboarding("event")} replace />;
  const venue = progress.venue;
  const sceneItemId = progress.matchedId as Id<"sceneItems">;
  const minutes = progress.setDetails.minutes;

  const next = async () => {
    // Back then Next again must not log the same first set twice.
    if (alreadyFavorited(progress, sceneItemId)) {
      void navigate(paths.onboarding("success"));
      return;
    }
    setSaving(true);
    try {
      // One transaction: the set and the favourite are saved together or not at all.
      await logFirstSet({ sceneItemId, minutes, performedAt: Date.now(), timeZone: browserZone() });
    } catch (err) {
      setSaving(false);
      if (toastSignIn(err)) return;
      if (err instanceof ConvexError)
        toast.error("Could not save", { description: errorMessage(err, "Please check your inputs and try again.") });
      else toast.error(TOASTS.favorite.title, { description: TOASTS.favorite.description });
      return;
    }
    dispatch({ type: "saved", kind: "favorite", entry: { venue, event: sceneItemId, details: null, sceneItemId } });
    void navigate(paths.onboarding("success"));
  };

  return (
    <OnboardingShell step={4}>
      <Flex direction="column" gap="5">
        <StepHeading
          lead={`We'll log this set at ${progress.matchedTitle ?? venue.venueName} and add it to your favorites.`}
        >
          How long was your set?
        </StepHeading>
        <Flex direction="column" gap="3" align="center">
          <Text size="8" weight="bold" aria-live="polite">
            {minutes} {minutes === 1 ? "minute" : "minutes"}
          </Text>
          <NamedSlider
            label="Set length (minutes)"
            valueText={`${minutes} minutes`}
            min={SET_MINUTES.min}
            max={SET_MINUTES.max}
            step={SET_MINUTES.step}
            value={minutes}
            onChange={(v) => dispatch({ type: "setMinutes", minutes: v })}
          />
          <Flex justify="between" width="100%">
            <Text size="1" color="gray">
              {SET_MINUTES.min} min
            </Text>
            <Text size="1" color="gray">
              {SET_MINUTES.max} min
            </Text>
          </Flex>
        </Flex>
        <NextButton onClick={() => void next()} loading={saving} />
      </Flex>
    </OnboardingShell>
  );
}

/** What the route passes to the event details form. */
export type EventFormSlotProps = {
  venueName: string;
  defaultStartTime: string;
  today: string;
  allowOneTime: boolean;
  initialValues: Record<string, unknown> | undefined;
  submitLabel: string;
  onSubmit: (details: EventDetails) => Promise<void>;
  onDraftChange: (values: Record<string, unknown>) => void;
  /** Whether Next is disabled for the form's current values. */
  submitDisabled: (values: Record<string, unknown>) => boolean;
};

/** Step 5: a new mic or show at the venue; Next creates it in the scene. */
export function VenueDetailsStep({ renderEventForm }: { renderEventForm: (props: EventFormSlotProps) => ReactNode }) {
  const { progress, dispatch } = useOnboardingProgress();
  const navigate = useNavigate();
  const createEvent = useMutation(api.events.create);
  const [today] = useState(() => localDateString(Date.now(), browserZone()));
  if (!progress.venue) return <BackToVenue />;
  const venue = progress.venue;

  const onSubmit = async (details: EventDetails) => {
    try {
      const { sceneItemId } = await createEvent({ venue, details });
      dispatch({ type: "saved", kind: "venue", entry: { venue, event: "new", details, sceneItemId } });
    } catch (err) {
      if (toastSignIn(err)) return;
      if (err instanceof ConvexError) {
        // The server refused the details (a duplicate, a bad link): the comedian can fix them here.
        toast.error("Could not save event", {
          description: errorMessage(err, "Please check your inputs and try again."),
        });
        return;
      }
      // A lost connection or a server fault: keep going and retry at completion.
      console.error("Error saving venue", err);
      toast.error(TOASTS.saveVenue.title, {
        description: TOASTS.saveVenue.description,
        duration: TOASTS.saveVenue.duration,
      });
      dispatch({
        type: "saved",
        kind: "venue",
        entry: { venue, event: "new", details, sceneItemId: null, saveError: errorMessage(err, "Could not save") },
      });
    }
    void navigate(paths.onboarding("success"));
  };

  return (
    <OnboardingShell step={5} backTo="event">
      {renderEventForm({
        venueName: venue.venueName,
        defaultStartTime: "20:00",
        today,
        // Onboarding mics always go to the scene list, where one-time events do not belong.
        allowOneTime: false,
        initialValues: progress.newVenueDetails ?? undefined,
        submitLabel: "Next",
        onSubmit,
        onDraftChange: (draft) => dispatch({ type: "setDraft", draft }),
        submitDisabled: detailsIncomplete,
      })}
    </OnboardingShell>
  );
}

/** Step 6: 'Favorite Added!' or 'Venue Added!'. */
export function SuccessStep() {
  const { progress } = useOnboardingProgress();
  const navigate = useNavigate();
  const last = progress.addedVenues.at(-1);
  if (!last || progress.lastSaved === null) return <Navigate to={paths.onboarding("event")} replace />;
  const favorite = progress.lastSaved === "favorite";
  return (
    <OnboardingShell step={6} backTo={favorite ? "details" : "venue-details"}>
      <Flex direction="column" gap="4" align="center" style={{ textAlign: "center" }}>
        <Text color="green" size="8" aria-hidden="true">
          {favorite ? <StarFilledIcon width="40" height="40" /> : <CheckCircledIcon width="40" height="40" />}
        </Text>
        <Heading as="h1" size="7">
          {favorite ? "Favorite Added!" : "Venue Added!"}
        </Heading>
        <Text as="p" color="gray">
          {favorite
            ? `Your ${progress.setDetails.minutes}-minute set is logged and ${progress.matchedTitle ?? last.venue.venueName} is in your favorites.`
            : last.saveError
              ? `We'll finish saving your event at ${last.venue.venueName} when you complete setup.`
              : `Your event at ${last.venue.venueName} is on the scene and in your schedule.`}
        </Text>
        <Button size="3" onClick={() => void navigate(paths.onboarding("checkin-info"))}>
          Next
        </Button>
      </Flex>
    </OnboardingShell>
  );
}

/** Step 7: the check-in pro tip (part 2 §9). */
export function CheckInInfoStep() {
  const navigate = useNavigate();
  return (
    <OnboardingShell step={7}>
      <Flex direction="column" gap="4">
        <StepHeading>Check in at your mics</StepHeading>
        <Callout.Root color="amber" size="2">
          <Callout.Icon>
            <LightningBoltIcon />
          </Callout.Icon>
          <Flex direction="column" gap="2">
            <Text weight="bold">Pro tip</Text>
            <Callout.Text>
              Check in when you get to a mic. Check-ins are open from 30 minutes before to 2 hours after show time.
            </Callout.Text>
            <Callout.Text>
              When 2 or more comedians check in, the mic earns a <Badge color="green">Verified</Badge> badge for 30
              days, so everyone knows it's really running.
            </Callout.Text>
          </Flex>
        </Callout.Root>
        <NextButton onClick={() => void navigate(paths.onboarding("add-another"))} />
      </Flex>
    </OnboardingShell>
  );
}

/** Step 8: another venue (back to step 2 with a clean selection) or on to the goal. */
export function AddAnotherStep() {
  const { progress, dispatch } = useOnboardingProgress();
  const navigate = useNavigate();
  const saved = progress.addedVenues.length;
  return (
    <OnboardingShell step={8}>
      <Flex direction="column" gap="4" align="center" style={{ textAlign: "center" }}>
        <Heading as="h1" size="7">
          Add another venue?
        </Heading>
        <Text as="p" color="gray">
          {saved > 0
            ? `You've saved ${saved} ${saved === 1 ? "mic" : "mics"} so far. Most comedians hit a few rooms a week.`
            : "Most comedians hit a few rooms a week."}
        </Text>
        <Flex gap="3" direction={{ initial: "column", xs: "row" }}>
          <Button
            size="3"
            variant="soft"
            onClick={() => {
              dispatch({ type: "wantsAnother", yes: true });
              void navigate(paths.onboarding("venue"));
            }}
          >
            Yes, add another
          </Button>
          <Button
            size="3"
            onClick={() => {
              dispatch({ type: "wantsAnother", yes: false });
              void navigate(paths.onboarding("goal-setting"));
            }}
          >
            No, continue
          </Button>
        </Flex>
      </Flex>
    </OnboardingShell>
  );
}

/** Step 9: the weekly stage-time goal. */
export function GoalStep() {
  const { progress, dispatch } = useOnboardingProgress();
  const navigate = useNavigate();
  const goal = progress.weeklyGoal;
  return (
    <OnboardingShell step={9}>
      <Flex direction="column" gap="5">
        <StepHeading lead="How many minutes of stage time do you want each week? You can change it any time.">
          Set your weekly goal
        </StepHeading>
        <Flex direction="column" gap="3" align="center">
          <Text size="8" weight="bold" aria-live="polite">
            {goal} {goal === 1 ? "minute" : "minutes"}
          </Text>
          <Text size="2" color="violet" align="center">
            {goalLabel(goal)}
          </Text>
          <NamedSlider
            label="Weekly goal (minutes)"
            valueText={`${goal} minutes`}
            min={0}
            max={GOAL_MINUTES.max}
            step={GOAL_MINUTES.step}
            value={sliderFromGoal(goal)}
            onChange={(v) => dispatch({ type: "setGoal", minutes: goalFromSlider(v) })}
          />
          <Flex justify="between" width="100%">
            <Text size="1" color="gray">
              {GOAL_MINUTES.min} min
            </Text>
            <Text size="1" color="gray">
              {GOAL_MINUTES.max} min
            </Text>
          </Flex>
        </Flex>
        <NextButton onClick={() => void navigate(paths.onboarding("complete"))} />
      </Flex>
    </OnboardingShell>
  );
}

/** Step 10: 'You're all set!' with 'Let's Go' and 'Skip to Dashboard'. */
export function CompleteStep() {
  const { progress } = useOnboardingProgress();
  const { complete, skip, pending } = useFinishOnboarding();
  const sets = progress.addedVenues.filter((e) => e.event !== "new").length;
  const mics = progress.addedVenues.filter((e) => e.event === "new").length;
  return (
    <OnboardingShell step={10} hideSkip>
      <Flex direction="column" gap="4" align="center" style={{ textAlign: "center" }}>
        <Heading as="h1" size="7">
          You're all set!
        </Heading>
        <Card variant="surface" style={{ width: "100%" }}>
          <Flex direction="column" gap="1" align="start">
            <Text size="2">Weekly goal: {progress.weeklyGoal} minutes</Text>
            {sets > 0 ? (
              <Text size="2">First set logged and {sets === 1 ? "1 favorite" : `${sets} favorites`} saved</Text>
            ) : null}
            {mics > 0 ? (
              <Text size="2">{mics === 1 ? "1 new event" : `${mics} new events`} added to the scene</Text>
            ) : null}
          </Flex>
        </Card>
        <Text as="p" color="gray">
          Your logbook is ready. Time to get up on stage.
        </Text>
        <Flex gap="3" direction={{ initial: "column", xs: "row" }}>
          <Button size="3" loading={pending} onClick={() => void complete(progress.weeklyGoal)}>
            Let's Go
          </Button>
          <Button size="3" variant="soft" disabled={pending} onClick={() => void skip()}>
            Skip to Dashboard
          </Button>
        </Flex>
      </Flex>
    </OnboardingShell>
  );
}
