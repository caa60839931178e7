import { v, type Infer } from "convex/values";
import { isAllowedPhotoType } from "../lib/photo";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { appError, ErrorCode } from "../errors";
import {
  DEFAULT_STAGE_NAME,
  isDefaultStageName,
  MAX_DEFAULT_CITY_LENGTH,
  MAX_DISPLAY_NAME_LENGTH,
  MAX_PHOTO_BYTES,
  normalizeName,
  NOT_AN_IMAGE_MESSAGE,
  PHOTO_TOO_LARGE_MESSAGE,
  STAGE_NAME_EMPTY_MESSAGE,
  typedStageName,
} from "../lib/profileRules";
import {
  DEFAULT_WEEKLY_GOAL_MINUTES,
  INVALID_GOAL_MESSAGE,
  INVALID_GOAL_TITLE,
  isWeeklyGoal,
  PROFILE_GOAL_SERVER_MESSAGE,
  PROFILE_MAX_WEEKLY_GOAL_MINUTES,
} from "../lib/goalRules";
import { assertNoControlCharacters, withoutControlCharacters } from "../lib/textRules";

export {
  DEFAULT_WEEKLY_GOAL_MINUTES,
  MAX_WEEKLY_GOAL_MINUTES,
  MIN_WEEKLY_GOAL_MINUTES,
  PROFILE_MAX_WEEKLY_GOAL_MINUTES,
} from "../lib/goalRules";

/** What the app knows about the signed-in comedian (`profiles.me`). */
export const meValidator = v.object({
  userId: v.id("users"),
  displayName: v.string(),
  email: v.union(v.string(), v.null()),
  photoUrl: v.union(v.string(), v.null()),
  onboardingCompleted: v.boolean(),
  needsOnboarding: v.boolean(),
  weeklyGoalMinutes: v.number(),
  defaultCity: v.union(v.string(), v.null()),
  isAdmin: v.boolean(),
  /** The account's creation time (epoch ms). */
  memberSince: v.number(),
  /** False for an account whose profile row has not been created yet. */
  hasProfile: v.boolean(),
});

export type Me = Infer<typeof meValidator>;

/** Lower-cased, trimmed email: the key accounts and ADMIN_EMAILS are matched on. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Whether `email` is listed in ADMIN_EMAILS (comma-separated, any case). */
export function isAdminEmail(
  email: string | null | undefined,
  adminEmails: string | undefined = process.env.ADMIN_EMAILS,
): boolean {
  if (!email || !adminEmails) return false;
  const wanted = normalizeEmail(email);
  return adminEmails
    .split(",")
    .map(normalizeEmail)
    .some((e) => e !== "" && e === wanted);
}

/**
 * The name shown for an account without a profile name: the name it signed
 * up with (or Google's), else {@link DEFAULT_STAGE_NAME}. Never derived from
 * the email, which is private.
 */
export function displayNameFor(user: Pick<Doc<"users">, "name"> | null): string {
  const name = normalizeName(withoutControlCharacters(user?.name ?? ""))
    .slice(0, MAX_DISPLAY_NAME_LENGTH)
    .trim();
  return isDefaultStageName(name) ? DEFAULT_STAGE_NAME : name;
}

/** The part of an email before "@", lower-cased: what a name must never be derived from. */
export function emailLocalPart(email: string | null | undefined): string | null {
  const at = email?.lastIndexOf("@") ?? -1;
  const local = at > 0 ? email!.slice(0, at).trim().toLowerCase() : "";
  return local === "" ? null : local;
}

/** Whether `name` is the email's local part (what the app once showed for a comedian without a name). */
export function isEmailLocalPart(name: string, email: string | null | undefined): boolean {
  const local = emailLocalPart(email);
  return local !== null && normalizeName(name).toLowerCase() === local;
}

/** The names the admin queues show for these comedians: the profile's display name, else {@link displayNameFor}. */
export async function displayNamesOf(ctx: QueryCtx, userIds: Iterable<Id<"users">>): Promise<Map<Id<"users">, string>> {
  const unique = [...new Set(userIds)];
  const names = await Promise.all(
    unique.map(async (id) => {
      const profile = await ctx.db
        .query("profiles")
        .withIndex("by_userId", (q) => q.eq("userId", id))
        .unique();
      if (profile?.displayName.trim()) return profile.displayName.trim();
      return displayNameFor(await ctx.db.get("users", id));
    }),
  );
  return new Map(unique.map((id, i) => [id, names[i]!]));
}

/** The comedian's profile row, or null. */
export async function getProfile(ctx: QueryCtx, userId: Id<"users">): Promise<Doc<"profiles"> | null> {
  return await ctx.db
    .query("profiles")
    .withIndex("by_userId", (q) => q.eq("userId", userId))
    .unique();
}

/** The comedian's profile row; throws NOT_FOUND when it is missing. */
export async function requireProfile(ctx: QueryCtx, userId: Id<"users">): Promise<Doc<"profiles">> {
  const profile = await getProfile(ctx, userId);
  if (profile === null) throw appError(ErrorCode.NOT_FOUND, "Profile not found.");
  return profile;
}

/**
 * Whether an account becomes an admin when its profile is created: its email
 * is in ADMIN_EMAILS *and* the account proved it owns that email
 * (`emailVerificationTime`, set by Convex Auth only for a Google sign-in whose
 * `email_verified` is true). A password sign-up proves nothing, so a listed
 * email typed into the sign-up form never makes an admin.
 */
export function isProvenAdminEmail(user: Pick<Doc<"users">, "email" | "emailVerificationTime"> | null): boolean {
  return user?.emailVerificationTime !== undefined && isAdminEmail(user.email);
}

/**
 * Creates the profile of a new comedian (needs onboarding, goal 15, admin iff
 * {@link isProvenAdminEmail}); the landing page counts them (model/statsTriggers). Returns the
 * existing profile instead when there is one, so it is safe to call twice.
 */
export async function createProfileIfMissing(ctx: MutationCtx, userId: Id<"users">): Promise<Doc<"profiles">> {
  const existing = await getProfile(ctx, userId);
  if (existing !== null) return existing;
  const user = await ctx.db.get("users", userId);
  const id = await ctx.db.insert("profiles", {
    userId,
    displayName: displayNameFor(user),
    weeklyGoalMinutes: DEFAULT_WEEKLY_GOAL_MINUTES,
    needsOnboarding: true,
    onboardingCompleted: false,
    isAdmin: isProvenAdminEmail(user),
  });
  return (await ctx.db.get("profiles", id))!;
}

/** The `profiles.me` view of a comedian; null when the account no longer exists. */
export async function getMe(ctx: QueryCtx, userId: Id<"users">): Promise<Me | null> {
  const [user, profile] = await Promise.all([ctx.db.get("users", userId), getProfile(ctx, userId)]);
  if (user === null) return null;
  const storedPhoto = profile?.photoStorageId ? await ctx.storage.getUrl(profile.photoStorageId) : null;
  return {
    userId,
    displayName: profile?.displayName ?? displayNameFor(user),
    email: user.email ?? null,
    // An uploaded photo wins over the one Google gave the account.
    photoUrl: storedPhoto ?? user.image ?? null,
    onboardingCompleted: profile?.onboardingCompleted ?? false,
    needsOnboarding: profile?.needsOnboarding ?? true,
    weeklyGoalMinutes: profile?.weeklyGoalMinutes ?? DEFAULT_WEEKLY_GOAL_MINUTES,
    defaultCity: profile?.defaultCity ?? null,
    isAdmin: profile?.isAdmin ?? false,
    memberSince: memberSinceOf(user, profile),
    hasProfile: profile !== null,
  };
}

/** Throws INVALID_INPUT unless `minutes` is a whole number from 1 to 100. */
export function assertWeeklyGoal(minutes: number): void {
  if (!isWeeklyGoal(minutes)) {
    throw appError(ErrorCode.INVALID_INPUT, `${INVALID_GOAL_TITLE} - ${INVALID_GOAL_MESSAGE}`);
  }
}

/**
 * Finishes onboarding in one write: both flags and the weekly goal. Creates
 * the profile first for an account that has none.
 */
export async function finishOnboarding(
  ctx: MutationCtx,
  userId: Id<"users">,
  weeklyGoalMinutes: number,
): Promise<void> {
  assertWeeklyGoal(weeklyGoalMinutes);
  const profile = await createProfileIfMissing(ctx, userId);
  await ctx.db.patch("profiles", profile._id, {
    needsOnboarding: false,
    onboardingCompleted: true,
    weeklyGoalMinutes,
  });
}

/** Who `admin:setAdmin` should change: an email, a user id, or both. */
export type AdminTarget = { email?: string; userId?: Id<"users"> };

/**
 * Grants or revokes admin rights on exactly one account, named by user id or
 * by an email only one account has (a Google and a password account with the
 * same address are two users: an email they share names neither, and the
 * caller must pass the user id). Creates a missing profile. Returns the
 * account changed; NOT_FOUND or INVALID_INPUT (with the candidate ids) otherwise.
 */
export async function setAdminFor(
  ctx: MutationCtx,
  target: AdminTarget,
  admin: boolean,
): Promise<{ userId: Id<"users">; email: string | null }> {
  let user: Doc<"users"> | null;
  if (target.userId !== undefined) {
    user = await ctx.db.get("users", target.userId);
    if (user === null) throw appError(ErrorCode.NOT_FOUND, `No account with the id ${target.userId}.`);
    if (target.email !== undefined && normalizeEmail(user.email ?? "") !== normalizeEmail(target.email)) {
      throw appError(ErrorCode.INVALID_INPUT, `Account ${target.userId} does not have the email ${target.email}.`);
    }
  } else if (target.email !== undefined) {
    const email = normalizeEmail(target.email);
    const users = await ctx.db
      .query("users")
      .withIndex("email", (q) => q.eq("email", email))
      .take(10);
    if (users.length === 0) throw appError(ErrorCode.NOT_FOUND, `No account with the email ${email}.`);
    if (users.length > 1) {
      throw appError(
        ErrorCode.INVALID_INPUT,
        `${users.length} accounts use the email ${email} (${users.map((u) => u._id).join(", ")}); name one with "userId".`,
      );
    }
    user = users[0];
  } else {
    throw appError(ErrorCode.INVALID_INPUT, 'Name the account with "email" or "userId".');
  }
  const profile = await createProfileIfMissing(ctx, user._id);
  await ctx.db.patch("profiles", profile._id, { isAdmin: admin });
  return { userId: user._id, email: user.email ?? null };
}

export { MAX_DEFAULT_CITY_LENGTH, MAX_DISPLAY_NAME_LENGTH } from "../lib/profileRules";
export { MAX_PHOTO_BYTES, NOT_AN_IMAGE_MESSAGE, PHOTO_TOO_LARGE_MESSAGE };

/** What the profile form saves (`profiles.update`). */
export const profileUpdateValidator = v.object({
  displayName: v.string(),
  weeklyGoalMinutes: v.number(),
  /** Absent or blank clears the default city. */
  defaultCity: v.optional(v.string()),
});
export type ProfileUpdate = Infer<typeof profileUpdateValidator>;

/**
 * Saves the profile form: a trimmed display name of 1 to 60 characters, a
 * whole weekly goal from 1 to 1000 minutes and an optional default city of at
 * most 80 characters (blank clears it). Creates the profile for an account
 * that has none.
 */
export async function updateProfile(ctx: MutationCtx, userId: Id<"users">, update: ProfileUpdate): Promise<void> {
  if (update.displayName.trim().length > MAX_DISPLAY_NAME_LENGTH) {
    throw appError(ErrorCode.INVALID_INPUT, `Display name must be ${MAX_DISPLAY_NAME_LENGTH} characters or fewer.`);
  }
  const displayName = typedStageName(update.displayName);
  if (displayName === undefined) throw appError(ErrorCode.INVALID_INPUT, "Display name is required.");
  const goal = update.weeklyGoalMinutes;
  if (!isWeeklyGoal(goal, PROFILE_MAX_WEEKLY_GOAL_MINUTES)) {
    throw appError(ErrorCode.INVALID_INPUT, PROFILE_GOAL_SERVER_MESSAGE);
  }
  const city = update.defaultCity?.trim() ?? "";
  if (city.length > MAX_DEFAULT_CITY_LENGTH) {
    throw appError(ErrorCode.INVALID_INPUT, `Default city must be ${MAX_DEFAULT_CITY_LENGTH} characters or fewer.`);
  }
  assertNoControlCharacters(city, { label: "Default city" });
  const profile = await createProfileIfMissing(ctx, userId);
  await ctx.db.patch("profiles", profile._id, {
    displayName,
    weeklyGoalMinutes: goal,
    defaultCity: city === "" ? undefined : city,
  });
}

/**
 * Sets the comedian's stage name (the live list's prompt before a first
 * sign-up): normalised, 1 to 60 characters, no control characters, not the
 * default. Creates the profile for an account that has none.
 */
export async function setStageName(ctx: MutationCtx, userId: Id<"users">, raw: string): Promise<string> {
  if (raw.trim().length > MAX_DISPLAY_NAME_LENGTH) {
    throw appError(ErrorCode.INVALID_INPUT, `Stage name must be ${MAX_DISPLAY_NAME_LENGTH} characters or fewer.`);
  }
  const name = typedStageName(raw, "Stage name");
  if (name === undefined) throw appError(ErrorCode.INVALID_INPUT, STAGE_NAME_EMPTY_MESSAGE);
  const profile = await createProfileIfMissing(ctx, userId);
  await ctx.db.patch("profiles", profile._id, { displayName: name });
  return name;
}

/** What `profiles.setPhoto` answers: saved, or refused with the message to show. */
export const setPhotoResultValidator = v.union(
  v.object({ ok: v.literal(true) }),
  v.object({ ok: v.literal(false), message: v.string() }),
);
export type SetPhotoResult = Infer<typeof setPhotoResultValidator>;

/**
 * Makes an uploaded file the comedian's photo. The file must be an image
 * under 5 MB (checked again here, since the browser's check can be skipped).
 * A refused file is deleted so it does not linger in storage; that is why a
 * refusal is an answer rather than a thrown error, which would roll the
 * deletion back. The previous photo is deleted.
 */
export async function setPhoto(
  ctx: MutationCtx,
  userId: Id<"users">,
  storageId: Id<"_storage">,
): Promise<SetPhotoResult> {
  const file = await ctx.db.system.get("_storage", storageId);
  if (file === null) throw appError(ErrorCode.NOT_FOUND, "The uploaded photo was not found.");
  const refusal = !isAllowedPhotoType(file.contentType)
    ? NOT_AN_IMAGE_MESSAGE
    : file.size >= MAX_PHOTO_BYTES
      ? PHOTO_TOO_LARGE_MESSAGE
      : null;
  if (refusal !== null) {
    await ctx.storage.delete(storageId);
    return { ok: false, message: refusal };
  }
  // Storage ids show in photo URLs: claiming someone else's photo would let a
  // later photo change delete their file.
  const owner = await ctx.db
    .query("profiles")
    .withIndex("by_photoStorageId", (q) => q.eq("photoStorageId", storageId))
    .first();
  if (owner !== null && owner.userId !== userId) {
    throw appError(ErrorCode.FORBIDDEN, "That photo belongs to another comedian.");
  }
  const profile = await createProfileIfMissing(ctx, userId);
  const previous = profile.photoStorageId;
  await ctx.db.patch("profiles", profile._id, { photoStorageId: storageId });
  if (previous !== undefined && previous !== storageId) {
    // The old file may already be gone; that is fine.
    const old = await ctx.db.system.get("_storage", previous);
    if (old !== null) await ctx.storage.delete(previous);
  }
  return { ok: true };
}

/** "Member since": the profile's date where it has one, else when the account was made. */
export function memberSinceOf(
  user: { _creationTime: number } | null,
  profile: { _creationTime: number; memberSince?: number } | null,
): number {
  return profile?.memberSince ?? user?._creationTime ?? profile?._creationTime ?? 0;
}
