import Google from "@auth/core/providers/google";
import { Password } from "@convex-dev/auth/providers/Password";
import { convexAuth } from "@convex-dev/auth/server";
import { ConvexError } from "convex/values";
import type { DataModel, Id } from "./_generated/dataModel";
import type { ActionCtx, MutationCtx } from "./_generated/server";
import { appError, ErrorCode } from "./errors";
import { assertCredentialLengths, MIN_PASSWORD_LENGTH, signUpName } from "./lib/profileRules";
import { createProfileIfMissing, normalizeEmail } from "./model/profiles";
import {
  clearSignInAttempts,
  limitSignInAttempt,
  limitSignUp,
  recordFailedSignIn,
  SIGN_IN_LIMITED_MESSAGE,
} from "./rateLimits";

export { MIN_PASSWORD_LENGTH } from "./lib/profileRules";

const password = withUserFacingErrors(
  Password<DataModel>({
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
);

type Authorize = (params: Record<string, unknown>, ctx: unknown) => Promise<unknown>;

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
    // Sign-ups are anonymous and each hashes a password: limited before that
    // (rateLimits.ts). `ctx` is the sign-in action's.
    const email = typeof params.email === "string" ? params.email : "";
    if (params.flow === "signUp") {
      await limitSignUp(ctx as ActionCtx, email);
    }
    // The lockout policy (rateLimits.ts, signInAccount / signInFailed): an
    // attempt per account is taken before the password is checked, a wrong
    // one also spends the site-wide ceiling, a right one clears the account.
    const signingIn = params.flow === "signIn";
    if (signingIn) {
      await limitSignInAttempt(ctx as ActionCtx, email);
    }
    try {
      const result = await authorize(params, ctx);
      if (signingIn) await clearSignInAttempts(ctx as ActionCtx, email);
      return result;
    } catch (error) {
      if (error instanceof ConvexError) throw error;
      const message = error instanceof Error ? error.message : "";
      if (signingIn && /^(InvalidAccountId|InvalidSecret|Invalid credentials)$/.test(message)) {
        await recordFailedSignIn(ctx as ActionCtx);
      }
      if (/already exists/.test(message)) {
        throw appError(ErrorCode.ALREADY_EXISTS, "This email is already registered. Try signing in instead.");
      }
      if (/^(InvalidAccountId|InvalidSecret|Invalid credentials)$/.test(message)) {
        throw appError(ErrorCode.INVALID_INPUT, "Invalid email or password.");
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

export const { auth, signIn, signOut, store, isAuthenticated } = convexAuth({
  providers: [password, google],
  // Convex Auth's own bucket (per account, N at once then N an hour) stays as
  // a backstop: at 60 it never refuses before signInAccount in rateLimits.ts
  // (10 at once, then one every 2 minutes), which sets the policy.
  signIn: { maxFailedAttempsPerHour: 60 },
  callbacks: {
    // A profile per comedian from the moment the account exists; later
    // sign-ins (existingUserId set) leave it alone.
    async afterUserCreatedOrUpdated(ctx, { userId, existingUserId }) {
      if (existingUserId !== null) return;
      // Convex Auth types the callback's ctx for any data model; it is ours.
      await createProfileIfMissing(ctx as unknown as MutationCtx, userId as Id<"users">);
    },
  },
});
