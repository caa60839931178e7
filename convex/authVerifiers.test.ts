/**
 * Anonymous Google sign-in starts each leave an authVerifiers row; the cron
 * (authVerifiers.ts) deletes the ones too old to finish a sign-in.
 */
import { describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import { VERIFIER_LIFETIME_MS } from "./authVerifiers";
import { newTest, type TestBackend } from "./testing/test.setup";
import { useAuthEnv } from "./testing/test.auth";
import { useFrozenClock } from "./testing/test.clock";

const NOW = Date.parse("2026-11-20T15:00:00-05:00");

useFrozenClock(NOW);
useAuthEnv();

async function verifierCount(t: TestBackend): Promise<number> {
  return await t.run(async (ctx) => (await ctx.db.query("authVerifiers").collect()).length);
}

describe("stale sign-in verifiers", () => {
  test("unfinished Google sign-in starts are deleted once too old to finish; recent ones stay", async () => {
    const t = newTest();
    for (let i = 0; i < 5; i++) {
      const started = await t.action(api.auth.signIn, { provider: "google", params: {} });
      expect(started.redirect).toBeDefined();
    }
    expect(await verifierCount(t)).toBe(5);
    // Still within the lifetime: a sign-in started then may yet finish.
    vi.setSystemTime(NOW + VERIFIER_LIFETIME_MS - 1000);
    expect(await t.mutation(internal.authVerifiers.deleteStaleVerifiers, {})).toEqual({ deleted: 0, more: false });
    vi.setSystemTime(NOW + VERIFIER_LIFETIME_MS + 1000);
    const recent = await t.action(api.auth.signIn, { provider: "google", params: {} });
    expect(await t.mutation(internal.authVerifiers.deleteStaleVerifiers, {})).toEqual({ deleted: 5, more: false });
    const left = await t.run(async (ctx) => await ctx.db.query("authVerifiers").collect());
    expect(left.map((row) => row._id)).toEqual([recent.verifier]);
  });

  test("a flood is deleted in bounded batches that schedule the rest", async () => {
    const t = newTest();
    await t.run(async (ctx) => {
      for (let i = 0; i < 450; i++) await ctx.db.insert("authVerifiers", {});
    });
    vi.setSystemTime(NOW + VERIFIER_LIFETIME_MS + 1000);
    expect(await t.mutation(internal.authVerifiers.deleteStaleVerifiers, {})).toEqual({ deleted: 200, more: true });
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    expect(await verifierCount(t)).toBe(0);
  });
});
