import { HOUR, MINUTE, RateLimiter, type RateLimitConfig } from "@convex-dev/rate-limiter";
import { components } from "./_generated/api";
import type { ActionCtx, MutationCtx } from "./_generated/server";
import { appError, ErrorCode } from "./errors";

/**
 * Every rate limit of the app, in one place, kept by the `@convex-dev/rate-limiter`
 * component (its own tables, transactional with the mutation that consumes it:
 * a mutation that fails afterwards gives its token back, and a refused call
 * writes nothing). Token buckets: `capacity` is the burst, `rate` per `period`
 * the sustained pace.
 *
 * Why these numbers:
 * - checkIn (per comedian): 10 a minute, as before. A comedian checks in at one
 *   mic a night; 10 leaves room for retries with a poor GPS fix, and stops a
 *   script from sweeping every mic.
 * - createMic (per comedian): 10 at once, then 20 a day. Enough for a producer
 *   entering a season of shows in one sitting; 100 mics in 1.6 s is not. The
 *   log wizard's new-mic path spends it too when it adds a mic to the scene.
 * - problemReport (per comedian): 10 at once, 10 an hour. Reports go to a human
 *   admin queue, which floods otherwise.
 * - micClaim (per comedian): 5 at once, 5 a day. A claim is rare (you run a
 *   mic) and each one is reviewed by an admin.
 * - signUp (whole site, anonymous): 30 at once, 30 a minute. Each sign-up hashes
 *   a password (~300 ms of the backend's time); this bounds that to about 15%
 *   of one core while a real launch-day burst still gets through. Only a
 *   sign-up that is about to hash takes a token: one refused by the cheap
 *   checks first (lengths, email, password rules, an existing account) costs
 *   nothing and spends nothing, so junk sign-ups cannot use up real ones'
 *   allowance. (A sign-up on an existing account checks the password against
 *   it, so it is a sign-in attempt: the sign-in limits below apply instead.)
 *   A deployment may set SIGN_UP_LIMIT_PER_MINUTE (test deployments that sign
 *   up a hundred comedians at once do), so this one is given inline
 *   ({@link signUpConfig}).
 * - signUpEmail (per email address): 5 an hour, taken with signUp, so one
 *   address cannot be hashed in a loop (sign up, delete the account, again).
 * - photoUpload (per user): 10 at once, 10 an hour. Each upload URL takes one
 *   file of up to 10 MiB and an unattached upload is only deleted by a cron
 *   after an hour, so without a limit one account could fill the disk; a
 *   person changing their photo needs a handful.
 * - listSignUp (per comedian): 20 at once, 20 an hour. A comedian signs up for
 *   one or two live lists a night; 20 leaves room for signing up, dropping out
 *   and signing up again, and stops a script churning a list (each sign-up
 *   reorders it for everyone watching).
 * - signInAccount (per email address, password sign-in): 10 at once, then one
 *   more every 2 minutes (10 per 20 minutes). Every attempt takes a token
 *   before the password is checked, and a right password gives the account a
 *   full bucket again. This is the lockout policy: it stops online guessing
 *   (at most ~730 guesses a day on one account) but cannot keep the owner out
 *   for long. After 10 wrong passwords the owner waits 2 minutes, not an hour,
 *   and whoever wants to keep them out must keep spending an attempt every 2
 *   minutes, which the site-wide ceiling below bounds. Unknown emails are
 *   counted the same, so the answer never tells which accounts exist.
 * - signInFailed (whole site): 60 wrong passwords at once, 60 a minute. Each
 *   check hashes (~300 ms); this caps the backend time spent on wrong
 *   passwords at about a third of one core and throttles spraying many
 *   accounts (with it, one attacker holds at most ~130 accounts locked). Only
 *   wrong passwords on real accounts spend it: an unknown email hashes
 *   nothing, so a stranger cannot empty it with made-up addresses. While it
 *   is empty, an address may still make signInOverCeiling attempts; after
 *   those, its password sign-ins wait a few seconds.
 * - signInOverCeiling (per email address): 3 at once, 3 an hour: the attempts
 *   an address makes past an empty site-wide ceiling (a right password gives
 *   them back). The ceiling bounds hashing, but must not become a way to keep
 *   everyone out: someone who keeps it empty (wrong passwords on accounts of
 *   their own) still cannot refuse an account that has not failed 3 times in
 *   the last hour, and the hashing it lets through is bounded by 3 an hour
 *   for each real address the attacker names. Unknown emails are answered
 *   the same (refused after 3), so this too tells nothing about which exist.
 * - logSet (per comedian; the log wizard, its new-mic path and onboarding's
 *   first set): 150 at once, then 60 an hour (one a minute). Each set moves
 *   the comedian's userStats, performanceDays and venueVisits rows and the
 *   community minutes every visitor's landing page subscribes to. A real night
 *   is a few sets; the largest real burst is back-filling a past month from a
 *   notebook in one sitting (sets may be dated any day up to today): five sets
 *   a night for 30 nights is 150. Each set is one pass through the wizard
 *   (venue, event, details: half a minute at the very least) and the bucket
 *   refills one a minute meanwhile, so even a sitting at that pace lasts
 *   150 minutes and 300 sets before a wait. A script is held to ~1,600 sets
 *   a day instead of 100,000.
 * - editSet (per comedian; the history page's edit dialog): 60 at once, then
 *   60 an hour. An edit moves the same derived rows and community total, and
 *   unlike a new set it can be repeated forever on one set. Fixing every set
 *   of a month's back-fill is well under 60 dialogs at a human pace with the
 *   refill. Deleting a set is not limited: each delete needs a set logged
 *   first, so logSet bounds it. Favourites, schedule entries, the weekly goal
 *   and the profile form write only the comedian's own rows (no totals, and
 *   no other user's query reads them: a live list copies the name at sign-up),
 *   so a loop there costs only its author, within the argument caps.
 */
/** Wrong passwords one account takes before it waits. */
export const SIGN_IN_ATTEMPTS = 10;
/** Time for the per-account sign-in bucket to refill completely (one attempt every 2 minutes). */
export const SIGN_IN_REFILL_PERIOD_MS = 20 * MINUTE;

export const rateLimiter = new RateLimiter(components.rateLimiter, {
  checkIn: { kind: "token bucket", rate: 10, period: MINUTE, capacity: 10 },
  createMic: { kind: "token bucket", rate: 20, period: 24 * HOUR, capacity: 10 },
  problemReport: { kind: "token bucket", rate: 10, period: HOUR, capacity: 10 },
  micClaim: { kind: "token bucket", rate: 5, period: 24 * HOUR, capacity: 5 },
  signUpEmail: { kind: "token bucket", rate: 5, period: HOUR, capacity: 5 },
  photoUpload: { kind: "token bucket", rate: 10, period: HOUR, capacity: 10 },
  listSignUp: { kind: "token bucket", rate: 20, period: HOUR, capacity: 20 },
  signInAccount: { kind: "token bucket", rate: 10, period: SIGN_IN_REFILL_PERIOD_MS, capacity: 10 },
  signInFailed: { kind: "token bucket", rate: 60, period: MINUTE, capacity: 60 },
  logSet: { kind: "token bucket", rate: 60, period: HOUR, capacity: 150 },
  editSet: { kind: "token bucket", rate: 60, period: HOUR, capacity: 60 },
  signInOverCeiling: { kind: "token bucket", rate: 3, period: HOUR, capacity: 3 },
});

export type RateLimitName =
  | "checkIn"
  | "createMic"
  | "problemReport"
  | "micClaim"
  | "signUp"
  | "signUpEmail"
  | "photoUpload"
  | "listSignUp"
  | "signInAccount"
  | "signInFailed"
  | "logSet"
  | "editSet"
  | "signInOverCeiling";

/** The spec's text for a sign-in refused by either sign-in limit; the wait travels as `retryAfterMs`. */
export const SIGN_IN_LIMITED_MESSAGE = "Too many failed attempts. Please try again later.";

/** "a minute", "3 minutes", "2 hours": when to try again, for the messages below. */
export function waitText(retryAfterMs: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / MINUTE));
  if (minutes < 60) return minutes === 1 ? "a minute" : `${minutes} minutes`;
  const hours = Math.ceil(minutes / 60);
  return hours === 1 ? "an hour" : `${hours} hours`;
}

/** What the user reads when a limit refuses them. */
export const RATE_LIMIT_MESSAGES: Record<RateLimitName, (retryAfterMs: number) => string> = {
  checkIn: () => "Too many check-ins. Please wait a minute and try again.",
  createMic: (ms) => `You have added a lot of events today. Please try again in ${waitText(ms)}.`,
  problemReport: (ms) => `Too many reports. Please try again in ${waitText(ms)}.`,
  micClaim: (ms) => `Too many claims. Please try again in ${waitText(ms)}.`,
  signUp: () => "Too many sign-ups right now. Please try again in a few minutes.",
  signUpEmail: (ms) => `Too many sign-up attempts for this email. Please try again in ${waitText(ms)}.`,
  photoUpload: (ms) => `Too many photo uploads. Please try again in ${waitText(ms)}.`,
  listSignUp: (ms) => `Too many list sign-ups. Please try again in ${waitText(ms)}.`,
  signInAccount: () => SIGN_IN_LIMITED_MESSAGE,
  signInFailed: () => SIGN_IN_LIMITED_MESSAGE,
  logSet: (ms) => `You have logged a lot of sets at once. Please try again in ${waitText(ms)}.`,
  editSet: (ms) => `Too many edits. Please try again in ${waitText(ms)}.`,
  signInOverCeiling: () => SIGN_IN_LIMITED_MESSAGE,
};

const DEFAULT_SIGN_UPS_PER_MINUTE = 30;

/** The site-wide sign-up bucket: 30 a minute unless the deployment's
 * SIGN_UP_LIMIT_PER_MINUTE says otherwise (read per call, so `env set` applies at once). */
export function signUpConfig(): RateLimitConfig {
  const raw = Number(process.env.SIGN_UP_LIMIT_PER_MINUTE);
  const perMinute = Number.isFinite(raw) && raw >= 1 ? Math.min(Math.floor(raw), 100_000) : DEFAULT_SIGN_UPS_PER_MINUTE;
  return { kind: "token bucket", rate: perMinute, period: MINUTE, capacity: perMinute };
}

/**
 * Consumes one token of `name` for `key` (none for a site-wide limit), or
 * throws a RATE_LIMITED ConvexError with the message above and `retryAfterMs`.
 */
export async function enforceRateLimit(ctx: MutationCtx | ActionCtx, name: RateLimitName, key?: string): Promise<void> {
  const status =
    name === "signUp"
      ? await rateLimiter.limit(ctx, name, { config: signUpConfig() })
      : await rateLimiter.limit(ctx, name, key === undefined ? {} : { key });
  if (!status.ok) {
    throw appError(ErrorCode.RATE_LIMITED, RATE_LIMIT_MESSAGES[name](status.retryAfter), {
      limit: name,
      retryAfterMs: Math.ceil(status.retryAfter),
    });
  }
}

/**
 * A password sign-up that is about to hash a new password: limited site-wide,
 * then per email address. Called from the Password provider's `authorize`
 * (auth.ts) after the cheap checks; the tokens are taken in their own
 * transaction, so a sign-up that fails after hashing counts too.
 */
export async function limitSignUp(ctx: ActionCtx, email: string): Promise<void> {
  await enforceRateLimit(ctx, "signUp");
  await enforceRateLimit(ctx, "signUpEmail", signInKey(email));
}

/** The per-address key of the sign-up and sign-in limits: the email as the provider stores it. */
function signInKey(email: string): string {
  return email.trim().toLowerCase().slice(0, 320);
}

/**
 * Before a password is checked against an account (sign-in, or sign-up on an
 * existing email): refused while the account is locked (nothing taken); while
 * the site-wide failure ceiling is empty, takes one of the address's
 * signInOverCeiling attempts or is refused; then takes one of the account's
 * attempts (atomically, so parallel guesses cannot overrun it). See
 * signInAccount, signInFailed and signInOverCeiling above.
 */
export async function limitSignInAttempt(ctx: ActionCtx, email: string): Promise<void> {
  const key = signInKey(email);
  const account = await rateLimiter.check(ctx, "signInAccount", { key });
  if (!account.ok) {
    throw appError(ErrorCode.RATE_LIMITED, SIGN_IN_LIMITED_MESSAGE, {
      limit: "signInAccount",
      retryAfterMs: Math.ceil(account.retryAfter),
    });
  }
  const site = await rateLimiter.check(ctx, "signInFailed");
  if (!site.ok && !(await rateLimiter.limit(ctx, "signInOverCeiling", { key })).ok) {
    throw appError(ErrorCode.RATE_LIMITED, SIGN_IN_LIMITED_MESSAGE, {
      limit: "signInFailed",
      retryAfterMs: Math.ceil(site.retryAfter),
    });
  }
  await enforceRateLimit(ctx, "signInAccount", key);
}

/** A wrong password checked against a real account (it was hashed): spends one of the site-wide failures. */
export async function recordFailedSignIn(ctx: ActionCtx): Promise<void> {
  await rateLimiter.limit(ctx, "signInFailed");
}

/** The right password: the account's attempts, and those past the ceiling, are full again. */
export async function clearSignInAttempts(ctx: ActionCtx, email: string): Promise<void> {
  const key = signInKey(email);
  await rateLimiter.reset(ctx, "signInAccount", { key });
  await rateLimiter.reset(ctx, "signInOverCeiling", { key });
}
