import { Flex, Select, Text, TextArea, TextField } from "@radix-ui/themes";
import { useMutation, useQuery } from "convex/react";
import { useId, useMemo, useState } from "react";
import { Controller } from "react-hook-form";
import { Form, FormSubmit } from "@/components/form";
import { LoadingState } from "@/components/LoadingState";
import { FieldCharacterCount } from "@/components/form/CharacterCount";
import { WizardBackButton, WizardFrame } from "@/components/WizardFrame";
import { api } from "@convex/_generated/api";
import { MAX_NOTES_LENGTH, MAX_SET_MINUTES, MIN_SET_MINUTES } from "@convex/lib/setRules";
import { lastOccurrence } from "@convex/lib/recurrence";
import { QUARTER_HOUR_SLOTS, formatTime12h, localDateString } from "@convex/lib/time";
import { defaultSetDraft, setDetailsSchema, type SetDraft } from "../setDetails";
import { TagInput } from "../TagInput";
import { useSaveSet } from "../useSaveSet";
import { LOG_SET_STEPS, useLogSetWizard } from "../wizardStore";
import { MissingVenue } from "./MissingVenue";
import { OfflineNotice } from "./OfflineMics";

/** Step 3: the set itself (minutes, date and time, notes, tags). */
export function LogSetDetailsStep() {
  const { venue, event, set, setSet, result, goTo, redirect } = useLogSetWizard();
  const mic = useQuery(api.scene.get, event?.kind === "existing" ? { id: event.sceneItemId } : "skip");
  const { zone, reachable, checkDate, save } = useSaveSet();
  const log = useMutation(api.performances.log);
  const ids = { minutes: useId(), date: useId(), time: useId(), notes: useId() };
  const [now] = useState(() => Date.now());
  const today = localDateString(now, zone);
  const schema = useMemo(() => setDetailsSchema(today), [today]);
  // A set at a listed mic starts at the mic's last show, not at the moment of logging.
  const lastShow = mic ? lastOccurrence(mic, now) : null;
  const defaults = useMemo(() => set ?? defaultSetDraft(now, zone, lastShow), [set, now, zone, lastShow]);

  if (!venue) return result ? redirect("success") : <MissingVenue />;
  if (!event) return redirect("venue");
  // Offline the mic cannot load: the form starts at now instead of its last show.
  if (event.kind === "existing" && mic === undefined && !set && reachable) {
    return <LoadingState label="Loading the mic" />;
  }

  const submit = async (draft: SetDraft) => {
    if (event.kind === "existing") {
      const sceneItemId = event.sceneItemId;
      await save(draft, {
        send: (payload, clientKey) => log({ ...payload, sceneItemId, clientKey }),
        later: { sceneItemId },
      });
    } else if (checkDate(draft) !== null) {
      setSet(draft);
      goTo("venue-details");
    }
  };

  return (
    <WizardFrame
      step={3}
      total={LOG_SET_STEPS}
      title="Set details"
      subtitle={event.kind === "existing" ? `${event.title} · ${venue.venueName}` : venue.venueName}
    >
      {!reachable && event.kind === "existing" ? <OfflineNotice /> : null}
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
                min={MIN_SET_MINUTES}
                max={MAX_SET_MINUTES}
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
              <TextArea
                id={ids.notes}
                size="3"
                placeholder="What worked, what didn't?"
                aria-invalid={errors.notes ? true : undefined}
                {...register("notes")}
              />
              <FieldCharacterCount name="notes" max={MAX_NOTES_LENGTH} />
              {errors.notes?.message ? (
                <Text size="1" color="red" role="alert">
                  {String(errors.notes.message)}
                </Text>
              ) : null}
            </Flex>
            <Controller
              control={control}
              name="tags"
              render={({ field }) => <TagInput value={field.value as string[]} onChange={field.onChange} />}
            />
            <Flex justify="between" gap="3">
              <WizardBackButton onClick={() => goTo("event")} />
              <FormSubmit size="4">{event.kind === "existing" ? "Save Set" : "Continue"}</FormSubmit>
            </Flex>
          </>
        )}
      </Form>
    </WizardFrame>
  );
}
