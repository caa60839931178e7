import { ArrowLeftIcon } from "@radix-ui/react-icons";
import { Button, Card, Checkbox, Flex, RadioCards, Select, Text, TextArea, TextField } from "@radix-ui/themes";
import { useMutation, useQuery } from "convex/react";
import { useEffect, useId, useMemo, useState, type ReactNode } from "react";
import { Controller } from "react-hook-form";
import { Navigate, useNavigate } from "react-router-dom";
import { toast } from "sonner";
import { LoadingState } from "@/components/LoadingState";
import { Form, FormSubmit } from "@/components/form";
import { weeklySlotText } from "@/lib/format";
import { paths } from "@/lib/paths";
import type { EventFormSlotProps, VenueSearchSlot } from "@/lib/wizardSlots";
import { viewerTimeZone } from "@/lib/timeZone";
import { api } from "../../../convex/_generated/api";
import type { EventDetails } from "../../../convex/model/events";
import { QUARTER_HOUR_SLOTS, formatTime12h, localDateString } from "../../../convex/lib/time";
import { initialEventChoice, mergeMatches } from "./eventChoice";
import { announceBadges, saveErrorToast } from "./saveErrors";
import { defaultSetDraft, performedAtOf, setDetailsSchema, setPayload, type SetDraft } from "./setDetails";
import { TagInput } from "./TagInput";
import { WizardFrame } from "@/components/WizardFrame";
import { useLogSetWizard } from "./wizardStore";

const TOTAL_STEPS = 4;
export const MISSING_VENUE = { title: "Missing info", description: "Please select a venue first." } as const;
export const SELECT_EVENT_MESSAGE = "Select an event option";

/** Sends the comedian back to the venue step with 'Missing info: Please select a venue first.' */
function MissingVenue() {
  useEffect(() => {
    toast.error(MISSING_VENUE.title, { description: MISSING_VENUE.description, id: "log-set-missing-venue" });
  }, []);
  return <Navigate to={paths.logSet} replace />;
}

/** Step 1: 'Where did you perform?' */
export function LogSetVenueStep({ renderVenueSearch }: { renderVenueSearch: VenueSearchSlot }) {
  const { venue, setVenue } = useLogSetWizard();
  const navigate = useNavigate();
  return (
    <WizardFrame step={1} total={TOTAL_STEPS} title="Where did you perform?">
      {renderVenueSearch(venue, setVenue)}
      {venue ? (
        <Button size="4" onClick={() => void navigate(paths.logSetStep("event"))}>
          Continue
        </Button>
      ) : null}
    </WizardFrame>
  );
}

function scheduleLine(item: { dayOfWeek?: number | null; startTimeLocal?: string; venueName: string }): string {
  return [item.venueName, weeklySlotText(item)].filter(Boolean).join(" · ");
}

/** Step 2: 'What event did you perform at?' */
export function LogSetEventStep() {
  const { venue, event, setEvent } = useLogSetWizard();
  const navigate = useNavigate();
  const atVenue = useQuery(
    api.venues.eventsAt,
    venue ? { venueName: venue.venueName, googlePlaceId: venue.googlePlaceId } : "skip",
  );
  const similar = useQuery(api.venues.similar, venue ? { venueName: venue.venueName } : "skip");
  const matches = useMemo(() => (atVenue && similar ? mergeMatches(atVenue, similar) : undefined), [atVenue, similar]);

  // Preselect once the matches arrive, unless the comedian already chose.
  useEffect(() => {
    if (matches && event === null) {
      const initial = initialEventChoice(matches);
      if (initial) setEvent(initial);
    }
  }, [matches, event, setEvent]);

  if (!venue) return <MissingVenue />;
  const value = event === null ? "" : event.kind === "none" ? "none" : event.sceneItemId;
  return (
    <WizardFrame step={2} total={TOTAL_STEPS} title="What event did you perform at?" subtitle={venue.venueName}>
      {matches === undefined ? (
        <LoadingState variant="skeleton" rows={2} label="Loading events at this venue" />
      ) : (
        <RadioCards.Root
          aria-label="What event did you perform at?"
          columns="1"
          size="3"
          value={value}
          onValueChange={(v) => {
            if (v === "none") setEvent({ kind: "none" });
            else {
              const item = matches.find((m) => m._id === v);
              if (item) setEvent({ kind: "existing", sceneItemId: item._id, title: item.title });
            }
          }}
        >
          {matches.map((item) => (
            <RadioCards.Item key={item._id} value={item._id}>
              <Flex direction="column" width="100%">
                <Text weight="bold">{item.title}</Text>
                <Text size="2" color="gray">
                  {scheduleLine(item)}
                </Text>
              </Flex>
            </RadioCards.Item>
          ))}
          <RadioCards.Item value="none">
            <Flex direction="column" width="100%">
              <Text weight="bold">New event / not listed</Text>
              <Text size="2" color="gray">
                Add the mic or show details next
              </Text>
            </Flex>
          </RadioCards.Item>
        </RadioCards.Root>
      )}
      {event === null ? (
        <Text size="2" color="gray" role="status">
          {SELECT_EVENT_MESSAGE}
        </Text>
      ) : null}
      <Flex justify="between" gap="3">
        <Button variant="soft" color="gray" size="4" onClick={() => void navigate(paths.logSet)}>
          <ArrowLeftIcon aria-hidden="true" /> Back
        </Button>
        <Button size="4" disabled={event === null} onClick={() => void navigate(paths.logSetStep("details"))}>
          Continue
        </Button>
      </Flex>
    </WizardFrame>
  );
}

/** Step 3: the set itself (minutes, date and time, notes, tags). */
export function LogSetDetailsStep() {
  const { venue, event, set, setSet, finish, result } = useLogSetWizard();
  const navigate = useNavigate();
  const log = useMutation(api.performances.log);
  const ids = { minutes: useId(), date: useId(), time: useId(), notes: useId() };
  const [zone] = useState(viewerTimeZone);
  const [now] = useState(() => Date.now());
  const today = localDateString(now, zone);
  const schema = useMemo(() => setDetailsSchema(today), [today]);
  const defaults = useMemo(() => set ?? defaultSetDraft(now, zone), [set, now, zone]);

  if (!venue) return result ? <Navigate to={paths.logSetStep("success")} replace /> : <MissingVenue />;
  if (!event) return <Navigate to={paths.logSetStep("venue")} replace />;

  const submit = async (draft: SetDraft) => {
    const performedAt = performedAtOf(draft, Date.now(), zone);
    if (typeof performedAt !== "number") {
      toast.error("Could not save", { description: performedAt.error });
      return;
    }
    if (event.kind === "none") {
      setSet(draft);
      void navigate(paths.logSetStep("venue-details"));
      return;
    }
    try {
      const saved = await log({ ...setPayload(draft, performedAt, zone), sceneItemId: event.sceneItemId });
      void navigate(paths.logSetStep("success"));
      finish({ totalMinutes: saved.totalMinutes, minutes: draft.minutes, venueName: venue.venueName });
      announceBadges(saved.newBadges);
    } catch (err) {
      const t = saveErrorToast(err);
      toast.error(t.title, { description: t.description });
    }
  };

  return (
    <WizardFrame
      step={3}
      total={TOTAL_STEPS}
      title="Set details"
      subtitle={event.kind === "existing" ? `${event.title} · ${venue.venueName}` : venue.venueName}
    >
      <Form schema={schema} defaultValues={defaults} aria-label="Set details" gap="4" onSubmit={submit}>
        {({ register, control, formState: { errors } }) => (
          <>
            <Flex direction="column" gap="1">
              <Text as="label" htmlFor={ids.minutes} size="2" weight="medium">
                Minutes on stage
              </Text>
              <TextField.Root
                id={ids.minutes}
                size="3"
                type="number"
                inputMode="numeric"
                min={0}
                max={600}
                aria-invalid={errors.minutes ? true : undefined}
                {...register("minutes")}
              />
              {errors.minutes?.message ? (
                <Text size="1" color="red" role="alert">
                  {String(errors.minutes.message)}
                </Text>
              ) : null}
            </Flex>
            <Flex gap="3" wrap="wrap">
              <Flex direction="column" gap="1" flexGrow="1" minWidth="150px">
                <Text as="label" htmlFor={ids.date} size="2" weight="medium">
                  Date
                </Text>
                <TextField.Root
                  id={ids.date}
                  size="3"
                  type="date"
                  max={today}
                  aria-invalid={errors.date ? true : undefined}
                  {...register("date")}
                />
                {errors.date?.message ? (
                  <Text size="1" color="red" role="alert">
                    {String(errors.date.message)}
                  </Text>
                ) : null}
              </Flex>
              <Flex direction="column" gap="1" flexGrow="1" minWidth="150px">
                <Text as="label" htmlFor={ids.time} size="2" weight="medium">
                  Time
                </Text>
                <Controller
                  control={control}
                  name="time"
                  render={({ field }) => (
                    <Select.Root size="3" value={String(field.value)} onValueChange={field.onChange}>
                      <Select.Trigger id={ids.time} style={{ width: "100%" }} />
                      <Select.Content position="popper" style={{ maxHeight: "15rem" }}>
                        {QUARTER_HOUR_SLOTS.map((slot) => (
                          <Select.Item key={slot} value={slot}>
                            {formatTime12h(slot)}
                          </Select.Item>
                        ))}
                      </Select.Content>
                    </Select.Root>
                  )}
                />
              </Flex>
            </Flex>
            <Flex direction="column" gap="1">
              <Text as="label" htmlFor={ids.notes} size="2" weight="medium">
                Notes
              </Text>
              <TextArea id={ids.notes} size="3" placeholder="What worked, what didn't?" {...register("notes")} />
            </Flex>
            <Controller
              control={control}
              name="tags"
              render={({ field }) => <TagInput value={field.value as string[]} onChange={field.onChange} />}
            />
            <Flex justify="between" gap="3">
              <Button
                type="button"
                variant="soft"
                color="gray"
                size="4"
                onClick={() => void navigate(paths.logSetStep("event"))}
              >
                <ArrowLeftIcon aria-hidden="true" /> Back
              </Button>
              <FormSubmit size="4">{event.kind === "existing" ? "Save Set" : "Continue"}</FormSubmit>
            </Flex>
          </>
        )}
      </Form>
    </WizardFrame>
  );
}

/** Step 4: 'Venue / Mic Details' when the set was at a mic the scene does not list yet. */
export function LogSetVenueDetailsStep({
  renderEventForm,
}: {
  renderEventForm: (props: EventFormSlotProps) => ReactNode;
}) {
  const { venue, event, set, finish, result } = useLogSetWizard();
  const navigate = useNavigate();
  const logWithNewMic = useMutation(api.performances.logWithNewMic);
  const [alsoAddToScene, setAlsoAddToScene] = useState(true);
  const checkboxId = useId();
  const [zone] = useState(viewerTimeZone);
  const today = localDateString(Date.now(), zone);

  if (!venue) return result ? <Navigate to={paths.logSetStep("success")} replace /> : <MissingVenue />;
  if (!event) return <Navigate to={paths.logSetStep("venue")} replace />;
  if (event.kind === "existing" || !set) return <Navigate to={paths.logSetStep("details")} replace />;

  const onSubmit = async (details: EventDetails) => {
    const performedAt = performedAtOf(set, Date.now(), zone);
    if (typeof performedAt !== "number") {
      toast.error("Could not save", { description: performedAt.error });
      return;
    }
    try {
      const saved = await logWithNewMic({
        set: setPayload(set, performedAt, zone),
        venue,
        details,
        alsoAddToScene,
      });
      void navigate(paths.logSetStep("success"));
      finish({ totalMinutes: saved.totalMinutes, minutes: set.minutes, venueName: venue.venueName });
      announceBadges(saved.newBadges);
    } catch (err) {
      const t = saveErrorToast(err);
      toast.error(t.title, { description: t.description });
    }
  };

  return (
    <WizardFrame step={4} total={TOTAL_STEPS} title="Venue / Mic Details" subtitle={venue.venueName}>
      {renderEventForm({
        venueName: venue.venueName,
        defaultStartTime: "20:00",
        today,
        allowOneTime: true,
        submitLabel: "Save Set",
        onSubmit,
        secondaryAction: (
          <Button
            type="button"
            variant="soft"
            color="gray"
            size="4"
            onClick={() => void navigate(paths.logSetStep("details"))}
          >
            <ArrowLeftIcon aria-hidden="true" /> Back
          </Button>
        ),
        children: (
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
        ),
      })}
    </WizardFrame>
  );
}

/** After saving: 'Set logged!' with the comedian's total minutes. */
export function LogSetSuccessStep() {
  const { result, reset } = useLogSetWizard();
  const navigate = useNavigate();
  // Set while a button leaves the page, so the reset does not trigger the redirect below.
  const [leaving, setLeaving] = useState(false);
  if (!result) return leaving ? null : <Navigate to={paths.logSet} replace />;
  const go = (to: string) => {
    setLeaving(true);
    void navigate(to);
    reset();
  };
  return (
    <WizardFrame
      step={null}
      total={TOTAL_STEPS}
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
        <Button size="4" onClick={() => go(paths.logSet)}>
          Log Another Set
        </Button>
        <Button size="4" variant="soft" onClick={() => go(paths.dashboard)}>
          Back to Dashboard
        </Button>
      </Flex>
    </WizardFrame>
  );
}
