/**
 * Starting a Google sign-in (`auth:signIn` with provider "google" and no code)
 * is anonymous and writes an authVerifiers row each time: a stranger calling it
 * in a flood is held to the site-wide googleSignInStart backstop (high, so a
 * slow script cannot keep everyone out with it), a signed-in session to its
 * own googleSignInSession limit too (rateLimits.ts), and a refused start
 * leaves no row.
 */
import { describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import { newTest, createUser, type TestBackend } from "./testing/test.setup";
import { useAuthEnv } from "./testing/test.auth";
import { useFrozenClock } from "./testing/test.clock";
import { expectAppError } from "./testing/test.expect";

const NOW = Date.parse("2026-11-20T15:00:00-05:00");

useFrozenClock(NOW);
useAuthEnv();

async function verifierCount(t: TestBackend): Promise<number> {
  return await t.run(async (ctx) => (await ctx.db.query("authVerifiers").collect()).length);
}

type Starter = Pick<TestBackend, "action">;
const startGoogle = (caller: Starter) => caller.action(api.auth.signIn, { provider: "google", params: {} });

describe("Google sign-in starts", () => {
  // These two run hundreds of sign-in actions: seconds on a busy 2-core machine, past vitest's 5 s default.
  test("a stranger's start past 1,000 within a minute is refused and writes no row; a minute on they work again", async () => {
    const t = newTest();
    // The bucket is sharded (10 shards, each start takes from the fuller of two), so the
    // refusal comes near 1,000, never past it.
    let started = 0;
    let refusal: Promise<unknown> | null = null;
    while (refusal === null && started <= 1000) {
      const attempt = startGoogle(t);
      const outcome = await attempt.then(
        () => true,
        () => false,
      );
      if (outcome) started++;
      else refusal = attempt;
    }
    expect(started).toBeGreaterThanOrEqual(900);
    expect(started).toBeLessThanOrEqual(1000);
    expect(await verifierCount(t)).toBe(started);
    const refused = await expectAppError(
      refusal!,
      "RATE_LIMITED",
      "Too many sign-ins right now. Please try again in a few minutes.",
    );
    expect(refused).toMatchObject({ limit: "googleSignInStart", retryAfterMs: expect.any(Number) });
    expect(await verifierCount(t)).toBe(started);

    vi.setSystemTime(NOW + 60_000);
    expect((await startGoogle(t)).redirect).toBeDefined();
    expect(await verifierCount(t)).toBe(started + 1);
  }, 60_000);

  test("a script starting twice a second for 5 minutes keeps nobody out", async () => {
    const t = newTest();
    for (let second = 0; second < 300; second++) {
      vi.setSystemTime(NOW + second * 1000);
      for (let i = 0; i < 2; i++) expect((await startGoogle(t)).redirect).toBeDefined();
    }
    expect((await startGoogle(t)).redirect).toBeDefined();
    expect(await verifierCount(t)).toBe(601);
  }, 60_000);

  test("a signed-in session gets 10 starts an hour of its own; other callers still start", async () => {
    const t = newTest();
    const comic = await createUser(t);
    for (let i = 0; i < 10; i++) expect((await startGoogle(comic.asUser)).redirect).toBeDefined();
    const refused = await expectAppError(
      startGoogle(comic.asUser),
      "RATE_LIMITED",
      "Too many Google sign-ins. Please try again in 6 minutes.",
    );
    expect(refused).toMatchObject({ limit: "googleSignInSession" });
    expect(await verifierCount(t)).toBe(10);
    expect((await startGoogle(t)).redirect).toBeDefined();
    expect(await verifierCount(t)).toBe(11);
  });

  test("auth:store still checks its arguments against Convex Auth's validator", async () => {
    const t = newTest();
    await expect(t.mutation(internal.auth.store, { args: { type: "nonsense" } } as never)).rejects.toThrow(
      /Validator|validator|does not match/,
    );
    expect(await verifierCount(t)).toBe(0);
  });
});
