/**
 * Convex Auth's own `authRateLimits` rows: one per identifier that failed a
 * sign-in. Redeeming a code (`auth:signIn` with `params.code`) with an email
 * or phone would add one per new identifier, anonymous and as long as the
 * caller likes; this app has no provider that issues codes for an email or
 * phone, so such a call is refused before it writes (auth.ts, `store`). The
 * rows a real account's wrong passwords leave are deleted by the cron once
 * their bucket has refilled (authRateLimits.ts).
 */
import { describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import { AUTH_RATE_LIMIT_REFILL_MS } from "./authRateLimits";
import crons from "./crons";
import { newTest, type TestBackend } from "./testing/test.setup";
import { useAuthEnv } from "./testing/test.auth";
import { useFrozenClock } from "./testing/test.clock";
import { passwordSignIn } from "./testing/test.passwordAccounts";

// Password hashing (scrypt) is slow on a busy machine.
vi.setConfig({ testTimeout: 300_000 });

const NOW = Date.parse("2026-11-20T15:00:00-05:00");

useFrozenClock(NOW);
useAuthEnv();

async function rateLimitRows(t: TestBackend) {
  return await t.run(async (ctx) => await ctx.db.query("authRateLimits").collect());
}

describe("junk code redemptions", () => {
  test("100 wrong codes with made-up emails and phones write no rows and sign nobody in", async () => {
    const t = newTest();
    const padding = "x".repeat(10_000);
    for (let i = 0; i < 100; i++) {
      const params = i % 2 === 0 ? { code: "x", email: `${padding}${i}@example.com` } : { code: "x", phone: `+1${i}` };
      const result = await t.action(api.auth.signIn, { params });
      expect(result).toEqual({ tokens: null });
    }
    // Through a provider's name too (the OAuth path redeems codes the same way).
    const viaGoogle = await t.action(api.auth.signIn, {
      provider: "google",
      params: { code: "x", email: "someone@example.com" },
    });
    expect(viaGoogle).toEqual({ tokens: null });
    expect(await rateLimitRows(t)).toEqual([]);
  });

  test("a wrong code without an email (how a Google sign-in finishes) still writes nothing", async () => {
    const t = newTest();
    expect(await t.action(api.auth.signIn, { params: { code: "x" }, verifier: "v" })).toEqual({ tokens: null });
    expect(await rateLimitRows(t)).toEqual([]);
  });
});

describe("stale auth rate-limit rows", () => {
  test("a wrong password's row is deleted once its bucket has refilled; a recent one stays", async () => {
    const t = newTest();
    await passwordSignIn(t, "victim@example.com", "right-password", "signUp");
    await expect(passwordSignIn(t, "victim@example.com", "wrong-password")).rejects.toThrow();
    expect(await rateLimitRows(t)).toHaveLength(1);
    // Another row of the same age, whose identifier will fail again later.
    await t.run(async (ctx) => {
      await ctx.db.insert("authRateLimits", { identifier: "recent", attemptsLeft: 59, lastAttemptTime: NOW });
    });
    // Still refilling: the rows count.
    vi.setSystemTime(NOW + AUTH_RATE_LIMIT_REFILL_MS - 1000);
    expect(await t.mutation(internal.authRateLimits.deleteStaleAuthRateLimits, {})).toEqual({
      checked: 0,
      deleted: 0,
      more: false,
    });
    expect(await rateLimitRows(t)).toHaveLength(2);
    vi.setSystemTime(NOW + AUTH_RATE_LIMIT_REFILL_MS + 1000);
    // The old row with a recent attempt stays.
    await t.run(async (ctx) => {
      const recent = await ctx.db
        .query("authRateLimits")
        .withIndex("identifier", (q) => q.eq("identifier", "recent"))
        .unique();
      await ctx.db.patch("authRateLimits", recent!._id, { lastAttemptTime: Date.now() - 1000 });
    });
    expect(await t.mutation(internal.authRateLimits.deleteStaleAuthRateLimits, {})).toEqual({
      checked: 2,
      deleted: 1,
      more: false,
    });
    expect((await rateLimitRows(t)).map((row) => row.identifier)).toEqual(["recent"]);
  });

  test("a flood of rows is deleted in bounded batches that schedule the rest", async () => {
    const t = newTest();
    await t.run(async (ctx) => {
      for (let i = 0; i < 450; i++) {
        await ctx.db.insert("authRateLimits", { identifier: `junk-${i}`, attemptsLeft: 59, lastAttemptTime: NOW });
      }
    });
    vi.setSystemTime(NOW + AUTH_RATE_LIMIT_REFILL_MS + 1000);
    expect(await t.mutation(internal.authRateLimits.deleteStaleAuthRateLimits, {})).toEqual({
      checked: 200,
      deleted: 200,
      more: true,
    });
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    expect(await rateLimitRows(t)).toEqual([]);
  });

  test("the batches that follow walk the first run's query: its cutoff, not one from a later clock", async () => {
    const t = newTest();
    await t.run(async (ctx) => {
      for (let i = 0; i < 250; i++) {
        await ctx.db.insert("authRateLimits", { identifier: `junk-${i}`, attemptsLeft: 59, lastAttemptTime: NOW });
      }
    });
    const firstRun = NOW + AUTH_RATE_LIMIT_REFILL_MS + 1000;
    vi.setSystemTime(firstRun);
    expect(await t.mutation(internal.authRateLimits.deleteStaleAuthRateLimits, {})).toMatchObject({ more: true });
    // The continuation carries the cutoff with the cursor (a cursor is only valid for the query it came from).
    const scheduled = await t.run(async (ctx) => await ctx.db.system.query("_scheduled_functions").collect());
    expect(scheduled.map((job) => job.args[0])).toEqual([
      { cursor: expect.any(String), cutoff: firstRun - AUTH_RATE_LIMIT_REFILL_MS },
    ]);
    // Run later, it keeps that cutoff: a row whose last attempt falls between the two cutoffs stays.
    await t.run(async (ctx) => {
      const row = await ctx.db
        .query("authRateLimits")
        .withIndex("identifier", (q) => q.eq("identifier", "junk-249"))
        .unique();
      await ctx.db.patch("authRateLimits", row!._id, { lastAttemptTime: firstRun - AUTH_RATE_LIMIT_REFILL_MS + 500 });
    });
    vi.setSystemTime(firstRun + 10 * 60_000);
    expect(
      await t.mutation(internal.authRateLimits.deleteStaleAuthRateLimits, scheduled[0].args[0] as { cursor: string }),
    ).toEqual({ checked: 50, deleted: 49, more: false });
    // A cutoff that is not in the past is not taken: now's is used, and a recent attempt's row stays.
    await t.run(async (ctx) => {
      const row = await ctx.db
        .query("authRateLimits")
        .withIndex("identifier", (q) => q.eq("identifier", "junk-249"))
        .unique();
      await ctx.db.patch("authRateLimits", row!._id, { lastAttemptTime: Date.now() - 1000 });
    });
    expect(
      await t.mutation(internal.authRateLimits.deleteStaleAuthRateLimits, { cutoff: Date.now() + 60_000 }),
    ).toEqual({ checked: 1, deleted: 0, more: false });
    expect((await rateLimitRows(t)).map((row) => row.identifier)).toEqual(["junk-249"]);
  });

  test("runs every 30 minutes from crons.ts", () => {
    const jobs = (crons as unknown as { crons: Record<string, { name: string; schedule: unknown }> }).crons;
    const job = Object.values(jobs).find((entry) => entry.name === "authRateLimits:deleteStaleAuthRateLimits");
    expect(job?.schedule).toMatchObject({ type: "interval", minutes: 30 });
  });
});
