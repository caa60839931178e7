/**
 * Adding a mic or show to the scene: the event details form's payload
 * and its payload rules, the chosen venue, the
 * duplicate rule, and creating the item for the add-event wizard, the log-a-set
 * wizard and onboarding.
 */
import { v, type Infer } from "convex/values";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { appError, ErrorCode } from "../errors";
import {
  DEFAULT_MINIMUM_ITEMS,
  MAX_PERFORMANCE_MINUTES,
  MIC_LIMITS,
  MIN_PERFORMANCE_MINUTES,
  micAddress,
  micCustomRecurrence,
  micHostName,
  micMonthlyRule,
  micOptionalCity,
  micPlaceId,
  micShowLink,
  micSignupLink,
  micTimeZone,
  micTitle,
  micVenueName,
  normalizeCostInfo,
  normalizeDayOfWeek,
  normalizePerformanceMinutes,
  normalizeTimeOfDay,
} from "../lib/micRules";
import { invalid, optionalText } from "../lib/textRules";
import { INVALID_CUSTOM_RECURRENCE, monthlyRuleText, parseCustomRecurrence, parseMonthlyRule } from "../lib/recurrence";
import {
  DAY_NAMES,
  DEFAULT_TIME_ZONE,
  addDaysToDate,
  dayOfWeekOfDate,
  formatTime12h,
  isValidTimeZone,
  localDateString,
  minusMinutesHHMM,
} from "../lib/time";
import { awardEarnedBadges } from "./badges";
import { insertSceneItem, type NewSceneItem } from "./scene";
import { addToSchedule } from "./schedule";
import { isDateString } from "./userStats";

export { MIN_PERFORMANCE_MINUTES, MAX_PERFORMANCE_MINUTES } from "../lib/micRules";
export const MAX_TITLE_LENGTH = MIC_LIMITS.title;
export const MAX_VENUE_NAME_LENGTH = MIC_LIMITS.venueName;
/** Set length a new item gets by type when the form sends none. */
export const DEFAULT_PERFORMANCE_MINUTES = { open_mic: 5, show: 10 } as const;
/** Most items of one creator looked at by the duplicate rule. */
const CREATOR_ITEMS_LIMIT = 1000;

export const eventTypeValidator = v.union(v.literal("open_mic"), v.literal("show"));

export const recurrenceValidator = v.union(
  v.literal("weekly"),
  v.literal("bi-weekly"),
  v.literal("monthly"),
  v.literal("one-time"),
  v.literal("custom"),
);

export const costInfoInputValidator = v.object({
  type: v.union(v.literal("free"), v.literal("cover"), v.literal("minimum"), v.literal("combo")),
  coverAmount: v.optional(v.number()),
  minimumItems: v.optional(v.number()),
});

/** The event details form's payload (mirrored by the client's zod schema). */
export const eventDetailsValidator = v.object({
  type: eventTypeValidator,
  title: v.string(),
  dayOfWeek: v.number(),
  /** "HH:MM", wall clock in the venue's time zone. */
  startTimeLocal: v.string(),
  recurrence: recurrenceValidator,
  customRecurrenceDescription: v.optional(v.string()),
  monthlyRule: v.optional(v.string()),
  signupMethod: v.optional(v.union(v.literal("in_person"), v.literal("online"))),
  listTimeLocal: v.optional(v.string()),
  signupLink: v.optional(v.string()),
  showLink: v.optional(v.string()),
  hostName: v.optional(v.string()),
  costInfo: v.optional(costInfoInputValidator),
  performanceMinutes: v.optional(v.number()),
  /** "YYYY-MM-DD" of the first date, so bi-weekly, monthly and one-time items know their cadence. */
  anchorDate: v.optional(v.string()),
});
export type EventDetails = Infer<typeof eventDetailsValidator>;

/** A venue chosen in the venue search (Google place, a scene venue, or typed by hand). */
export const venueInputValidator = v.object({
  venueName: v.string(),
  address: v.optional(v.string()),
  city: v.optional(v.string()),
  googlePlaceId: v.optional(v.string()),
  latitude: v.optional(v.number()),
  longitude: v.optional(v.number()),
  /** IANA zone of the venue; America/New_York when absent. */
  timeZone: v.optional(v.string()),
});
export type VenueInput = Infer<typeof venueInputValidator>;

export { isHttpUrl } from "../lib/textRules";

/** The stored venue fields of a chosen venue; `city` falls back to the address. */
export function normalizeVenue(venue: VenueInput): {
  venueName: string;
  address?: string;
  city: string;
  googlePlaceId?: string;
  latitude?: number;
  longitude?: number;
  timeZone: string;
} {
  const venueName = micVenueName(venue.venueName, "Venue name", "Please select a venue first.");
  const address = micAddress(venue.address);
  const city = micOptionalCity(venue.city) ?? (address ?? venueName).slice(0, MIC_LIMITS.city);
  const timeZone = micTimeZone(venue.timeZone) ?? DEFAULT_TIME_ZONE;
  if (!isValidTimeZone(timeZone)) invalid(`Unknown time zone "${timeZone}"`);
  const { latitude, longitude } = venue;
  if ((latitude === undefined) !== (longitude === undefined)) {
    invalid("A venue needs both a latitude and a longitude, or neither");
  }
  if (latitude !== undefined && (!Number.isFinite(latitude) || latitude < -90 || latitude > 90)) {
    invalid("Latitude must be between -90 and 90");
  }
  if (longitude !== undefined && (!Number.isFinite(longitude) || longitude < -180 || longitude > 180)) {
    invalid("Longitude must be between -180 and 180");
  }
  return {
    venueName,
    address,
    city,
    googlePlaceId: micPlaceId(venue.googlePlaceId),
    latitude,
    longitude,
    timeZone,
  };
}

/**
 * Validates the details form against the venue and applies the payload rules
 * (fields that do not apply to the type, sign-up method or
 * frequency are dropped), returning the scene item's fields. Throws
 * INVALID_INPUT with the form's wording.
 */
export function sceneItemFieldsFrom(venueInput: VenueInput, details: EventDetails, nowMs: number): NewSceneItem {
  const venue = normalizeVenue(venueInput);
  const isMic = details.type === "open_mic";

  const typed = optionalText(details.title, { label: "Event name", max: MIC_LIMITS.title });
  const title = micTitle(typed ?? `${isMic ? "Open Mic" : "Show"} at ${venue.venueName}`, "Event name");

  normalizeDayOfWeek(details.dayOfWeek, "Please choose a day of the week");
  const startTimeLocal = normalizeTimeOfDay(details.startTimeLocal, "Please choose a valid start time");

  let anchorDate: string | undefined;
  if (details.anchorDate !== undefined) {
    if (details.anchorDate.length > 10 || !isDateString(details.anchorDate))
      invalid("The first date must be a valid date (YYYY-MM-DD)");
    anchorDate = details.anchorDate;
  }

  // Fields that do not apply are dropped below, but hostile values in them are
  // refused first, with the same caps as where they apply.
  micCustomRecurrence(details.customRecurrenceDescription);
  micMonthlyRule(details.monthlyRule);
  optionalText(details.signupLink, { label: "Signup link", max: MIC_LIMITS.link });
  optionalText(details.showLink, { label: "Show link", max: MIC_LIMITS.link });

  let customRecurrenceDescription: string | undefined;
  let monthlyRule: string | undefined;
  if (details.recurrence === "custom") {
    customRecurrenceDescription = micCustomRecurrence(details.customRecurrenceDescription);
    if (customRecurrenceDescription === undefined || parseCustomRecurrence(customRecurrenceDescription) === null) {
      invalid(INVALID_CUSTOM_RECURRENCE.description, { title: INVALID_CUSTOM_RECURRENCE.title });
    }
  } else if (details.recurrence === "monthly") {
    monthlyRule = micMonthlyRule(details.monthlyRule);
    if (monthlyRule !== undefined && parseMonthlyRule(monthlyRule) === null) {
      invalid("Please choose a monthly date or weekday");
    }
    if (monthlyRule === undefined) {
      // The first date on the item's day at or after the anchor (else today at
      // the venue) names the weekday rule, so the item keeps one week of the month.
      const from = anchorDate ?? localDateString(nowMs, venue.timeZone);
      const first = addDaysToDate(from, (details.dayOfWeek - dayOfWeekOfDate(from) + 7) % 7);
      monthlyRule = monthlyRuleText(first, "weekday");
    }
  }

  const performanceMinutes = normalizePerformanceMinutes(
    details.performanceMinutes ?? DEFAULT_PERFORMANCE_MINUTES[details.type],
    `Performance minutes must be a whole number from ${MIN_PERFORMANCE_MINUTES} to ${MAX_PERFORMANCE_MINUTES}`,
  );

  const fields: NewSceneItem = {
    title,
    venueName: venue.venueName,
    city: venue.city,
    address: venue.address,
    type: details.type,
    googlePlaceId: venue.googlePlaceId,
    latitude: venue.latitude,
    longitude: venue.longitude,
    dayOfWeek: details.dayOfWeek,
    startTimeLocal,
    recurrence: details.recurrence,
    customRecurrenceDescription,
    monthlyRule,
    hostName: micHostName(details.hostName),
    performanceMinutes,
    anchorDate,
    timeZone: venue.timeZone,
  };

  if (isMic) {
    const signupMethod = details.signupMethod ?? "in_person";
    fields.signupMethod = signupMethod;
    if (signupMethod === "in_person") {
      fields.listTimeLocal =
        details.listTimeLocal !== undefined && details.listTimeLocal.trim() !== ""
          ? normalizeTimeOfDay(details.listTimeLocal, "Please choose a valid list time")
          : minusMinutesHHMM(startTimeLocal, 30);
    } else {
      fields.signupLink = micSignupLink(details.signupLink);
    }
    // The wizard's fee defaults to 0 when left empty.
    fields.costInfo =
      details.costInfo === undefined
        ? undefined
        : normalizeCostInfo(details.costInfo, { coverAmount: 0, minimumItems: DEFAULT_MINIMUM_ITEMS });
  } else {
    fields.showLink = micShowLink(details.showLink);
    fields.costInfo = null;
  }
  // Leave optional fields out rather than storing undefined keys.
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as NewSceneItem;
}

/** Whether two items sit at the same venue: same place id when both have one, else same name in any case. */
function sameVenue(
  a: Pick<NewSceneItem, "googlePlaceId" | "venueName">,
  b: Pick<NewSceneItem, "googlePlaceId" | "venueName">,
): boolean {
  if (a.googlePlaceId && b.googlePlaceId) return a.googlePlaceId === b.googlePlaceId;
  return a.venueName.trim().toLowerCase() === b.venueName.trim().toLowerCase();
}

/**
 * The creator's active item at the same venue, day and start time, or null
 * (the duplicate rule; another comedian may add the same slot).
 */
export async function findOwnDuplicate(
  ctx: QueryCtx,
  userId: Id<"users">,
  fields: Pick<NewSceneItem, "googlePlaceId" | "venueName" | "dayOfWeek" | "startTimeLocal">,
): Promise<Doc<"sceneItems"> | null> {
  const mine = await ctx.db
    .query("sceneItems")
    .withIndex("by_createdBy", (q) => q.eq("createdBy", userId))
    .take(CREATOR_ITEMS_LIMIT);
  return (
    mine.find(
      (item) =>
        item.status === "active" &&
        item.dayOfWeek === fields.dayOfWeek &&
        item.startTimeLocal === fields.startTimeLocal &&
        sameVenue(item, fields),
    ) ?? null
  );
}

/** The spec's duplicate message for a slot. */
export function duplicateEventMessage({
  venueName,
  dayOfWeek,
  startTimeLocal,
}: {
  venueName: string;
  dayOfWeek: number;
  startTimeLocal: string;
}): string {
  return `An event already exists at ${venueName} on ${DAY_NAMES[dayOfWeek]}s at ${formatTime12h(startTimeLocal)}. Please choose a different day or time.`;
}

export function duplicateEventError(fields: Pick<NewSceneItem, "venueName" | "dayOfWeek" | "startTimeLocal">) {
  return appError(
    ErrorCode.DUPLICATE_EVENT,
    duplicateEventMessage({
      venueName: fields.venueName,
      dayOfWeek: fields.dayOfWeek ?? 0,
      startTimeLocal: fields.startTimeLocal ?? "",
    }),
  );
}

/**
 * Inserts a new active item created by the comedian and counts it as a venue
 * they added (venue_pioneer). Does not check duplicates. Returns the id and
 * any badges earned.
 */
export async function insertCreatedItem(
  ctx: MutationCtx,
  { userId, fields, nowMs }: { userId: Id<"users">; fields: NewSceneItem; nowMs: number },
): Promise<{ sceneItemId: Id<"sceneItems">; newBadges: string[] }> {
  // The mic's trigger counts it as a venue they added (model/statsTriggers).
  const sceneItemId = await insertSceneItem(ctx, fields, { createdBy: userId, status: "active" });
  const newBadges = await awardEarnedBadges(ctx, userId, nowMs);
  return { sceneItemId, newBadges };
}

/**
 * The add-event wizard's save: validates, refuses one-time shows (they go to
 * the log) and the creator's own duplicate slot, creates the active item,
 * puts it in the creator's schedule and counts the venue they added.
 */
export async function createEvent(
  ctx: MutationCtx,
  userId: Id<"users">,
  args: { venue: VenueInput; details: EventDetails },
  nowMs: number,
): Promise<{ sceneItemId: Id<"sceneItems">; title: string; newBadges: string[] }> {
  if (args.details.recurrence === "one-time") {
    invalid("One-time shows are added to your log, not the scene list.");
  }
  const fields = sceneItemFieldsFrom(args.venue, args.details, nowMs);
  if ((await findOwnDuplicate(ctx, userId, fields)) !== null) throw duplicateEventError(fields);
  const { sceneItemId, newBadges } = await insertCreatedItem(ctx, { userId, fields, nowMs });
  await addToSchedule(ctx, { userId, sceneItemId, nowMs });
  return { sceneItemId, title: fields.title, newBadges };
}
