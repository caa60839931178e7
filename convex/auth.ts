import Google from "@auth/core/providers/google";
import { Password } from "@convex-dev/auth/providers/Password";
import { convexAuth, getAuthSessionId } from "@convex-dev/auth/server";
// Convex Auth's own mutation is rebuilt as convexAuth builds it (see `store` below), without our triggers.
// eslint-disable-next-line no-restricted-imports
import { type GenericMutationCtx, internalMutationGeneric } from "convex/server";
import { ConvexError } from "convex/values";
import { internal } from "./_generated/api";
import type { DataModel, Id } from "./_generated/dataModel";
import type { ActionCtx, MutationCtx } from "./_generated/server";
import { appError, ErrorCode } from "./errors";
import { assertCredentialLengths, MAX_EMAIL_LENGTH, MIN_PASSWORD_LENGTH, signUpName } from "./lib/profileRules";
import { createProfileIfMissing, normalizeEmail } from "./model/profiles";
import { passwordResetProvider } from "./passwordReset";
import {
  clearSignInAttempts,
  limitPasswordReset,
  limitGoogleSignInStart,
  limitSignInAttempt,
  limitSignUp,
  limitSuccessfulSignIn,
  SIGN_IN_LIMITED_MESSAGE,
} from "./rateLimits";
import { triggers } from "./triggers";

export { MIN_PASSWORD_LENGTH } from "./lib/profileRules";

const password = withUserFacingErrors(
  withHashingInTheAction(
    Password<DataModel>({
      // "Forgot password?": a code by email (passwordReset.ts), then a new password with it.
      reset: passwordResetProvider,
      // Called for every flow (sign-up, sign-in, reset) before any hashing.
      profile(params) {
        assertCredentialLengths(params);
        const email = typeof params.email === "string" ? normalizeEmail(params.email) : "";
        if (email === "") {
          throw appError(ErrorCode.INVALID_INPUT, "You must provide either an email or phone number and a password");
        }
        const name = signUpName(params.name);
        return name === undefined ? { email } : { email, name };
      },
      validatePasswordRequirements(pw) {
        if (pw.length < MIN_PASSWORD_LENGTH) {
          throw appError(ErrorCode.INVALID_INPUT, "Password must be at least 6 characters");
        }
      },
    }),
  ),
);

type Authorize = (params: Record<string, unknown>, ctx: unknown) => Promise<unknown>;
type SecretCrypto = {
  hashSecret(secret: string): Promise<string>;
  verifySecret(secret: string, hash: string): Promise<boolean>;
};
type PasswordOptions = {
  authorize: Authorize;
  crypto: SecretCrypto;
  profile?: (params: Record<string, unknown>, ctx: unknown) => { email?: string };
  validatePasswordRequirements?: (password: string) => void;
};

/**
 * Starts a secret the sign-in action has already hashed or checked. A NUL
 * character: no password typed into the form starts with it, and every typed
 * password is hashed or checked before it reaches the mutation anyway.
 */
const CHECKED = "\u0000checked:";

/** Constant-time string comparison (the time does not tell how much matched). */
function sameText(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0);
  return diff === 0;
}

/**
 * Scrypt runs here in the sign-in action, not in the `auth:store` mutation (~100 ms of CPU against
 * Convex's 1 s mutation limit); the provider's own Scrypt keeps every stored hash valid.
 */
function withHashingInTheAction<P>(provider: P): P {
  const options = (provider as unknown as { options: PasswordOptions }).options;
  const scrypt = options.crypto;
  // The mutation gets CHECKED + the hash and only stores or compares it; other secrets (the seed's) as before.
  options.crypto = {
    async hashSecret(secret) {
      return secret.startsWith(CHECKED) ? secret.slice(CHECKED.length) : await scrypt.hashSecret(secret);
    },
    async verifySecret(secret, hash) {
      if (secret.startsWith(CHECKED)) return sameText(secret.slice(CHECKED.length), hash);
      return await scrypt.verifySecret(secret, hash);
    },
  };
  const authorize = options.authorize;
  options.authorize = async (params, ctx) => {
    const typed = params.password;
    const flow = params.flow;
    if (flow === "reset" || flow === "reset-verification") return await resetFlow(params, ctx);
    if (typeof typed !== "string" || (flow !== "signUp" && flow !== "signIn")) return await authorize(params, ctx);
    const actionCtx = ctx as ActionCtx;
    const email = options.profile?.(params, ctx).email ?? "";
    // The provider's checks (lengths, email, password rules) first; the rate limits only on what will hash.
    if (flow === "signUp") options.validatePasswordRequirements?.(typed);
    const stored = await actionCtx.runQuery(internal.passwordHashes.storedPasswordHash, { email });
    if (flow === "signUp" && stored === null) {
      // A new account: the sign-up limits, only now that it will hash.
      await limitSignUp(actionCtx, email);
      return await authorize({ ...params, password: CHECKED + (await scrypt.hashSecret(typed)) }, ctx);
    }
    // A password checked against an account (a sign-in, or a sign-up on an
    // existing email, which signs in with the right one): the lockout policy.
    // A real account's check takes its site-wide token before it hashes; the
    // right password takes a successful sign-in, then clears the account.
    await limitSignInAttempt(actionCtx, email, stored !== null);
    const right = stored !== null && (await scrypt.verifySecret(typed, stored));
    if (right) await limitSuccessfulSignIn(actionCtx, email);
    // A wrong password sends a value that never matches the stored hash.
    const result = await authorize({ ...params, password: CHECKED + (right ? stored : "") }, ctx);
    if (right) await clearSignInAttempts(actionCtx, email);
    return result;
  };
  /**
   * "reset" sends a code, limited per address whether or not it has an account, and answers
   * an unknown address as a known one (no code sent), so the form tells no one who signed up.
   * "reset-verification" is limited per address too, and its new password is checked and
   * hashed here like a sign-up's; Convex Auth then checks the code (once, before it expires),
   * stores the password and signs the comedian in, ending every other session.
   */
  const resetFlow: Authorize = async (params, ctx) => {
    const actionCtx = ctx as ActionCtx;
    const email = options.profile?.(params, ctx).email ?? "";
    if (params.flow === "reset") {
      await limitPasswordReset(actionCtx, email, "send");
      const stored = await actionCtx.runQuery(internal.passwordHashes.storedPasswordHash, { email });
      return stored === null ? null : await authorize({ ...params, email }, ctx);
    }
    const typedNew = params.newPassword;
    if (typeof typedNew !== "string" || typeof params.code !== "string" || params.code.length > 64) {
      throw appError(ErrorCode.INVALID_INPUT, RESET_CODE_REFUSED);
    }
    options.validatePasswordRequirements?.(typedNew);
    await limitPasswordReset(actionCtx, email, "verify");
    // An address with no account gets the wrong code's answer, not "no such account".
    const stored = await actionCtx.runQuery(internal.passwordHashes.storedPasswordHash, { email });
    if (stored === null) throw appError(ErrorCode.INVALID_INPUT, RESET_CODE_REFUSED);
    const newPassword = CHECKED + (await scrypt.hashSecret(typedNew));
    return await authorize({ ...params, email, newPassword }, ctx);
  };
  return provider;
}

/** A reset code that is wrong, used or expired (or a form without one). */
const RESET_CODE_REFUSED = "That code is wrong or has expired. Ask for a new one.";

/**
 * Convex hides the message of a plain Error from clients of a production
 * deployment, and the Password provider fails with plain Errors ("Account x
 * already exists", "InvalidSecret", ...). The sign-in form must tell "Account
 * exists" from "Sign in failed", so those become ConvexErrors with a code.
 * The provider keeps its real `authorize` in `options` (Convex Auth merges the
 * two when it loads providers); we wrap that one.
 */
function withUserFacingErrors<P>(provider: P): P {
  const options = (provider as unknown as { options: { authorize: Authorize } }).options;
  const authorize = options.authorize;
  options.authorize = async (params, ctx) => {
    try {
      return await authorize(params, ctx);
    } catch (error) {
      if (error instanceof ConvexError) throw error;
      const message = error instanceof Error ? error.message : "";
      if (/already exists/.test(message)) {
        throw appError(ErrorCode.ALREADY_EXISTS, "This email is already registered. Try signing in instead.");
      }
      if (/^(InvalidAccountId|InvalidSecret|Invalid credentials)$/.test(message)) {
        throw appError(ErrorCode.INVALID_INPUT, "Invalid email or password.");
      }
      if (/^(Invalid code|Could not verify code)$/.test(message)) {
        throw appError(ErrorCode.INVALID_INPUT, RESET_CODE_REFUSED);
      }
      if (message === "TooManyFailedAttempts") {
        // Convex Auth's own per-account limit, a backstop that the limits above reach first.
        throw appError(ErrorCode.RATE_LIMITED, SIGN_IN_LIMITED_MESSAGE);
      }
      throw error;
    }
  };
  return provider;
}

/**
 * Google sign-in with AUTH_GOOGLE_ID / AUTH_GOOGLE_SECRET. In production the
 * provider is the real Google (issuer https://accounts.google.com). Tests only
 * may set AUTH_GOOGLE_ISSUER to a local OpenID mock server: discovery, token
 * and userinfo requests then all go to that issuer's
 * /.well-known/openid-configuration. Never set it in a real deployment.
 */
const googleIssuer = process.env.AUTH_GOOGLE_ISSUER;
const google = Google({
  clientId: process.env.AUTH_GOOGLE_ID,
  clientSecret: process.env.AUTH_GOOGLE_SECRET,
  ...(googleIssuer ? { issuer: googleIssuer } : {}),
  // Auth.js's Google profile drops `email_verified`, and Convex Auth then
  // treats every OAuth email as verified. Pass Google's own answer on, so
  // only an address Google has verified gets `emailVerificationTime` (the
  // proof ADMIN_EMAILS and account linking rely on).
  profile(claims) {
    return {
      id: claims.sub,
      name: claims.name,
      email: claims.email,
      image: claims.picture,
      emailVerified: claims.email_verified === true,
    };
  },
});

const providers = [password, google];

/**
 * The providers here that issue sign-in codes for an email or phone: email or
 * phone providers, and those the Password provider uses for its reset and
 * verification flows (its `extraProviders`: the reset's emailed codes, id
 * "password-reset"). Google's codes (the end of its redirect) are redeemed
 * with no email or phone.
 */
const CODE_PROVIDER_IDS = new Set(
  providers
    .flatMap((provider) => {
      // Convex Auth keeps a credentials provider's config (with its extra providers) under `options`.
      const { extraProviders, options } = provider as {
        extraProviders?: unknown[];
        options?: { extraProviders?: unknown[] };
      };
      return [provider, ...(extraProviders ?? options?.extraProviders ?? [])];
    })
    .map((provider) => provider as { type?: unknown; id?: unknown; options?: { id?: unknown } } | undefined)
    .filter((provider) => provider?.type === "email" || provider?.type === "phone")
    // Its configured id (in `options`, merged in when Convex Auth loads it) names its codes.
    .map((provider) => provider!.options?.id ?? provider!.id),
);

/**
 * A code redemption (`auth:signIn` with `params.code`) that can only be junk.
 * Convex Auth counts a wrong code against the call's `params.email` (or
 * `phone`) with an `authRateLimits` row per new identifier, anonymous and of
 * any size the action's arguments allow. Only a redemption through a provider
 * that issues codes for one (the reset's, called by the Password provider, whose
 * own tries are limited per address first) may count; its identifier is still
 * capped at an email's length.
 */
function junkRedemption({ params, provider }: { params?: unknown; provider?: unknown }): boolean {
  const { email, phone } = (params ?? {}) as { email?: unknown; phone?: unknown };
  const identifier = email ?? phone;
  if (identifier === undefined) return false;
  if (typeof identifier !== "string" || identifier.length > MAX_EMAIL_LENGTH) return true;
  return !(typeof provider === "string" && CODE_PROVIDER_IDS.has(provider));
}

const convexAuthFunctions = convexAuth({
  providers,
  // Convex Auth's own bucket (per account, N at once then N an hour) stays as
  // a backstop: at 60 it never refuses before signInAccount in rateLimits.ts
  // (10 at once, then one every 2 minutes), which sets the policy.
  signIn: { maxFailedAttempsPerHour: 60 },
  callbacks: {
    // A profile per comedian from the moment the account exists; later
    // sign-ins (existingUserId set) leave it alone.
    async afterUserCreatedOrUpdated(ctx, { userId, existingUserId }) {
      if (existingUserId !== null) return;
      // Convex Auth types the callback's ctx for any data model; it is ours. Its
      // mutation is not one of our builders, so the profile's write goes through
      // the triggers here (the community counts the new comedian).
      await createProfileIfMissing(triggers.wrapDB(ctx as unknown as MutationCtx), userId as Id<"users">);
    },
  },
});

export const { auth, signIn, signOut, isAuthenticated } = convexAuthFunctions;

/** Convex Auth's internal `auth:store` mutation, with a limit and a junk filter before the library's handler. */
type StoreArgs = { args: { type: string; params?: unknown; provider?: unknown } };
type StoreHandler = (ctx: GenericMutationCtx<DataModel>, args: StoreArgs) => Promise<unknown>;
const libraryStore = convexAuthFunctions.store as unknown as { _handler: StoreHandler; exportArgs: () => string };
export const store = Object.assign(
  internalMutationGeneric(async (ctx: GenericMutationCtx<DataModel>, args: StoreArgs) => {
    // "verifier" = an OAuth start writing a row; limited in this transaction, so a refused start writes nothing.
    if (args.args.type === "verifier") await limitGoogleSignInStart(ctx, await getAuthSessionId(ctx));
    // Junk gets a wrong code's answer before any write; real wrong passwords' rows go by cron (authRateLimits.ts).
    if (args.args.type === "verifyCodeAndSignIn" && junkRedemption(args.args)) return null;
    return await libraryStore._handler(ctx, args); // the raw ctx convexAuth gives (the profile callback adds triggers)
  }),
  { exportArgs: libraryStore.exportArgs }, // the library's validator, which the backend checks every call against
) as unknown as typeof convexAuthFunctions.store;
