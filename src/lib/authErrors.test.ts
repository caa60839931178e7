import { ConvexError } from "convex/values";
import { describe, expect, test } from "vitest";
import {
  authErrorReason,
  googleFailureToast,
  signInFailureToast,
  signOutToast,
  signUpFailureToast,
} from "./authErrors";

/** How a plain Error thrown inside auth:signIn reaches the browser in development. */
function wrapped(inner: string): Error {
  return new Error(
    `[CONVEX A(auth:signIn)] [Request ID: 8a1f2b] Server Error\nUncaught Error: ${inner}\n    at retrieveAccount (../../node_modules/@convex-dev/auth/src/server/implementation/index.ts:123:9)`,
  );
}

describe("authErrorReason", () => {
  test.each([
    ["wrong password", wrapped("InvalidSecret"), "Invalid email or password."],
    ["unknown account", wrapped("InvalidAccountId"), "Invalid email or password."],
    ["rate limited", wrapped("TooManyFailedAttempts"), "Too many failed attempts. Please try again later."],
    ["short password from the provider", wrapped("Invalid password"), "Password must be at least 6 characters."],
    ["redacted production error", new Error("[CONVEX A(auth:signIn)] [Request ID: 1] Server Error"), "Server Error"],
    ["plain message", new Error("Network down"), "Network down"],
  ])("%s", (_name, err, expected) => {
    expect(authErrorReason(err)).toBe(expected);
  });

  test("reads the message of a ConvexError", () => {
    const err = new ConvexError({ code: "INVALID_INPUT", message: "Password must be at least 6 characters" });
    expect(authErrorReason(err)).toBe("Password must be at least 6 characters");
  });

  test("is null for something that is not an error", () => {
    expect(authErrorReason("boom")).toBeNull();
    expect(authErrorReason(undefined)).toBeNull();
  });
});

describe("sign-in toasts", () => {
  test("failure: 'Sign in failed' with the reason for 2500 ms", () => {
    expect(signInFailureToast(wrapped("InvalidSecret"))).toEqual({
      title: "Sign in failed",
      description: "Invalid email or password.",
      duration: 2500,
    });
  });

  test("a redacted server error is reported as bad credentials", () => {
    expect(signInFailureToast(new Error("Server Error")).description).toBe("Invalid email or password.");
  });

  test("an unexpected throw says so", () => {
    expect(signInFailureToast({ weird: true }).description).toBe("An unexpected error occurred.");
  });

  test("a locked account keeps the spec's text and says when to try again", () => {
    const locked = (retryAfterMs: number) =>
      new ConvexError({
        code: "RATE_LIMITED",
        message: "Too many failed attempts. Please try again later.",
        limit: "signInAccount",
        retryAfterMs,
      });
    expect(signInFailureToast(locked(120_000))).toEqual({
      title: "Sign in failed",
      description: "Too many failed attempts. Please try again later. You can try again in 2 minutes.",
      duration: 2500,
    });
    expect(signInFailureToast(locked(45_000)).description).toBe(
      "Too many failed attempts. Please try again later. You can try again in a minute.",
    );
    expect(signInFailureToast(locked(800)).description).toBe(
      "Too many failed attempts. Please try again later. You can try again in a few seconds.",
    );
    // Convex Auth's own limit sends no wait: the spec's text alone.
    expect(signInFailureToast(wrapped("TooManyFailedAttempts")).description).toBe(
      "Too many failed attempts. Please try again later.",
    );
  });
});

describe("sign-up toasts", () => {
  test("an existing account gives 'Account exists'", () => {
    expect(signUpFailureToast(wrapped("Account comic@example.com already exists"))).toEqual({
      title: "Account exists",
      description: "This email is already registered. Try signing in instead.",
    });
  });

  test("anything else gives 'Sign up failed' with the message", () => {
    const err = new ConvexError({ code: "INVALID_INPUT", message: "Password must be at least 6 characters" });
    expect(signUpFailureToast(err)).toEqual({
      title: "Sign up failed",
      description: "Password must be at least 6 characters",
    });
  });
});

describe("other auth toasts", () => {
  test("Google failure falls back to the unexpected-error text", () => {
    expect(googleFailureToast(null)).toEqual({
      title: "Google sign in failed",
      description: "An unexpected error occurred.",
    });
    expect(googleFailureToast(wrapped("Provider google is not configured")).description).toBe(
      "Provider google is not configured",
    );
  });

  test.each([
    ["ok", "You've been successfully signed out."],
    ["expired", "You've been signed out (session may have expired)."],
    ["local", "You've been signed out locally."],
  ] as const)("sign-out %s", (outcome, description) => {
    expect(signOutToast(outcome)).toEqual({ title: "Signed out", description });
  });
});
