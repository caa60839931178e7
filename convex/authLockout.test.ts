/**
 * The password sign-in lockout policy (rateLimits.ts, signInAccount and
 * signInFailed): 10 wrong passwords lock an account, but only for 2 minutes,
 * refused attempts do not make it longer, and a site-wide ceiling throttles
 * wrong passwords spread over many accounts.
 */
import { describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import { SIGN_IN_ATTEMPTS, SIGN_IN_REFILL_PERIOD_MS } from "./rateLimits";
import { expectAppError } from "./test.expect";
import { newTest, type TestBackend } from "./test.setup";
import { useAuthEnv } from "./test.auth";
import { useFrozenClock } from "./test.clock";

// Password hashing (scrypt) is slow on a busy machine.
vi.setConfig({ testTimeout: 120_000 });

const NOW = Date.parse("2026-11-20T15:00:00-05:00");
/** One attempt comes back every 2 minutes. */
const ONE_ATTEMPT_MS = SIGN_IN_REFILL_PERIOD_MS / SIGN_IN_ATTEMPTS;
/** What a locked account (or the site-wide ceiling) answers. */
const LOCKED = "Too many failed attempts. Please try again later.";

useFrozenClock(NOW);
useAuthEnv();

function signIn(t: TestBackend, email: string, password: string, flow: "signIn" | "signUp" = "signIn") {
  return t.action(api.auth.signIn, { provider: "password", params: { email, password, flow } });
}

describe("sign-in lockout", () => {
  test("10 wrong passwords lock the account for 2 minutes, not an hour; the owner then signs in", async () => {
    expect(ONE_ATTEMPT_MS).toBe(2 * 60 * 1000);
    const t = newTest();
    await signIn(t, "victim@example.com", "right-password", "signUp");
    for (let i = 0; i < 10; i++) {
      await expectAppError(
        signIn(t, "victim@example.com", `wrong-${i}`),
        "INVALID_INPUT",
        "Invalid email or password.",
      );
    }
    // (a) Locked: even the right password waits, and the answer says how long.
    const locked = await expectAppError(signIn(t, "victim@example.com", "right-password"), "RATE_LIMITED", LOCKED);
    expect(locked.retryAfterMs).toBeGreaterThan(0);
    expect(locked.retryAfterMs).toBeLessThanOrEqual(ONE_ATTEMPT_MS);
    // The attacker keeps hammering: refused attempts do not make the lock longer.
    for (let i = 0; i < 20; i++) {
      vi.setSystemTime(NOW + i * 1000);
      await expectAppError(signIn(t, "victim@example.com", `more-${i}`), "RATE_LIMITED", LOCKED);
    }
    // (b) Two minutes after the 10th wrong password the owner signs in.
    vi.setSystemTime(NOW + ONE_ATTEMPT_MS);
    const owner = await signIn(t, "victim@example.com", "right-password");
    expect(owner.tokens?.token).toBeTruthy();
    // ...which gives the account its 10 attempts back at once.
    for (let i = 0; i < 10; i++) {
      await expectAppError(signIn(t, "victim@example.com", `again-${i}`), "INVALID_INPUT");
    }
    await expectAppError(signIn(t, "victim@example.com", "right-password"), "RATE_LIMITED", LOCKED);
  });

  test("to keep an account locked the attacker must spend an attempt every 2 minutes", async () => {
    const t = newTest();
    await signIn(t, "kept@example.com", "right-password", "signUp");
    for (let i = 0; i < 10; i++) await expectAppError(signIn(t, "kept@example.com", `wrong-${i}`), "INVALID_INPUT");
    // At 2 minutes the attacker takes the attempt that came back...
    vi.setSystemTime(NOW + ONE_ATTEMPT_MS);
    await expectAppError(signIn(t, "kept@example.com", "wrong-again"), "INVALID_INPUT");
    await expectAppError(signIn(t, "kept@example.com", "right-password"), "RATE_LIMITED", LOCKED);
    // ...but the owner never waits more than 2 minutes after the attacker's last try.
    vi.setSystemTime(NOW + 2 * ONE_ATTEMPT_MS);
    expect((await signIn(t, "kept@example.com", "right-password")).tokens?.token).toBeTruthy();
  });

  test("an unknown email is answered and limited like a real one (no hint which accounts exist)", async () => {
    const t = newTest();
    for (let i = 0; i < 10; i++) {
      await expectAppError(
        signIn(t, "nobody@example.com", `guess-${i}`),
        "INVALID_INPUT",
        "Invalid email or password.",
      );
    }
    await expectAppError(signIn(t, "nobody@example.com", "guess"), "RATE_LIMITED", LOCKED);
  });

  test("wrong passwords spread over many accounts hit a site-wide ceiling of 60 a minute", async () => {
    const t = newTest();
    await signIn(t, "owner@example.com", "right-password", "signUp");
    // Spraying: one guess each on 60 different emails.
    for (let i = 0; i < 60; i++) {
      await expectAppError(signIn(t, `spray-${i}@example.com`, "password123"), "INVALID_INPUT");
    }
    const throttled = await expectAppError(signIn(t, "spray-60@example.com", "password123"), "RATE_LIMITED", LOCKED);
    expect(throttled).toMatchObject({ limit: "signInFailed" });
    expect(throttled.retryAfterMs).toBeLessThanOrEqual(1000);
    // A second later the ceiling has let one more through: the owner's own
    // account was never touched and signs in.
    vi.setSystemTime(NOW + 1000);
    expect((await signIn(t, "owner@example.com", "right-password")).tokens?.token).toBeTruthy();
  });
});
