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
 *   nothing and spends nothing, so malformed junk cannot use up real ones'
 *   allowance. Well-formed junk (made-up addresses, 6+ character passwords)
 *   can: it creates real accounts and, at 30 a minute, keeps real sign-ups
 *   refused. The ceiling stays: the sign-in action sees no client address,
 *   so it is the only bound on the accounts and hashing a script creates;
 *   telling people from scripts needs a CAPTCHA or email verification
 *   (README). (A sign-up on an existing account checks the password against
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
 * - pushSubscribe (per comedian): 10 an hour. A device subscribes once when the
 *   comedian turns notifications on; more is a script churning subscriptions.
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
 *   counted the same, so the answer never tells which accounts exist; their
 *   rows are keyed by one of {@link UNKNOWN_EMAIL_BUCKETS} buckets of the
 *   address, not by the address, so made-up emails cannot add rows without
 *   end (the component never deletes a row on its own).
 * - signInFailed (whole site): 60 password checks at once, 60 a minute. Each
 *   check hashes (~300 ms); this caps the backend time spent checking
 *   passwords at about a third of one core and throttles spraying many
 *   accounts (with it, one attacker holds at most ~130 accounts locked). Every
 *   password checked against a real account takes its token atomically before
 *   it hashes (right or wrong; nothing is given back), so parallel attempts
 *   cannot all pass a check and hash. An unknown email hashes nothing and
 *   takes none, so a stranger cannot empty it with made-up addresses. While it
 *   is empty, an address may still make signInOverCeiling attempts; after
 *   those, its password sign-ins wait a few seconds.
 * - signInOverCeiling (per email address): 3 at once, 3 an hour: the attempts
 *   an address makes past an empty site-wide ceiling (a right password gives
 *   them back). The ceiling bounds hashing, but must not become a way to keep
 *   everyone out: someone who keeps it empty (wrong passwords on accounts of
 *   their own) still cannot refuse an account that has not failed 3 times in
 *   the last hour, and the hashing it lets through is bounded by 3 an hour
 *   for each real address the attacker names (plus signInSucceeded below for
 *   their own accounts). Unknown emails are answered the same (refused after
 *   3), so this too tells nothing about which exist.
 * - signInSucceeded (per email address): 10 right passwords at once, then 30
 *   an hour. A right password refills the two buckets above, so without this
 *   one account could sign in in a loop, each time a hashing and a new
 *   session row. A comedian signs in on a few devices, and now and then again
 *   after signing out; 10 at once and one every 2 minutes never refuses that.
 *   It is taken after the password is found right and before the session is
 *   made; refused, the attempt refills nothing, so the account's own bucket
 *   then runs down like wrong passwords do. A deployment may set
 *   SIGN_IN_SUCCESS_LIMIT_PER_HOUR (the end-to-end journeys sign the demo
 *   accounts in dozens of times in minutes), so it too is given inline
 *   ({@link signInSucceededConfig}).
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
 * - googleSignInStart (whole site): 1,000 Google sign-in starts at once, 1,000
 *   a minute: a high backstop, not a pace. Each start (`auth:signIn` with
 *   provider "google" and no code) is anonymous, costs a stranger one call,
 *   and writes an `authVerifiers` row (~100 bytes) that only the cron
 *   (authVerifiers.ts) deletes, 20 minutes on, every 10 minutes: this bounds
 *   those rows to about 31,000 (~3 MB; the last half hour's starts) however
 *   fast a script calls. The action sees no client address to key it by, so
 *   the bucket is shared: a script that keeps it empty (over 1,000 starts a
 *   minute, about 17 a second, for as long as it runs) refuses every Google
 *   sign-in start for everyone meanwhile. It is set high so that takes a
 *   sustained flood rather than a call a second (at the former 60 a minute,
 *   one burst and then a call a second did it); a real launch day's starts
 *   (each person starts once, or twice after a cancel) stay far under it.
 *   Password sign-in is not affected.
 * - googleSignInSession (per signed-in session): 10 starts at once, 10 an
 *   hour. A start from a signed-in session (linking Google to the account)
 *   has a key: one session cannot use up the site-wide starts on its own.
 * - passwordResetEmail (per email address, known or not): 3 codes at once, 3
 *   an hour, so a stranger cannot flood someone's inbox; passwordResetCode: 10
 *   codes tried an hour per address, far below what guessing an 8-digit code
 *   that lives 15 minutes would need.
 * - createBit (per comedian): 300 at once, 300 a day. Bits are private rows
 *   only their author reads, but each is stored for good: copying a whole
 *   notebook in one sitting is a few hundred; a script is held to 300 a day.
 * - createSetList (per comedian; new and duplicated set lists): 100 at once,
 *   100 a day. A comedian builds a set list or two a night.
 */
/** Wrong passwords one account takes before it waits. */
export const SIGN_IN_ATTEMPTS = 10;
/** Time for the per-account sign-in bucket to refill completely (one attempt every 2 minutes). */
export const SIGN_IN_REFILL_PERIOD_MS = 20 * MINUTE;

/**
 * Shards of each site-wide bucket (signUp, signInFailed, googleSignInStart):
 * one row that every stranger writes would be a write-conflict hot spot (50
 * sign-ups at once had 6 fail past Convex's retries). Each call takes from the
 * fuller of two random shards, so a sharded bucket refuses near its capacity
 * rather than at exactly it (each shard refills at its share of the rate).
 * googleSignInStart keeps the 10 it had. Per-user and per-address buckets stay one row.
 */
export const SITE_WIDE_SHARDS = 20;

export const rateLimiter = new RateLimiter(components.rateLimiter, {
  checkIn: { kind: "token bucket", rate: 10, period: MINUTE, capacity: 10 },
  createMic: { kind: "token bucket", rate: 20, period: 24 * HOUR, capacity: 10 },
  problemReport: { kind: "token bucket", rate: 10, period: HOUR, capacity: 10 },
  micClaim: { kind: "token bucket", rate: 5, period: 24 * HOUR, capacity: 5 },
  signUpEmail: { kind: "token bucket", rate: 5, period: HOUR, capacity: 5 },
  photoUpload: { kind: "token bucket", rate: 10, period: HOUR, capacity: 10 },
  listSignUp: { kind: "token bucket", rate: 20, period: HOUR, capacity: 20 },
  signInAccount: { kind: "token bucket", rate: 10, period: SIGN_IN_REFILL_PERIOD_MS, capacity: 10 },
  // Sharded like googleSignInStart: every password checked against a real account takes from it.
  signInFailed: { kind: "token bucket", rate: 60, period: MINUTE, capacity: 60, shards: SITE_WIDE_SHARDS },
  logSet: { kind: "token bucket", rate: 60, period: HOUR, capacity: 150 },
  editSet: { kind: "token bucket", rate: 60, period: HOUR, capacity: 60 },
  signInOverCeiling: { kind: "token bucket", rate: 3, period: HOUR, capacity: 3 },
  googleSignInStart: { kind: "token bucket", rate: 1000, period: MINUTE, capacity: 1000, shards: 10 },
  googleSignInSession: { kind: "token bucket", rate: 10, period: HOUR, capacity: 10 },
  // Password reset (auth.ts): codes sent to one address, and codes tried for it.
  passwordResetEmail: { kind: "token bucket", rate: 3, period: HOUR, capacity: 3 },
  passwordResetCode: { kind: "token bucket", rate: 10, period: HOUR, capacity: 10 },
  createBit: { kind: "token bucket", rate: 300, period: 24 * HOUR, capacity: 300 },
  createSetList: { kind: "token bucket", rate: 100, period: 24 * HOUR, capacity: 100 },
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
  seasonShare: (ms) => `You have made a lot of season links today. Please try again in ${waitText(ms)}.`,
  seasonShareOpen: () => "This page is busy right now. Please try again in a minute.",
  seasonShareOpenLink: () => "This link has been opened a lot. Please try again in a minute.",
};

const DEFAULT_SIGN_UPS_PER_MINUTE = 30;

/** The site-wide sign-up bucket: 30 a minute unless the deployment's
 * SIGN_UP_LIMIT_PER_MINUTE says otherwise (read per call, so `env set` applies at once). */
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

/** The per-account successful sign-in bucket: 10 at once, then 30 an hour, unless the
 * deployment's SIGN_IN_SUCCESS_LIMIT_PER_HOUR says otherwise (N at once, N an hour). */
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

/**
 * Before a password is checked (sign-in, or sign-up on an existing email):
 * refused while the address is locked (nothing taken). Against a real account
 * (`realAccount`: it will hash) takes a site-wide signInFailed token at once,
 * atomically, so parallel attempts cannot all pass; an unknown email only looks
 * at the ceiling. While the ceiling is empty, takes one of the address's
 * signInOverCeiling attempts or is refused. Then takes one of the address's
 * attempts (atomically, so parallel guesses cannot overrun it). Unknown
 * addresses are keyed by {@link unknownEmailKey}. See signInAccount,
 * signInFailed and signInOverCeiling above.
 */
export async function limitSignInAttempt(ctx: ActionCtx, email: string, realAccount: boolean): Promise<void> {
  const key = realAccount ? signInKey(email) : unknownEmailKey(email);
  const account = await rateLimiter.check(ctx, "signInAccount", { key });
  if (!account.ok) refuseSignIn("signInAccount", account.retryAfter);
  const site = realAccount
    ? await rateLimiter.limit(ctx, "signInFailed")
    : await rateLimiter.check(ctx, "signInFailed");
  if (!site.ok && !(await rateLimiter.limit(ctx, "signInOverCeiling", { key })).ok) {
    refuseSignIn("signInFailed", site.retryAfter);
  }
  await enforceRateLimit(ctx, "signInAccount", key);
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
