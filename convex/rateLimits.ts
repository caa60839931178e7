import { HOUR, MINUTE, RateLimiter, type RateLimitConfig } from "@convex-dev/rate-limiter";
import { components } from "./_generated/api";
import type { ActionCtx, MutationCtx } from "./_generated/server";
import { appError, ErrorCode } from "./errors";

// Every rate limit of the app, kept by @convex-dev/rate-limiter (transactional with the mutation
// that takes a token: a failing mutation gives it back). Token buckets: capacity = burst, rate = pace.

/** Wrong passwords one account takes before it waits. */
export const SIGN_IN_ATTEMPTS = 10;
/** Time for the per-account sign-in bucket to refill completely (one attempt every 2 minutes). */
export const SIGN_IN_REFILL_PERIOD_MS = 20 * MINUTE;

/** Shards of each site-wide bucket: one row every stranger writes would be a write-conflict hot spot.
 * A call takes from the fuller of two random shards, so a sharded bucket refuses near its capacity. */
export const SITE_WIDE_SHARDS = 20;

export const rateLimiter = new RateLimiter(components.rateLimiter, {
  // One mic a night; 10 leaves room for retries with a poor GPS fix and stops a script sweeping every mic.
  checkIn: { kind: "token bucket", rate: 10, period: MINUTE, capacity: 10 },
  // A producer entering a season of shows in one sitting (the wizard's new-mic path spends it too).
  createMic: { kind: "token bucket", rate: 20, period: 24 * HOUR, capacity: 10 },
  // Reports and claims go to a human admin queue, which floods otherwise; a claim is rare.
  problemReport: { kind: "token bucket", rate: 10, period: HOUR, capacity: 10 },
  micClaim: { kind: "token bucket", rate: 5, period: 24 * HOUR, capacity: 5 },
  // Taken with signUp, so one address cannot be hashed in a loop (sign up, delete the account, again).
  signUpEmail: { kind: "token bucket", rate: 5, period: HOUR, capacity: 5 },
  // An upload URL takes up to 10 MiB and an unattached file lives an hour: unlimited, one account fills the disk.
  photoUpload: { kind: "token bucket", rate: 10, period: HOUR, capacity: 10 },
  // One or two lists a night, with room to drop out and sign up again; each sign-up reorders it for every watcher.
  listSignUp: { kind: "token bucket", rate: 20, period: HOUR, capacity: 20 },
  // The lockout: taken before the password is checked, refilled by a right one. At most ~730 guesses a day,
  // and the owner waits 2 minutes, not an hour. Unknown emails share UNKNOWN_EMAIL_BUCKETS rows (tells nothing).
  signInAccount: { kind: "token bucket", rate: 10, period: SIGN_IN_REFILL_PERIOD_MS, capacity: 10 },
  // Site-wide: each check hashes (~300 ms), so this caps hashing at a third of a core and bounds spraying.
  // Taken atomically before hashing (never given back); an unknown email hashes nothing and takes none.
  signInFailed: { kind: "token bucket", rate: 60, period: MINUTE, capacity: 60, shards: SITE_WIDE_SHARDS },
  // Back-filling a month from a notebook is 150 sets; then one a minute. A script gets ~1,600 a day, not 100,000.
  logSet: { kind: "token bucket", rate: 60, period: HOUR, capacity: 150 },
  // An edit moves the same derived rows and totals and, unlike a new set, repeats forever on one set.
  // (Deletes need a logged set first; favourites, schedule, goal and profile write only the author's rows.)
  editSet: { kind: "token bucket", rate: 60, period: HOUR, capacity: 60 },
  // Attempts an address makes past an empty signInFailed: whoever keeps it empty still cannot lock out an
  // account that has not failed 3 times this hour. Unknown emails are answered the same.
  signInOverCeiling: { kind: "token bucket", rate: 3, period: HOUR, capacity: 3 },
  // A backstop, not a pace: each anonymous start writes an authVerifiers row the cron deletes 20 minutes on
  // (~31,000 rows at most); high, so keeping it empty for everyone takes a sustained flood.
  googleSignInStart: { kind: "token bucket", rate: 1000, period: MINUTE, capacity: 1000, shards: 10 },
  // Linking Google from a signed-in session: one session cannot use up the site-wide starts.
  googleSignInSession: { kind: "token bucket", rate: 10, period: HOUR, capacity: 10 },
  // Codes sent to one address (no inbox flooding), and codes tried for it (far below guessing 8 digits in 15 min).
  passwordResetEmail: { kind: "token bucket", rate: 3, period: HOUR, capacity: 3 },
  passwordResetCode: { kind: "token bucket", rate: 10, period: HOUR, capacity: 10 },
  // Private rows kept for good: copying a notebook is a few hundred bits; a set list or two a night.
  createBit: { kind: "token bucket", rate: 300, period: 24 * HOUR, capacity: 300 },
  createSetList: { kind: "token bucket", rate: 100, period: 24 * HOUR, capacity: 100 },
  // A new list lead time rewrites a follower row per followed mic in the background: a few changes an hour.
  listLeadChange: { kind: "token bucket", rate: 10, period: HOUR, capacity: 10 },
  // A device subscribes once; a script re-subscribing churns rows and deliveries.
  pushSubscribe: { kind: "token bucket", rate: 10, period: HOUR, capacity: 10 },
  // Public season links: made by their owner; opened by strangers (site-wide, sharded, and per link).
  seasonShare: { kind: "token bucket", rate: 20, period: 24 * HOUR, capacity: 20 },
  seasonShareOpen: { kind: "token bucket", rate: 600, period: MINUTE, capacity: 600, shards: 10 },
  seasonShareOpenLink: { kind: "token bucket", rate: 60, period: MINUTE, capacity: 60 },
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
  | "signInOverCeiling"
  | "signInSucceeded"
  | "googleSignInStart"
  | "googleSignInSession"
  | "passwordResetEmail"
  | "passwordResetCode"
  | "createBit"
  | "createSetList"
  | "pushSubscribe"
  | "listLeadChange"
  | "seasonShare"
  | "seasonShareOpen"
  | "seasonShareOpenLink";

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
  signInSucceeded: (ms) => `Too many sign-ins on this account. Please try again in ${waitText(ms)}.`,
  googleSignInStart: () => "Too many sign-ins right now. Please try again in a few minutes.",
  googleSignInSession: (ms) => `Too many Google sign-ins. Please try again in ${waitText(ms)}.`,
  passwordResetEmail: (ms) => `Too many reset codes for this email. Please try again in ${waitText(ms)}.`,
  passwordResetCode: (ms) => `Too many wrong codes. Please try again in ${waitText(ms)}.`,
  createBit: (ms) => `You have added a lot of bits today. Please try again in ${waitText(ms)}.`,
  createSetList: (ms) => `You have made a lot of set lists today. Please try again in ${waitText(ms)}.`,
  pushSubscribe: (ms) => `Too many notification sign-ups. Please try again in ${waitText(ms)}.`,
  listLeadChange: (ms) => `You have changed your list reminders a lot. Please try again in ${waitText(ms)}.`,
  seasonShare: (ms) => `You have made a lot of season links today. Please try again in ${waitText(ms)}.`,
  seasonShareOpen: () => "This page is busy right now. Please try again in a minute.",
  seasonShareOpenLink: () => "This link has been opened a lot. Please try again in a minute.",
};

const DEFAULT_SIGN_UPS_PER_MINUTE = 30;

/** The site-wide sign-up bucket: 30 a minute unless the deployment's SIGN_UP_LIMIT_PER_MINUTE says
 * otherwise (read per call). Each sign-up hashes (~300 ms), so 30 is ~15% of a core; only one about to
 * hash takes a token. The action sees no client address: telling people from scripts needs a CAPTCHA. */
export function signUpConfig(): RateLimitConfig {
  const raw = Number(process.env.SIGN_UP_LIMIT_PER_MINUTE);
  const perMinute = Number.isFinite(raw) && raw >= 1 ? Math.min(Math.floor(raw), 100_000) : DEFAULT_SIGN_UPS_PER_MINUTE;
  // 3 tokens a shard at least (fewer refuse too early: at 1.5 a shard the default 30 refused
  // after 15); under 3 shards the limiter reads one shard only, so a limit that low stays one row.
  const fitting = Math.min(SITE_WIDE_SHARDS, Math.floor(perMinute / 3));
  const shards = fitting < 3 ? 1 : fitting;
  return { kind: "token bucket", rate: perMinute, period: MINUTE, capacity: perMinute, shards };
}

const DEFAULT_SIGN_INS_PER_HOUR = 30;

/** The per-account successful sign-in bucket: 10 at once, then 30 an hour (a right password refills the
 * lockout buckets, so this stops a sign-in loop), unless SIGN_IN_SUCCESS_LIMIT_PER_HOUR says otherwise. */
export function signInSucceededConfig(): RateLimitConfig {
  const raw = Number(process.env.SIGN_IN_SUCCESS_LIMIT_PER_HOUR);
  if (!Number.isFinite(raw) || raw < 1) {
    return { kind: "token bucket", rate: DEFAULT_SIGN_INS_PER_HOUR, period: HOUR, capacity: 10 };
  }
  const perHour = Math.min(Math.floor(raw), 100_000);
  return { kind: "token bucket", rate: perHour, period: HOUR, capacity: perHour };
}

/** The limits whose numbers a deployment may change, read per call (so `env set` applies at once). */
const INLINE_CONFIGS: Partial<Record<RateLimitName, () => RateLimitConfig>> = {
  signUp: signUpConfig,
  signInSucceeded: signInSucceededConfig,
};

/**
 * Consumes one token of `name` for `key` (none for a site-wide limit), or
 * throws a RATE_LIMITED ConvexError with the message above and `retryAfterMs`.
 */
export async function enforceRateLimit(ctx: MutationCtx | ActionCtx, name: RateLimitName, key?: string): Promise<void> {
  const inline = INLINE_CONFIGS[name];
  const options = { ...(key === undefined ? {} : { key }), ...(inline ? { config: inline() } : {}) };
  const status = await rateLimiter.limit(ctx, name, options);
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

/** How many keys the sign-in limits of all unknown email addresses share. */
export const UNKNOWN_EMAIL_BUCKETS = 1024;

/**
 * The sign-in limits' key for an address no account has: one of
 * {@link UNKNOWN_EMAIL_BUCKETS} (FNV-1a of the address), so made-up emails add
 * at most that many rows per limit. Addresses in one bucket share its
 * attempts; none of them has an account to protect.
 */
export function unknownEmailKey(email: string): string {
  const address = signInKey(email);
  let hash = 0x811c9dc5;
  for (let i = 0; i < address.length; i++) hash = Math.imul(hash ^ address.charCodeAt(i), 0x01000193);
  return `unknown:${(hash >>> 0) % UNKNOWN_EMAIL_BUCKETS}`;
}

function refuseSignIn(limit: RateLimitName, retryAfterMs: number): never {
  throw appError(ErrorCode.RATE_LIMITED, SIGN_IN_LIMITED_MESSAGE, { limit, retryAfterMs: Math.ceil(retryAfterMs) });
}

/** Before a password is checked (sign-in, or sign-up on an existing email): the lockout policy's limits above. */
export async function limitSignInAttempt(ctx: ActionCtx, email: string, realAccount: boolean): Promise<void> {
  const key = realAccount ? signInKey(email) : unknownEmailKey(email);
  // Refused while the address is locked, nothing taken.
  const account = await rateLimiter.check(ctx, "signInAccount", { key });
  if (!account.ok) refuseSignIn("signInAccount", account.retryAfter);
  // A real account (it will hash) takes a site-wide token at once, atomically, so parallel attempts cannot all pass;
  // an unknown email only looks at the ceiling. Past the ceiling, only the address's signInOverCeiling attempts.
  const site = realAccount
    ? await rateLimiter.limit(ctx, "signInFailed")
    : await rateLimiter.check(ctx, "signInFailed");
  if (!site.ok && !(await rateLimiter.limit(ctx, "signInOverCeiling", { key })).ok) {
    refuseSignIn("signInFailed", site.retryAfter);
  }
  await enforceRateLimit(ctx, "signInAccount", key); // atomic: parallel guesses cannot overrun it
}

/**
 * The right password, before its session is made: takes one of the account's
 * signInSucceeded tokens or is refused (see above).
 */
export async function limitSuccessfulSignIn(ctx: ActionCtx, email: string): Promise<void> {
  await enforceRateLimit(ctx, "signInSucceeded", signInKey(email));
}

/** The right password: the account's attempts, and those past the ceiling, are full again. */
export async function clearSignInAttempts(ctx: ActionCtx, email: string): Promise<void> {
  const key = signInKey(email);
  await rateLimiter.reset(ctx, "signInAccount", { key });
  await rateLimiter.reset(ctx, "signInOverCeiling", { key });
}

/**
 * A Google sign-in start, in the mutation that writes its `authVerifiers` row
 * (auth.ts), so a refused start writes nothing: the signed-in session's
 * googleSignInSession token (when there is a session), then a site-wide
 * googleSignInStart token.
 */
export async function limitGoogleSignInStart(ctx: MutationCtx, sessionId: string | null): Promise<void> {
  if (sessionId !== null) await enforceRateLimit(ctx, "googleSignInSession", sessionId);
  await enforceRateLimit(ctx, "googleSignInStart");
}

/**
 * A password reset for an address (known or not, so the answer tells nothing): a code sent
 * ("reset", 3 an hour) or a code tried ("reset-verification", 10 an hour), per address.
 */
export async function limitPasswordReset(ctx: ActionCtx, email: string, step: "send" | "verify"): Promise<void> {
  await enforceRateLimit(ctx, step === "send" ? "passwordResetEmail" : "passwordResetCode", signInKey(email));
}
