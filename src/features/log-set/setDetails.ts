import { z } from "zod";
import { QUARTER_HOUR_SLOTS, localDateString, roundToQuarterHour, zonedEpoch } from "@convex/lib/time";
import { setMinutesField, setNotesField, setTagField } from "@/lib/setFields";
import { MAX_TAGS } from "./tags";

export const DEFAULT_SET_MINUTES = 5;
export const FUTURE_DATE_MESSAGE = "Set date cannot be in the future";
export const FUTURE_TIME_MESSAGE = "Set time cannot be in the future";
/** A set a little later than now is still today's set (the time picker rounds to 15 minutes). */
const FUTURE_SLACK_MS = 15 * 60_000;

/** The set details a comedian enters (kept in the wizard between steps). */
export type SetDraft = { minutes: number; date: string; time: string; notes: string; tags: string[] };

/**
 * Defaults: 5 minutes, and the mic's last show (`showMs`, its latest start so
 * far) when known, else today at now rounded to 15 minutes.
 */
export function defaultSetDraft(nowMs: number, timeZone: string, showMs?: number | null): SetDraft {
  if (showMs != null && showMs <= nowMs) {
    const date = localDateString(showMs, timeZone);
    return { minutes: DEFAULT_SET_MINUTES, date, time: roundToQuarterHour(showMs, timeZone), notes: "", tags: [] };
  }
  const rounded = roundToQuarterHour(nowMs, timeZone);
  // 23:53 rounds to 00:00, which would date the set this morning: keep it tonight.
  const roundsIntoTomorrow = localDateString(nowMs + 8 * 60_000, timeZone) !== localDateString(nowMs, timeZone);
  const time = rounded === "00:00" && roundsIntoTomorrow ? "23:45" : rounded;
  return {
    minutes: DEFAULT_SET_MINUTES,
    date: localDateString(nowMs, timeZone),
    time,
    notes: "",
    tags: [],
  };
}

/** The set details form's schema; `today` is the comedian's local date. */
export function setDetailsSchema(today: string) {
  return z.object({
    minutes: setMinutesField,
    date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, "Choose a date")
      .refine((d) => d <= today, FUTURE_DATE_MESSAGE),
    time: z.string().refine((t) => QUARTER_HOUR_SLOTS.includes(t), "Choose a time"),
    notes: setNotesField,
    tags: z.array(setTagField).max(MAX_TAGS),
  });
}

/**
 * Epoch ms of the set from its local date and time. A time up to 15 minutes
 * ahead (the rounded default) becomes now; anything later is refused.
 */
export function performedAtOf(
  draft: Pick<SetDraft, "date" | "time">,
  nowMs: number,
  timeZone: string,
): number | { error: string } {
  const at = zonedEpoch(draft.date, draft.time, timeZone);
  if (at <= nowMs) return at;
  if (at - nowMs <= FUTURE_SLACK_MS) return nowMs;
  return { error: FUTURE_TIME_MESSAGE };
}

/** The arguments of api.performances.log shared by both save paths. */
export function setPayload(draft: SetDraft, performedAt: number, timeZone: string) {
  const notes = draft.notes.trim();
  return {
    minutes: draft.minutes,
    performedAt,
    tags: draft.tags,
    timeZone,
    ...(notes ? { notes } : {}),
  };
}
