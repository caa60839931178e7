/**
 * The rules of a mic (a scene item): every limit and normaliser its fields
 * have, in one place. Every write path uses them: the add-event wizard, the
 * log-a-set wizard and onboarding (model/events), the admin edit
 * (model/admin) and the claimant's edit (model/claims). The client forms
 * build their zod schemas from the same limits (src/lib/micSchema.ts).
 */
import { parseHHMM } from "./time";
import { invalid, optionalHttpUrl, optionalText, requiredText } from "./textRules";

/** Longest text per field (characters, after trimming). */
export const MIC_LIMITS = {
  title: 120,
  venueName: 120,
  city: 200,
  address: 300,
  googlePlaceId: 300,
  hostName: 120,
  notes: 1000,
  customRecurrenceDescription: 200,
  monthlyRule: 100,
  timeZone: 100,
  link: 2000,
} as const;

export const MIN_PERFORMANCE_MINUTES = 1;
export const MAX_PERFORMANCE_MINUTES = 60;
/** Highest mic fee and drink minimum a mic may list. */
export const MAX_COVER_AMOUNT = 1000;
export const MAX_MINIMUM_ITEMS = 100;
/** The admin edit form's defaults for a cost type that needs an amount. */
export const DEFAULT_COVER_AMOUNT = 5;
export const DEFAULT_MINIMUM_ITEMS = 1;

export type CostInfoInput = {
  type: "free" | "cover" | "minimum" | "combo";
  coverAmount?: number;
  minimumItems?: number;
};

export const micTitle = (value: string, label = "Title", emptyMessage?: string) =>
  requiredText(value, { label, max: MIC_LIMITS.title, emptyMessage });
export const micVenueName = (value: string, label = "Venue name", emptyMessage?: string) =>
  requiredText(value, { label, max: MIC_LIMITS.venueName, emptyMessage });
export const micCity = (value: string) => requiredText(value, { label: "City", max: MIC_LIMITS.city });
export const micOptionalCity = (value: string | undefined) =>
  optionalText(value, { label: "City", max: MIC_LIMITS.city });
export const micAddress = (value: string | undefined) =>
  optionalText(value, { label: "Address", max: MIC_LIMITS.address });
export const micPlaceId = (value: string | undefined) =>
  optionalText(value, { label: "Place id", max: MIC_LIMITS.googlePlaceId });
export const micHostName = (value: string | undefined) =>
  optionalText(value, { label: "Host name", max: MIC_LIMITS.hostName });
export const micNotes = (value: string | undefined) =>
  optionalText(value, { label: "Notes", max: MIC_LIMITS.notes, multiline: true });
export const micTimeZone = (value: string | undefined) =>
  optionalText(value, { label: "Time zone", max: MIC_LIMITS.timeZone });
export const micCustomRecurrence = (value: string | undefined) =>
  optionalText(value, { label: "The schedule description", max: MIC_LIMITS.customRecurrenceDescription });
export const micMonthlyRule = (value: string | undefined) =>
  optionalText(value, { label: "The monthly rule", max: MIC_LIMITS.monthlyRule });
export const micSignupLink = (value: string | undefined, label = "Signup link") =>
  optionalHttpUrl(value, { label, max: MIC_LIMITS.link });
export const micShowLink = (value: string | undefined) =>
  optionalHttpUrl(value, { label: "Show link", max: MIC_LIMITS.link });

/** "HH:MM" from "H:MM", "HH:MM" or "HH:MM:SS"; INVALID_INPUT with `message` otherwise. */
export function normalizeTimeOfDay(value: string, message: string): string {
  if (value.length > 16) invalid(message);
  const t = parseHHMM(value);
  if (t === null) invalid(message);
  return `${String(t.hours).padStart(2, "0")}:${String(t.minutes).padStart(2, "0")}`;
}

/** 0 (Sunday) to 6 (Saturday), or null for an unknown day. */
export function normalizeDayOfWeek(value: number | null, message = "Day must be Sunday to Saturday"): number | null {
  if (value === null) return null;
  if (!Number.isInteger(value) || value < 0 || value > 6) invalid(message);
  return value;
}

/** A whole set length from 1 to 60 minutes. */
export function normalizePerformanceMinutes(value: number, message: string): number {
  if (!Number.isInteger(value) || value < MIN_PERFORMANCE_MINUTES || value > MAX_PERFORMANCE_MINUTES) invalid(message);
  return value;
}

function checkCoverAmount(amount: number): void {
  if (!Number.isFinite(amount) || amount < 0) invalid("Mic fee must be a number of at least 0");
  if (amount > MAX_COVER_AMOUNT) invalid(`Mic fee must be at most ${MAX_COVER_AMOUNT}`);
}

function checkMinimumItems(items: number): void {
  if (!Number.isInteger(items) || items < 1) invalid("Minimum items must be a whole number of at least 1");
  if (items > MAX_MINIMUM_ITEMS) invalid(`Minimum items must be at most ${MAX_MINIMUM_ITEMS}`);
}

/**
 * Cost info as stored: only the amounts its type uses, `defaults` for a
 * missing amount. A fee is 0 to 1000, rounded to cents; a minimum is a whole
 * number from 1 to 100.
 */
export function normalizeCostInfo(
  cost: CostInfoInput,
  defaults: { coverAmount: number; minimumItems: number } = {
    coverAmount: DEFAULT_COVER_AMOUNT,
    minimumItems: DEFAULT_MINIMUM_ITEMS,
  },
): CostInfoInput {
  // Amounts the type does not use are dropped, but must still be numbers in range.
  if (cost.coverAmount !== undefined) checkCoverAmount(cost.coverAmount);
  if (cost.minimumItems !== undefined) checkMinimumItems(cost.minimumItems);
  const out: CostInfoInput = { type: cost.type };
  if (cost.type === "cover" || cost.type === "combo") {
    const amount = cost.coverAmount ?? defaults.coverAmount;
    checkCoverAmount(amount);
    out.coverAmount = Math.round(amount * 100) / 100;
  }
  if (cost.type === "minimum" || cost.type === "combo") {
    const items = cost.minimumItems ?? defaults.minimumItems;
    checkMinimumItems(items);
    out.minimumItems = items;
  }
  return out;
}
