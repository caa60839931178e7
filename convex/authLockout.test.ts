/**
 * The password sign-in lockout policy (rateLimits.ts, signInAccount and
 * signInFailed): 10 wrong passwords lock an account, but only for 2 minutes,
 * refused attempts do not make it longer, and a site-wide ceiling throttles
 * wrong passwords spread over many accounts, but a stranger cannot use that
 * ceiling to keep everyone else out (signInOverCeiling).
 */
import { describe, expect, test, vi } from "vitest";
import { SIGN_IN_ATTEMPTS, SIGN_IN_REFILL_PERIOD_MS } from "./rateLimits";
import { expectAppError } from "./testing/test.expect";
import { newTest } from "./testing/test.setup";
import { guessUntilRefused, passwordSignIn as signIn, realAccounts } from "./testing/test.passwordAccounts";
import { useAuthEnv } from "./testing/test.auth";
import { useFrozenClock } from "./testing/test.clock";

// Password hashing (scrypt) is slow on a busy machine.
vi.setConfig({ testTimeout: 300_000 });

const NOW = Date.parse("2026-11-20T15:00:00-05:00");
/** One attempt comes back every 2 minutes. */
const ONE_ATTEMPT_MS = SIGN_IN_REFILL_PERIOD_MS / SIGN_IN_ATTEMPTS;
/** What a locked account (or the site-wide ceiling) answers. */
const LOCKED = "Too many failed attempts. Please try again later.";

useFrozenClock(NOW);
useAuthEnv();

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

  test("wrong passwords spread over many real accounts hit a site-wide ceiling of 60 a minute; past it each address gets 3", async () => {
    const t = newTest();
    await signIn(t, "owner@example.com", "right-password", "signUp");
    const sprayed = await realAccounts(t, "spray", 61);
    // Spraying: one guess each on 60 real accounts (each one hashed).
    for (let i = 0; i < 60; i++) await expectAppError(signIn(t, sprayed[i], "password123"), "INVALID_INPUT");
    // The ceiling is (nearly: it is sharded, 20 shards of 3) empty: a further guess on a real
    // account is hashed while the ceiling has a token left or the address has attempts past it
    // (3), then waits.
    const next = await guessUntilRefused(t, sprayed[60], SIGN_IN_ATTEMPTS);
    expect(next.answered).toBeGreaterThanOrEqual(3);
    expect(await expectAppError(next.refusal!, "RATE_LIMITED", LOCKED)).toMatchObject({ limit: "signInFailed" });
    const first = await guessUntilRefused(t, sprayed[0], SIGN_IN_ATTEMPTS);
    expect(first.answered).toBeGreaterThanOrEqual(3);
    const throttled = await expectAppError(first.refusal!, "RATE_LIMITED", LOCKED);
    expect(throttled).toMatchObject({ limit: "signInFailed" });
    // A shard gets a token back every 20 seconds.
    expect(throttled.retryAfterMs).toBeLessThanOrEqual(20_000);
    // An unknown email is answered the same way (a few, then the same refusal): no hint which accounts exist.
    const unknown = await guessUntilRefused(t, "nobody@example.com", SIGN_IN_ATTEMPTS + 1);
    expect(unknown.answered).toBeGreaterThanOrEqual(3);
    await expectAppError(unknown.refusal!, "RATE_LIMITED", LOCKED);
    // The owner's own account was never touched: it signs in at once, ceiling or not.
    expect((await signIn(t, "owner@example.com", "right-password")).tokens?.token).toBeTruthy();
    // Twenty seconds later the ceiling has let more through.
    vi.setSystemTime(NOW + 20_000);
    await expectAppError(signIn(t, sprayed[0], "guess-later"), "INVALID_INPUT");
  });

  test("wrong passwords on made-up emails hash nothing and spend no ceiling: the owner signs in at once", async () => {
    const t = newTest();
    await signIn(t, "alice@example.com", "correct-horse", "signUp");
    for (let i = 0; i < 100; i++) {
      await expectAppError(
        signIn(t, `nobody${i}@example.com`, "x123456"),
        "INVALID_INPUT",
        "Invalid email or password.",
      );
    }
    expect((await signIn(t, "alice@example.com", "correct-horse")).tokens?.token).toBeTruthy();
    // A real account's first wrong password is still answered, not throttled.
    await expectAppError(signIn(t, "alice@example.com", "wrong-one"), "INVALID_INPUT");
  });

  test("a stranger who keeps the ceiling empty cannot keep out an account that has not failed", async () => {
    const t = newTest();
    await signIn(t, "alice@example.com", "correct-horse", "signUp");
    const own = await realAccounts(t, "mine", 6);
    // The attacker's own accounts, 10 wrong passwords each: the ceiling is empty. (It is sharded,
    // so it may refuse an account's last few before all 60 are spent: past it each has 3.)
    for (const email of own) {
      for (let i = 0; i < 10; i++) {
        const code = await signIn(t, email, `wrong-${i}`).then(
          () => "ok",
          (error: { data?: { code?: string } }) => error?.data?.code,
        );
        expect(["INVALID_INPUT", "RATE_LIMITED"]).toContain(code);
      }
    }
    const locked = await expectAppError(signIn(t, own[0], "right-password"), "RATE_LIMITED", LOCKED);
    expect(["signInAccount", "signInFailed"]).toContain(locked.limit);
    // Alice mistypes twice, then signs in: never refused by the ceiling.
    await expectAppError(signIn(t, "alice@example.com", "correct-hose"), "INVALID_INPUT");
    await expectAppError(signIn(t, "alice@example.com", "correct-horses"), "INVALID_INPUT");
    expect((await signIn(t, "alice@example.com", "correct-horse")).tokens?.token).toBeTruthy();
    // Her right password gave her attempts past the ceiling back.
    for (let i = 0; i < 2; i++) await expectAppError(signIn(t, "alice@example.com", `typo-${i}`), "INVALID_INPUT");
    expect((await signIn(t, "alice@example.com", "correct-horse")).tokens?.token).toBeTruthy();
  });
});
