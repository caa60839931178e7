import { z } from "zod";
import { MIC_LIMITS } from "@convex/lib/micRules";
import { tooLongMessage } from "@convex/lib/textRules";
import { withoutControlCharacters } from "./textSchema";

/** A trimmed text field capped at the server's limit, without control characters, with the server's wording. */
function capped(label: string, max: number, multiline = false) {
  return withoutControlCharacters(z.string().trim().max(max, tooLongMessage(label, max)), label, { multiline });
}

/**
 * The text fields of a mic with the limits of `convex/lib/micRules.ts`: the
 * one base every mic form (add-event, admin edit, claimant edit, manual venue)
 * picks its fields from, so a limit is changed in one place.
 */
export const micFieldsSchema = z.object({
  title: capped("Title", MIC_LIMITS.title).min(1, "Title is required"),
  venueName: capped("Venue", MIC_LIMITS.venueName).min(1, "Venue is required"),
  city: capped("City", MIC_LIMITS.city),
  address: capped("Address", MIC_LIMITS.address),
  hostName: capped("Host name", MIC_LIMITS.hostName),
  notes: capped("Notes", MIC_LIMITS.notes, true),
  signupLink: capped("Signup link", MIC_LIMITS.link),
  showLink: capped("Show link", MIC_LIMITS.link),
  customRecurrenceDescription: capped("The schedule description", MIC_LIMITS.customRecurrenceDescription),
});

/** The day select's value for a mic without a day. */
export const NO_DAY = "none";

/** A number input's value: react-hook-form reads number inputs as numbers (NaN
 * when empty); the payload builders read it with the spec's fallbacks. */
export const numberText = z.union([z.string(), z.number()]).transform((value) => String(value));

/** The day, start time and (for an open mic) cost every mic edit form has, admin's and the claimant's;
 * the amounts are kept as typed text and read with the spec's rules on save. */
export const micScheduleAndCostSchema = z.object({
  dayOfWeek: z.string(),
  startTimeLocal: z.string().regex(/^\d{1,2}:\d{2}(:\d{2})?$/, "Enter a start time"),
  costType: z.enum(["free", "cover", "minimum", "combo"]),
  coverAmount: numberText,
  minimumItems: numberText,
});

type ScheduledMic = {
  dayOfWeek?: number | null;
  startTimeLocal?: string;
  costInfo?: {
    type: z.infer<typeof micScheduleAndCostSchema>["costType"];
    coverAmount?: number;
    minimumItems?: number;
  } | null;
};

/** The schedule and cost fields' starting values; a missing cost uses the spec's defaults (free, fee 5, 1 item). */
export function micScheduleAndCostDefaults(mic: ScheduledMic) {
  return {
    dayOfWeek: mic.dayOfWeek === null || mic.dayOfWeek === undefined ? NO_DAY : String(mic.dayOfWeek),
    startTimeLocal: (mic.startTimeLocal ?? "19:00").slice(0, 5),
    costType: mic.costInfo?.type ?? "free",
    coverAmount: String(mic.costInfo?.coverAmount ?? 5),
    minimumItems: String(mic.costInfo?.minimumItems ?? 1),
  };
}

/** The day select's value back to the server's day: null for no day. */
export function dayFromValue(value: string): number | null {
  return value === NO_DAY ? null : Number(value);
}
