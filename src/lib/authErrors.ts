import { ConvexError } from "convex/values";
import { errorCode, errorField, errorMessage } from "./convexErrors";

/** A toast to show: title, description and how long it stays (ms, or the default). */
export type ToastSpec = { title: string; description: string; duration?: number };

export const UNEXPECTED_ERROR = "An unexpected error occurred.";
const INVALID_CREDENTIALS = "Invalid email or password.";

/**
 * The readable reason inside an error thrown by `@convex-dev/auth`'s signIn.
 * Its Password provider throws plain Errors ("InvalidSecret", "InvalidAccountId",
 * "Account x already exists", "Invalid password"), which reach the browser wrapped as
 * "[CONVEX A(auth:signIn)] [Request ID: …] Server Error\nUncaught Error: InvalidSecret …",
 * or redacted to just "Server Error" on a production deployment.
 * Returns null for something that is not an Error at all.
 */
export function authErrorReason(err: unknown): string | null {
  if (err instanceof ConvexError) return errorMessage(err, UNEXPECTED_ERROR);
  if (!(err instanceof Error)) return null;
  const raw = err.message ?? "";
  const uncaught = raw.match(/Uncaught (?:\w*Error): ([^\n]+)/);
  let reason = (uncaught ? uncaught[1] : raw)
    .replace(/\[CONVEX [^\]]*\]\s*/g, "")
    .replace(/\[Request ID: [^\]]*\]\s*/g, "")
    .split("\n")[0]
    .replace(/\s+at\s.*$/, "")
    .trim();
  if (/InvalidSecret|InvalidAccountId|Invalid credentials/i.test(reason)) reason = INVALID_CREDENTIALS;
  else if (/TooManyFailedAttempts/i.test(reason)) reason = "Too many failed attempts. Please try again later.";
  else if (/^Invalid password$/i.test(reason)) reason = "Password must be at least 6 characters.";
  return reason.length > 0 ? reason : null;
}

/** True when a sign-up failed because the email already has an account. */
export function isAccountExistsError(err: unknown): boolean {
  const text = err instanceof Error ? err.message : "";
  return /Account .* already exists/i.test(text) || /already registered/i.test(text);
}

/** "a few seconds", "a minute", "2 minutes": a sign-in lockout's wait (the server sends `retryAfterMs`). */
export function retryWaitText(retryAfterMs: number): string {
  if (retryAfterMs <= 30_000) return "a few seconds";
  const minutes = Math.ceil(retryAfterMs / 60_000);
  return minutes === 1 ? "a minute" : `${minutes} minutes`;
}

/** Spec: 'Sign in failed' with the error message (2500 ms); unexpected: 'An unexpected error occurred.'
 * A sign-in refused by the lockout keeps the spec's text and adds when to retry. */
export function signInFailureToast(err: unknown): ToastSpec {
  const reason = authErrorReason(err);
  // A redacted production error on sign-in is almost always bad credentials.
  let description = reason === null ? UNEXPECTED_ERROR : reason === "Server Error" ? INVALID_CREDENTIALS : reason;
  const retryAfterMs = errorField(err, "retryAfterMs");
  if (errorCode(err) === "RATE_LIMITED" && typeof retryAfterMs === "number" && Number.isFinite(retryAfterMs)) {
    description = `${description} You can try again in ${retryWaitText(retryAfterMs)}.`;
  }
  return { title: "Sign in failed", description, duration: 2500 };
}

/** Spec: 'Account exists' for a registered email, otherwise 'Sign up failed' with the message. */
export function signUpFailureToast(err: unknown): ToastSpec {
  if (isAccountExistsError(err)) {
    return { title: "Account exists", description: "This email is already registered. Try signing in instead." };
  }
  const reason = authErrorReason(err);
  return {
    title: "Sign up failed",
    description: reason === null || reason === "Server Error" ? UNEXPECTED_ERROR : reason,
  };
}

/** Spec: 'Google sign in failed' with the message or 'An unexpected error occurred.' */
export function googleFailureToast(err: unknown): ToastSpec {
  const reason = authErrorReason(err);
  return {
    title: "Google sign in failed",
    description: reason === null || reason === "Server Error" ? UNEXPECTED_ERROR : reason,
  };
}

export const signInSuccessToast: ToastSpec = {
  title: "Welcome back!",
  description: "You've successfully signed in.",
  duration: 1500,
};

/** The spec's sign-up toast says "Check your email to confirm your account.", but
 * accounts here are ready at once (no confirmation email is sent). */
export const signUpSuccessToast: ToastSpec = {
  title: "Welcome to StageTime!",
  description: "Your account is ready.",
};

export type SignOutOutcome = "ok" | "expired" | "local";

/** Spec's three sign-out toasts: normal, backend refused (expired session), exception. */
export function signOutToast(outcome: SignOutOutcome): ToastSpec {
  switch (outcome) {
    case "ok":
      return { title: "Signed out", description: "You've been successfully signed out." };
    case "expired":
      return { title: "Signed out", description: "You've been signed out (session may have expired)." };
    case "local":
      return { title: "Signed out", description: "You've been signed out locally." };
  }
}
