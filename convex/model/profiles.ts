import { v, type Infer } from "convex/values";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { appError, ErrorCode } from "../errors";
import { onComedianCreated } from "./stats";

/** Weekly goal every new comedian starts with. */
export const DEFAULT_WEEKLY_GOAL_MINUTES = 15;
/** Bounds of the weekly goal set on the dashboard and in onboarding. */
export const MIN_WEEKLY_GOAL_MINUTES = 1;
export const MAX_WEEKLY_GOAL_MINUTES = 100;

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

/** The name shown for an account: its name, else the part of its email before "@". */
export function displayNameFor(user: Pick<Doc<"users">, "name" | "email"> | null): string {
  const name = user?.name?.trim();
  if (name) return name;
  const local = user?.email?.split("@")[0]?.trim();
  return local ? local : "Comedian";
}

/** The comedian's profile row, or null. */
export async function getProfile(
  ctx: QueryCtx,
  userId: Id<"users">,
): Promise<Doc<"profiles"> | null> {
  return await ctx.db
    .query("profiles")
    .withIndex("by_userId", (q) => q.eq("userId", userId))
    .unique();
}

/** The comedian's profile row; throws NOT_FOUND when it is missing. */
export async function requireProfile(
  ctx: QueryCtx,
  userId: Id<"users">,
): Promise<Doc<"profiles">> {
  const profile = await getProfile(ctx, userId);
  if (profile === null) throw appError(ErrorCode.NOT_FOUND, "Profile not found.");
  return profile;
}

/**
 * Creates the profile of a new comedian (needs onboarding, goal 15, admin iff
 * the email is in ADMIN_EMAILS) and counts them on the landing page. Returns the
 * existing profile instead when there is one, so it is safe to call twice.
 */
export async function createProfileIfMissing(
  ctx: MutationCtx,
  userId: Id<"users">,
): Promise<Doc<"profiles">> {
  const existing = await getProfile(ctx, userId);
  if (existing !== null) return existing;
  const user = await ctx.db.get("users", userId);
  const id = await ctx.db.insert("profiles", {
    userId,
    displayName: displayNameFor(user),
    weeklyGoalMinutes: DEFAULT_WEEKLY_GOAL_MINUTES,
    needsOnboarding: true,
    onboardingCompleted: false,
    isAdmin: isAdminEmail(user?.email),
  });
  await onComedianCreated(ctx);
  return (await ctx.db.get("profiles", id))!;
}

/** The `profiles.me` view of a comedian; null when the account no longer exists. */
export async function getMe(ctx: QueryCtx, userId: Id<"users">): Promise<Me | null> {
  const [user, profile] = await Promise.all([
    ctx.db.get("users", userId),
    getProfile(ctx, userId),
  ]);
  if (user === null) return null;
  const storedPhoto = profile?.photoStorageId
    ? await ctx.storage.getUrl(profile.photoStorageId)
    : null;
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
    memberSince: user._creationTime,
    hasProfile: profile !== null,
  };
}

/** Whether the comedian is an admin; false without a profile. */
export async function isAdmin(ctx: QueryCtx, userId: Id<"users">): Promise<boolean> {
  const profile = await getProfile(ctx, userId);
  return profile?.isAdmin === true;
}

/** Throws INVALID_INPUT unless `minutes` is a whole number from 1 to 100. */
export function assertWeeklyGoal(minutes: number): void {
  if (
    !Number.isInteger(minutes) ||
    minutes < MIN_WEEKLY_GOAL_MINUTES ||
    minutes > MAX_WEEKLY_GOAL_MINUTES
  ) {
    throw appError(
      ErrorCode.INVALID_INPUT,
      "Invalid goal - Please enter a goal between 1 and 100 minutes.",
    );
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

/**
 * Grants or revokes admin rights by account email (every account with that
 * email: a Google and a password account are separate users). Returns how many
 * accounts changed; 0 when none has that email. Creates missing profiles.
 */
export async function setAdminByEmail(
  ctx: MutationCtx,
  email: string,
  admin: boolean,
): Promise<number> {
  const users = await ctx.db
    .query("users")
    .withIndex("email", (q) => q.eq("email", normalizeEmail(email)))
    .take(10);
  for (const user of users) {
    const profile = await createProfileIfMissing(ctx, user._id);
    await ctx.db.patch("profiles", profile._id, { isAdmin: admin });
  }
  return users.length;
}
