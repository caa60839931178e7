/**
 * The sign-in limits an attacker could get around (rateLimits.ts): parallel
 * wrong passwords all passing the site-wide check before any of them spent it,
 * a right password repeated in a loop, and made-up emails each adding rows to
 * the rate limiter.
 */
import { describe, expect, test, vi } from "vitest";
import { SIGN_IN_ATTEMPTS, UNKNOWN_EMAIL_BUCKETS, unknownEmailKey } from "./rateLimits";
import { expectAppError } from "./testing/test.expect";
import { newTest } from "./testing/test.setup";
import { guessUntilRefused, passwordSignIn as signIn, realAccounts } from "./testing/test.passwordAccounts";
import { useAuthEnv } from "./testing/test.auth";
import { useFrozenClock } from "./testing/test.clock";

// Password hashing (scrypt) is slow on a busy machine.
vi.setConfig({ testTimeout: 300_000 });

const NOW = Date.parse("2026-11-20T15:00:00-05:00");
/** The site-wide password checks at once, and each address's attempts past them. */
const SITE_CEILING = 60;
const OVER_CEILING = 3;

useFrozenClock(NOW);
useAuthEnv();

/** "ok", or the error code an attempt was refused with. */
async function outcome(attempt: Promise<unknown>): Promise<string> {
  try {
    await attempt;
    return "ok";
  } catch (error) {
    return String((error as { data?: { code?: string } }).data?.code ?? error);
  }
}

function tally(outcomes: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of outcomes) counts[o] = (counts[o] ?? 0) + 1;
  return counts;
}

describe("sign-in limits under attack", () => {
  test("parallel wrong passwords on many real accounts hash no more than the site-wide ceiling allows", async () => {
    const t = newTest();
    const accounts = await realAccounts(t, "parallel", 12);
    const attempts = accounts.flatMap((email) =>
      Array.from({ length: SIGN_IN_ATTEMPTS }, (_, i) => outcome(signIn(t, email, `wrong-${i}`))),
    );
    const counts = tally(await Promise.all(attempts));
    // Every hashed attempt is answered INVALID_INPUT: the ceiling, then 3 per address past it.
    const bound = SITE_CEILING + OVER_CEILING * accounts.length;
    expect(counts.INVALID_INPUT).toBeLessThanOrEqual(bound);
    expect(counts).toEqual({ INVALID_INPUT: counts.INVALID_INPUT, RATE_LIMITED: 120 - counts.INVALID_INPUT });
  });

  test("right passwords spend the site-wide ceiling too: no refund", async () => {
    const t = newTest();
    const accounts = await realAccounts(t, "right", SITE_CEILING + 1);
    for (let i = 0; i < SITE_CEILING; i++) {
      expect((await signIn(t, accounts[i], "right-password")).tokens?.token).toBeTruthy();
    }
    // The ceiling is (nearly: it is sharded) empty: wrong passwords on another account are hashed
    // while a token is left or the address has attempts past it, then refused by the ceiling.
    const { answered, refusal } = await guessUntilRefused(t, accounts[SITE_CEILING], SIGN_IN_ATTEMPTS);
    expect(answered).toBeGreaterThanOrEqual(OVER_CEILING);
    const refused = await expectAppError(refusal!, "RATE_LIMITED");
    expect(refused).toMatchObject({ limit: "signInFailed" });
  });

  test("one account signing in with the right password in a loop is stopped; a real user's few devices are not", async () => {
    const t = newTest();
    await signIn(t, "own@example.com", "right-password", "signUp");
    const outcomes: string[] = [];
    for (let i = 0; i < 40; i++) outcomes.push(await outcome(signIn(t, "own@example.com", "right-password")));
    // 10 sign-ins at once (a comedian's devices), then the loop is refused.
    expect(outcomes.slice(0, 10)).toEqual(Array(10).fill("ok"));
    expect(tally(outcomes)).toEqual({ ok: 10, RATE_LIMITED: 30 });
    const sessions = await t.run(async (ctx) => (await ctx.db.query("authSessions").collect()).length);
    expect(sessions).toBeLessThanOrEqual(11);
    // Two minutes later one more right sign-in goes through.
    vi.setSystemTime(NOW + 2 * 60 * 1000);
    expect((await signIn(t, "own@example.com", "right-password")).tokens?.token).toBeTruthy();
  });

  test("made-up emails share a bounded set of keys: they add no rate-limiter row per address", async () => {
    const keys = new Set(Array.from({ length: 20_000 }, (_, i) => unknownEmailKey(`made-up-${i}@example.com`)));
    expect(keys.size).toBeLessThanOrEqual(UNKNOWN_EMAIL_BUCKETS);
    // Two made-up addresses in one bucket share its attempts.
    const first = "nobody-0@example.com";
    let i = 1;
    while (unknownEmailKey(`nobody-${i}@example.com`) !== unknownEmailKey(first)) i++;
    const t = newTest();
    for (let n = 0; n < SIGN_IN_ATTEMPTS; n++) await expectAppError(signIn(t, first, `guess-${n}`), "INVALID_INPUT");
    await expectAppError(signIn(t, `nobody-${i}@example.com`, "guess"), "RATE_LIMITED");
    // A real account is keyed by its own address, never by a bucket.
    await signIn(t, "real@example.com", "right-password", "signUp");
    await expectAppError(signIn(t, "real@example.com", "wrong"), "INVALID_INPUT");
  });
});
