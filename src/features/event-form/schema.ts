import { z } from "zod";
import {
  INVALID_CUSTOM_RECURRENCE,
  monthlyRuleText,
  parseCustomRecurrence,
  type Recurrence,
} from "@convex/lib/recurrence";
import { addDaysToDate, dayOfWeekOfDate, minusMinutesHHMM, parseHHMM } from "@convex/lib/time";
import { MAX_COVER_AMOUNT, MAX_MINIMUM_ITEMS, MIC_LIMITS } from "@convex/lib/micRules";
import { micFieldsSchema } from "@/lib/micSchema";
import type { CostInfo, EventDetails } from "./types";

export type EventType = EventDetails["type"];
export type CostType = CostInfo["type"];

/** Cost options of an open mic, in the order the form shows them. */
export const COST_OPTIONS: ReadonlyArray<{ value: CostType; label: string }> = [
  { value: "free", label: "Free" },
  { value: "cover", label: "Mic Fee" },
  { value: "minimum", label: "Drink Minimum" },
  { value: "combo", label: "Mic Fee + Minimum" },
];

export const DEFAULT_COVER_AMOUNT = 5;
export const DEFAULT_MINIMUM_ITEMS = 1;
/** Minutes before the start that the list goes up for an in-person sign-up. */
export const LIST_TIME_LEAD_MINUTES = 30;
export const MAX_TITLE_LENGTH = MIC_LIMITS.title;

/** Defaults that a change of type resets. */
export function typeDefaults(type: EventType): { recurrence: Recurrence; performanceMinutes: number } {
  return type === "open_mic"
    ? { recurrence: "weekly", performanceMinutes: 5 }
    : { recurrence: "monthly", performanceMinutes: 10 };
}

/** 'Open Mic at The Stand' / 'Show at The Stand'. */
export function defaultTitle(type: EventType, venueName: string): string {
  return `${type === "open_mic" ? "Open Mic" : "Show"} at ${venueName}`.trim();
}

/**
 * The list time after the start time changed: it follows start − 30 minutes
 * (wrapping at midnight) until the comedian edits it by hand.
 */
export function followListTime(startTime: string, currentListTime: string, editedByHand: boolean): string {
  if (editedByHand || !parseHHMM(startTime)) return currentListTime;
  return minusMinutesHHMM(startTime, LIST_TIME_LEAD_MINUTES);
}

/** The first date on or after `today` (YYYY-MM-DD) that falls on `dayOfWeek`. */
export function nextDateOnDay(today: string, dayOfWeek: number): string {
  return addDaysToDate(today, (dayOfWeek - dayOfWeekOfDate(today) + 7) % 7);
}

/** A number typed into an input, or `fallback` for an empty or non-numeric value. */
function numberOr(fallback: number) {
  return (value: unknown): number => {
    if (typeof value === "number") return Number.isFinite(value) ? value : fallback;
    if (typeof value === "string" && value.trim() !== "") {
      const n = Number(value);
      return Number.isFinite(n) ? n : fallback;
    }
    return fallback;
  };
}

/** Adds https:// when the comedian typed a bare host ("instagram.com/mic"). */
export function normalizeUrl(value: string): string {
  const trimmed = value.trim();
  if (trimmed === "") return "";
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
}

export function isValidUrl(value: string): boolean {
  const normalized = normalizeUrl(value);
  if (normalized === "") return true;
  try {
    const url = new URL(normalized);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.includes(".");
  } catch {
    return false;
  }
}

export const INVALID_URL_MESSAGE = "Please enter a valid link (for example https://example.com)";
export const TITLE_REQUIRED_MESSAGE = "Please enter an event name";
export const PERFORMANCE_MINUTES_MESSAGE = "Set length must be 1 to 60 minutes";
export const COVER_AMOUNT_MESSAGE = "Mic fee can't be negative";
export const MINIMUM_ITEMS_MESSAGE = "Minimum items must be a whole number of at least 1";
export const CUSTOM_REQUIRED_MESSAGE = "Describe the schedule";

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Choose a time");

/**
 * The event details form. It mirrors the server's `EventDetails` validator;
 * number inputs: a non-number fee is 0, a non-number or 0
 * minimum is 1, an empty or invalid set length is 5.
 */
export const eventFormSchema = micFieldsSchema
  .pick({ signupLink: true, showLink: true, customRecurrenceDescription: true, hostName: true })
  .extend({
    type: z.enum(["open_mic", "show"]),
    title: z
      .string()
      .trim()
      .min(1, TITLE_REQUIRED_MESSAGE)
      .max(MAX_TITLE_LENGTH, `Keep the name under ${MAX_TITLE_LENGTH} characters`),
    dayOfWeek: z.coerce.number().int().min(0).max(6),
    startTimeLocal: hhmm,
    signupMethod: z.enum(["in_person", "online"]),
    listTimeLocal: z.string(),
    listTimeEdited: z.boolean(),
    /** Ticked by the comedian where a form asks them to confirm the day and time (see ConfirmSchedule). */
    scheduleConfirmed: z.boolean().optional(),
    costType: z.enum(["free", "cover", "minimum", "combo"]),
    coverAmount: z.preprocess(
      numberOr(0),
      z.number().min(0, COVER_AMOUNT_MESSAGE).max(MAX_COVER_AMOUNT, `Mic fee must be at most ${MAX_COVER_AMOUNT}`),
    ),
    minimumItems: z.preprocess(
      (v) => {
        const n = numberOr(DEFAULT_MINIMUM_ITEMS)(v);
        return n === 0 ? DEFAULT_MINIMUM_ITEMS : n;
      },
      z
        .number()
        .int(MINIMUM_ITEMS_MESSAGE)
        .min(1, MINIMUM_ITEMS_MESSAGE)
        .max(MAX_MINIMUM_ITEMS, `Minimum items must be at most ${MAX_MINIMUM_ITEMS}`),
    ),
    recurrence: z.enum(["weekly", "bi-weekly", "monthly", "one-time", "custom"]),
    monthlyMode: z.enum(["weekday", "date"]),
    performanceMinutes: z.preprocess(
      numberOr(5),
      z
        .number()
        .int(PERFORMANCE_MINUTES_MESSAGE)
        .min(1, PERFORMANCE_MINUTES_MESSAGE)
        .max(60, PERFORMANCE_MINUTES_MESSAGE),
    ),
  })
  .superRefine((values, ctx) => {
    if (values.type === "open_mic" && values.signupMethod === "online" && !isValidUrl(values.signupLink)) {
      ctx.addIssue({ code: "custom", path: ["signupLink"], message: INVALID_URL_MESSAGE });
    }
    if (
      values.type === "open_mic" &&
      values.signupMethod === "in_person" &&
      !hhmm.safeParse(values.listTimeLocal).success
    ) {
      ctx.addIssue({ code: "custom", path: ["listTimeLocal"], message: "Choose a list time" });
    }
    if (values.type === "show" && !isValidUrl(values.showLink)) {
      ctx.addIssue({ code: "custom", path: ["showLink"], message: INVALID_URL_MESSAGE });
    }
    if (values.recurrence === "custom") {
      if (values.customRecurrenceDescription === "") {
        ctx.addIssue({ code: "custom", path: ["customRecurrenceDescription"], message: CUSTOM_REQUIRED_MESSAGE });
      } else if (parseCustomRecurrence(values.customRecurrenceDescription) === null) {
        ctx.addIssue({
          code: "custom",
          path: ["customRecurrenceDescription"],
          message: `${INVALID_CUSTOM_RECURRENCE.title}. ${INVALID_CUSTOM_RECURRENCE.description}`,
        });
      }
    }
    if (values.recurrence === "one-time" && values.type !== "show") {
      ctx.addIssue({ code: "custom", path: ["recurrence"], message: "One-time is for shows only" });
    }
  });

export type EventFormInput = z.input<typeof eventFormSchema>;
export type EventFormValues = z.output<typeof eventFormSchema>;

/** Initial values of the form: today's weekday, the given start time, mic defaults. */
export function defaultEventFormValues(options: {
  venueName: string;
  startTime: string;
  today: string;
  type?: EventType;
}): EventFormValues {
  const type = options.type ?? "open_mic";
  const { recurrence, performanceMinutes } = typeDefaults(type);
  return {
    type,
    title: defaultTitle(type, options.venueName),
    dayOfWeek: dayOfWeekOfDate(options.today),
    startTimeLocal: options.startTime,
    signupMethod: "in_person",
    listTimeLocal: minusMinutesHHMM(options.startTime, LIST_TIME_LEAD_MINUTES),
    listTimeEdited: false,
    signupLink: "",
    costType: "free",
    coverAmount: DEFAULT_COVER_AMOUNT,
    minimumItems: DEFAULT_MINIMUM_ITEMS,
    showLink: "",
    recurrence,
    customRecurrenceDescription: "",
    monthlyMode: "weekday",
    performanceMinutes,
    hostName: "",
  };
}

/** The monthly rule text for the next date on the chosen day. */
export function monthlyRuleFor(values: Pick<EventFormValues, "dayOfWeek" | "monthlyMode">, today: string): string {
  return monthlyRuleText(nextDateOnDay(today, values.dayOfWeek), values.monthlyMode);
}

/**
 * The payload: only the fields that apply. Show link only when
 * given; sign-up link only for online open mics; list time only for in-person
 * open mics; host only when given; custom description only for custom; cost
 * only for open mics; the monthly rule only for monthly.
 */
export function buildEventDetails(values: EventFormValues, today: string): EventDetails {
  const isMic = values.type === "open_mic";
  const details: EventDetails = {
    type: values.type,
    title: values.title.trim(),
    dayOfWeek: values.dayOfWeek,
    startTimeLocal: values.startTimeLocal,
    recurrence: values.recurrence,
    performanceMinutes: values.performanceMinutes,
    anchorDate: nextDateOnDay(today, values.dayOfWeek),
  };
  if (values.recurrence === "custom") details.customRecurrenceDescription = values.customRecurrenceDescription.trim();
  if (values.recurrence === "monthly") details.monthlyRule = monthlyRuleFor(values, today);
  if (values.hostName.trim() !== "") details.hostName = values.hostName.trim();
  if (isMic) {
    details.signupMethod = values.signupMethod;
    if (values.signupMethod === "in_person") details.listTimeLocal = values.listTimeLocal;
    if (values.signupMethod === "online" && values.signupLink.trim() !== "") {
      details.signupLink = normalizeUrl(values.signupLink);
    }
    details.costInfo = costInfoOf(values);
  } else if (values.showLink.trim() !== "") {
    details.showLink = normalizeUrl(values.showLink);
  }
  return details;
}

function costInfoOf(values: Pick<EventFormValues, "costType" | "coverAmount" | "minimumItems">): CostInfo {
  switch (values.costType) {
    case "free":
      return { type: "free" };
    case "cover":
      return { type: "cover", coverAmount: values.coverAmount };
    case "minimum":
      return { type: "minimum", minimumItems: values.minimumItems };
    case "combo":
      return { type: "combo", coverAmount: values.coverAmount, minimumItems: values.minimumItems };
  }
}
