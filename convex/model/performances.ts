/**
 * Logging, editing and deleting sets. The comedian's totals, day and venue
 * rows, streaks and the community minutes follow every set write by
 * themselves (model/statsTriggers); badges are awarded here, in the same
 * transaction.
 */
import { v, type Infer } from "convex/values";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { appError, ErrorCode } from "../errors";
import { assertNoControlCharacters, invalid } from "../lib/textRules";
import { isSetMinutes, MAX_NOTES_LENGTH, NOTES_TOO_LONG_MESSAGE, SET_MINUTES_MESSAGE } from "../lib/setRules";
import { DEFAULT_TIME_ZONE, MINUTE_MS, isValidTimeZone, localDateString } from "../lib/time";
import { awardEarnedBadges } from "./badges";
import {
  eventDetailsValidator,
  findOwnDuplicate,
  MAX_VENUE_NAME_LENGTH,
  insertCreatedItem,
  sceneItemFieldsFrom,
  venueInputValidator,
  type EventDetails,
  type VenueInput,
} from "./events";
import { enforceRateLimit } from "../rateLimits";
import { getMyStats } from "./userStats";

export { MAX_NOTES_LENGTH, MAX_SET_MINUTES, MIN_SET_MINUTES } from "../lib/setRules";
export const MAX_TAGS = 20;
export const MAX_TAG_LENGTH = 40;
/** Clock skew tolerated between the phone and the server. */
export const FUTURE_TOLERANCE_MS = 5 * MINUTE_MS;

export const FUTURE_SET_MESSAGE = "Set date cannot be in the future";
export const NOT_FOUND_MESSAGE = "Performance log not found";

/** The set fields shared by `log` and `logWithNewMic`. */
export const setFieldsValidator = {
  minutes: v.number(),
  /** Epoch ms of the set. */
  performedAt: v.number(),
  venueName: v.optional(v.string()),
  notes: v.optional(v.string()),
  tags: v.array(v.string()),
  /** The device's IANA zone, stored on the profile the first time. */
  timeZone: v.optional(v.string()),
};
export const logArgsValidator = v.object({
  ...setFieldsValidator,
  sceneItemId: v.optional(v.id("sceneItems")),
});
export type LogArgs = Infer<typeof logArgsValidator>;
export const setArgsValidator = v.object(setFieldsValidator);
export type SetArgs = Infer<typeof setArgsValidator>;

export const logResultValidator = v.object({
  performanceId: v.id("performances"),
  totalMinutes: v.number(),
  newBadges: v.array(v.string()),
});
export const logWithNewMicArgs = {
  set: setArgsValidator,
  venue: venueInputValidator,
  details: eventDetailsValidator,
  alsoAddToScene: v.boolean(),
};
export const logWithNewMicResultValidator = v.object({
  performanceId: v.id("performances"),
  sceneItemId: v.union(v.id("sceneItems"), v.null()),
  totalMinutes: v.number(),
  newBadges: v.array(v.string()),
});

export function validateMinutes(minutes: number): number {
  if (!isSetMinutes(minutes)) invalid(SET_MINUTES_MESSAGE);
  return minutes;
}

/** Trimmed notes, undefined when empty; at most 2000 characters. */
export function normalizeNotes(notes: string | null | undefined): string | undefined {
  const t = notes?.replace(/\r\n/g, "\n").trim();
  if (!t) return undefined;
  if (t.length > MAX_NOTES_LENGTH) invalid(NOTES_TOO_LONG_MESSAGE);
  assertNoControlCharacters(t, { label: "Notes", multiline: true });
  return t;
}

/** Trimmed tags with empties dropped and duplicates (in any case) ignored; at most 20 of 1..40 characters. */
export function normalizeTags(tags: readonly string[] | null | undefined): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of tags ?? []) {
    const tag = raw.trim();
    if (tag === "") continue;
    if (tag.length > MAX_TAG_LENGTH) invalid(`Tags must be ${MAX_TAG_LENGTH} characters or fewer`);
    assertNoControlCharacters(tag, { label: "Tags" });
    const key = tag.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(tag);
  }
  if (out.length > MAX_TAGS) invalid(`A set can have at most ${MAX_TAGS} tags`);
  return out;
}

/**
 * The zone the comedian's days are counted in: their profile's, else the
 * device zone they passed (saved on the profile the first time), else
 * America/New_York.
 */
export async function comedianTimeZone(
  ctx: MutationCtx,
  userId: Id<"users">,
  passed: string | undefined,
): Promise<string> {
  if (passed !== undefined && !isValidTimeZone(passed)) invalid(`Unknown time zone "${passed}"`);
  const profile = await ctx.db
    .query("profiles")
    .withIndex("by_userId", (q) => q.eq("userId", userId))
    .unique();
  if (profile?.timeZone) return profile.timeZone;
  if (passed !== undefined) {
    if (profile !== null) await ctx.db.patch("profiles", profile._id, { timeZone: passed });
    return passed;
  }
  return DEFAULT_TIME_ZONE;
}

/** The set's local date, refusing sets after now (5 minutes of clock skew allowed) or after today. */
function performanceDateOf({
  performedAt,
  nowMs,
  timeZone,
}: {
  performedAt: number;
  nowMs: number;
  timeZone: string;
}): string {
  if (!Number.isFinite(performedAt) || performedAt < 0) invalid("Please choose a valid date and time");
  if (performedAt > nowMs + FUTURE_TOLERANCE_MS) invalid(FUTURE_SET_MESSAGE);
  const date = localDateString(performedAt, timeZone);
  if (date > localDateString(nowMs, timeZone)) invalid(FUTURE_SET_MESSAGE);
  return date;
}

/**
 * After a set write (whose totals the set trigger has already moved): the
 * comedian's total minutes and the badges they earned.
 */
async function afterSetChange(
  ctx: MutationCtx,
  userId: Id<"users">,
  nowMs: number,
): Promise<{ totalMinutes: number; newBadges: string[] }> {
  const { totalMinutes } = await getMyStats(ctx, userId);
  const newBadges = await awardEarnedBadges(ctx, userId, nowMs);
  return { totalMinutes, newBadges };
}

/** Logs a set at a scene item or at a venue by name (one-time shows). */
export async function logSet(
  ctx: MutationCtx,
  { userId, set, nowMs }: { userId: Id<"users">; set: LogArgs; nowMs: number },
): Promise<{ performanceId: Id<"performances">; totalMinutes: number; newBadges: string[] }> {
  const minutes = validateMinutes(set.minutes);
  const notes = normalizeNotes(set.notes);
  const tags = normalizeTags(set.tags);
  let venueName: string | undefined;
  assertVenueNameCap(set.venueName);
  if (set.sceneItemId !== undefined) {
    const item = await ctx.db.get("sceneItems", set.sceneItemId);
    if (item === null) throw appError(ErrorCode.NOT_FOUND, "Event not found");
  } else {
    venueName = set.venueName?.trim();
    if (!venueName) invalid("Please select a venue first.");
    if (venueName.length > MAX_VENUE_NAME_LENGTH) {
      invalid(`Venue name must be ${MAX_VENUE_NAME_LENGTH} characters or fewer`);
    }
  }
  const timeZone = await comedianTimeZone(ctx, userId, set.timeZone);
  const performanceDate = performanceDateOf({ performedAt: set.performedAt, nowMs, timeZone });

  const performanceId = await ctx.db.insert("performances", {
    userId,
    minutes,
    performedAt: set.performedAt,
    performanceDate,
    ...(set.sceneItemId !== undefined ? { sceneItemId: set.sceneItemId } : { venueName }),
    ...(notes !== undefined ? { notes } : {}),
    tags,
  });
  return { performanceId, ...(await afterSetChange(ctx, userId, nowMs)) };
}

/**
 * The log wizard's "Venue / Mic Details" step: creates the mic when asked
 * (never for one-time shows, which go only to the log) and logs the set at
 * it, in one transaction. When the comedian already created this very slot,
 * the set is linked to that item instead of failing on the duplicate rule.
 */
export async function logWithNewMic(
  ctx: MutationCtx,
  userId: Id<"users">,
  args: { set: SetArgs; venue: VenueInput; details: EventDetails; alsoAddToScene: boolean },
  nowMs: number,
): Promise<{
  performanceId: Id<"performances">;
  sceneItemId: Id<"sceneItems"> | null;
  totalMinutes: number;
  newBadges: string[];
}> {
  // Validate the whole form (and the set) before writing anything.
  const fields = sceneItemFieldsFrom(args.venue, args.details, nowMs);
  validateMinutes(args.set.minutes);
  normalizeNotes(args.set.notes);
  normalizeTags(args.set.tags);
  assertVenueNameCap(args.set.venueName);

  let sceneItemId: Id<"sceneItems"> | null = null;
  const badges: string[] = [];
  if (args.alsoAddToScene && fields.recurrence !== "one-time") {
    const existing = await findOwnDuplicate(ctx, userId, fields);
    if (existing !== null) {
      sceneItemId = existing._id;
    } else {
      // A new mic on the scene counts like one from the add-event wizard.
      await enforceRateLimit(ctx, "createMic", userId);
      const created = await insertCreatedItem(ctx, { userId, fields, nowMs });
      sceneItemId = created.sceneItemId;
      badges.push(...created.newBadges);
    }
  }
  const logged = await logSet(ctx, {
    userId,
    set: {
      ...args.set,
      ...(sceneItemId !== null ? { sceneItemId, venueName: undefined } : { venueName: fields.venueName }),
    },
    nowMs,
  });
  return {
    performanceId: logged.performanceId,
    sceneItemId,
    totalMinutes: logged.totalMinutes,
    newBadges: [...badges, ...logged.newBadges],
  };
}

/** The caller's own set, or NOT_FOUND. */
async function requireOwnSet(ctx: QueryCtx, userId: Id<"users">, id: Id<"performances">): Promise<Doc<"performances">> {
  const set = await ctx.db.get("performances", id);
  if (set === null || set.userId !== userId) throw appError(ErrorCode.NOT_FOUND, NOT_FOUND_MESSAGE);
  return set;
}

/** The set's venue name is capped even where a mic is chosen and the name goes unused: hostile input is refused, not ignored. */
function assertVenueNameCap(venueName: string | undefined): void {
  if (venueName !== undefined && venueName.trim().length > MAX_VENUE_NAME_LENGTH) {
    invalid(`Venue name must be ${MAX_VENUE_NAME_LENGTH} characters or fewer`);
  }
  if (venueName !== undefined) assertNoControlCharacters(venueName.trim(), { label: "Venue name" });
}

/**
 * Edits one of the comedian's sets (the history dialog): minutes, time, and
 * notes and tags when given (null or empty clears them). Totals, days,
 * streaks and badges follow; earned badges stay earned.
 */
export async function updateSet(
  ctx: MutationCtx,
  userId: Id<"users">,
  args: {
    id: Id<"performances">;
    minutes: number;
    notes?: string | null;
    tags?: string[] | null;
    performedAt: number;
  },
  nowMs: number,
): Promise<{ totalMinutes: number; newBadges: string[] }> {
  const set = await requireOwnSet(ctx, userId, args.id);
  const minutes = validateMinutes(args.minutes);
  const timeZone = await comedianTimeZone(ctx, userId, undefined);
  const performanceDate = performanceDateOf({ performedAt: args.performedAt, nowMs, timeZone });
  const patch: Partial<Doc<"performances">> = { minutes, performedAt: args.performedAt, performanceDate };
  if (args.notes !== undefined) patch.notes = normalizeNotes(args.notes);
  if (args.tags !== undefined) patch.tags = normalizeTags(args.tags);
  await ctx.db.patch("performances", set._id, patch);
  return await afterSetChange(ctx, userId, nowMs);
}

/** Deletes one of the comedian's sets; totals, days, venues and streaks follow. */
export async function removeSet(
  ctx: MutationCtx,
  { userId, id, nowMs }: { userId: Id<"users">; id: Id<"performances">; nowMs: number },
): Promise<{ totalMinutes: number }> {
  const set = await requireOwnSet(ctx, userId, id);
  await ctx.db.delete("performances", set._id);
  const { totalMinutes } = await afterSetChange(ctx, userId, nowMs);
  return { totalMinutes };
}
