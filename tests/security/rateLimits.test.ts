/**
 * Floods through a running local backend over the app's own functions (issue 13
 * items 9 and 15): anonymous sign-ups and mic creation are cut off by the
 * @convex-dev/rate-limiter component (convex/rateLimits.ts) with a clear
 * message, and the refused calls create nothing; a stranger's junk (made-up
 * emails, too-short passwords) cannot use those limits up for everyone.
 */
import path from "node:path";
import { ConvexHttpClient } from "convex/browser";
import { ConvexError } from "convex/values";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import { signUpConfig } from "@convex/rateLimits";
import { expectAppError } from "@convex/testing/test.expect";
import { type Backend, repoRoot, startBackend } from "../local-backend/harness";

const appFunctions = path.join(repoRoot, "convex");
let backend: Backend;

beforeAll(async () => {
  backend = await startBackend({ functionsDir: appFunctions, seedFlag: null, startTimeoutMs: 120_000 });
}, 180_000);

afterAll(async () => {
  await backend?.dispose();
});

/** The ConvexError data of a refused call, whatever its code. */
async function refusal(promise: Promise<unknown>): Promise<Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ConvexError);
    return (error as ConvexError<any>).data as Record<string, unknown>;
  }
  throw new Error("expected the call to be refused");
}

/**
 * The site-wide sign-up bucket as its shards stand (the rate limiter's rows in an export): how
 * many shards, the capacity of each, and the tokens they hold together at `at` (a shard not yet
 * written is full; each refills at its share of 30 a minute up to its capacity).
 */
async function signUpBucket(): Promise<{ shards: number; perShard: number; held: number; at: number }> {
  const at = Date.now();
  const exported = await backend.cli(["export"]);
  expect(exported.code, exported.stderr).toBe(0);
  const snapshot = JSON.parse(exported.stdout) as {
    components?: { rateLimiter?: { rateLimits?: Array<{ name: string; shard: number; value: number; ts: number }> } };
  };
  const rows = (snapshot.components?.rateLimiter?.rateLimits ?? []).filter((row) => row.name === "signUp");
  const config = signUpConfig();
  const shards = config.shards ?? 1;
  const perShard = (config.capacity ?? config.rate) / shards;
  const refill = config.rate / shards / config.period;
  let held = (shards - rows.length) * perShard;
  for (const row of rows) held += Math.min(row.value + (at - row.ts) * refill, perShard);
  return { shards, perShard, held, at };
}

describe("rate limits through the real backend", () => {
  test("a stranger's junk cannot use up the sign-in and sign-up ceilings: real comedians still get in", async () => {
    const http = backend.httpClient();
    const auth = (email: string, password: string, flow: "signIn" | "signUp") =>
      http.action(api.auth.signIn, { provider: "password", params: { email, password, flow } });
    expect((await auth("alice@example.com", "correct-horse", "signUp")).tokens?.token).toBeTruthy();
    // 100 wrong sign-ins on made-up emails (nothing to hash), then Alice's right password.
    for (let i = 0; i < 100; i++) {
      await expectAppError(auth(`nobody${i}@example.com`, "x123456", "signIn"), "INVALID_INPUT");
    }
    expect((await auth("alice@example.com", "correct-horse", "signIn")).tokens?.token).toBeTruthy();
    // 60 sign-ups with a 1-character password (refused before hashing), then Bob's real one.
    for (let i = 0; i < 60; i++) {
      await expectAppError(
        auth(`junk${i}@example.com`, "x", "signUp"),
        "INVALID_INPUT",
        "Password must be at least 6 characters",
      );
    }
    expect((await auth("bob@example.com", "correct-horse", "signUp")).tokens?.token).toBeTruthy();
  }, 120_000);

  test("a sign-up flood is cut off after 30 in a minute with a clear message", async () => {
    const http = backend.httpClient();
    const signUp = (i: number) =>
      http.action(api.auth.signIn, {
        provider: "password",
        params: { email: `flood${i}@example.com`, password: "a good password", flow: "signUp" },
      });
    // What the bucket holds as the flood begins (the test above signed two up), read from its shards.
    const { shards, perShard, held, at: started } = await signUpBucket();
    expect(shards * perShard).toBe(30);
    let accepted = 0;
    let firstRefused = -1;
    let data: Record<string, unknown> = {};
    // Past the first refusal too: a refused caller tries again after the wait it is told, until the
    // flood has had 30, so the tokens a sharded bucket leaves in its shards are counted as well.
    for (let i = 0; i < 200 && (accepted < 30 || firstRefused < 0); i++) {
      try {
        await signUp(i);
        accepted++;
      } catch (error) {
        const refused = await refusal(Promise.reject(error));
        if (firstRefused < 0) [firstRefused, data] = [i, refused];
        expect(refused).toMatchObject({ code: "RATE_LIMITED", limit: "signUp" });
        if (accepted >= 30) continue;
        await new Promise((resolve) => setTimeout(resolve, Math.min(Number(refused.retryAfterMs) || 500, 5_000)));
      }
    }
    const elapsedMs = Date.now() - started;
    expect(firstRefused).toBeGreaterThanOrEqual(0);
    expect(data).toMatchObject({
      code: "RATE_LIMITED",
      message: "Too many sign-ups right now. Please try again in a few minutes.",
    });
    // The refused sign-up created no account.
    await expect(
      http.action(api.auth.signIn, {
        provider: "password",
        params: { email: `flood${firstRefused}@example.com`, password: "a good password", flow: "signIn" },
      }),
    ).rejects.toThrow();
    expect(accepted).toBeGreaterThanOrEqual(30);
    // Each sign-up takes exactly 1 token from one shard or two (choose-two and combined, conserved),
    // so never more than the shards held at the start plus their refill, 30 a minute in all.
    expect(accepted).toBeLessThanOrEqual(Math.floor(held + (30 * elapsedMs) / 60_000 + 1e-9));
  }, 240_000);

  test("a mic-creation flood from one account stops at 10 with a clear message", async () => {
    // The flood above emptied the sharded sign-up bucket, which refills at 30 a minute:
    // wait as long as each refusal says (a shard may refill after the others).
    const anon = backend.httpClient();
    let signedUp: { tokens: { token: string } } | null = null;
    for (let attempt = 0; signedUp === null && attempt < 20; attempt++) {
      try {
        signedUp = (await anon.action(api.auth.signIn, {
          provider: "password",
          params: { email: "mic-flooder@example.com", password: "a good password", flow: "signUp" },
        })) as { tokens: { token: string } };
      } catch (error) {
        const data = await refusal(Promise.reject(error));
        expect(data).toMatchObject({ code: "RATE_LIMITED", limit: "signUp" });
        await new Promise((resolve) => setTimeout(resolve, Math.max(500, Number(data.retryAfterMs) || 2_000)));
      }
    }
    if (signedUp === null) throw new Error("the sign-up bucket never refilled");
    const { tokens } = signedUp;
    const http = new ConvexHttpClient(backend.url);
    http.setAuth(tokens.token);
    const venue = {
      venueName: "Flood Hall",
      address: "1 Flood St, New York, NY 10001",
      latitude: 40.7411,
      longitude: -73.9897,
    };
    const details = (i: number) => ({
      type: "open_mic" as const,
      title: `Flood mic ${i}`,
      dayOfWeek: i % 7,
      startTimeLocal: `${String(12 + Math.floor(i / 7)).padStart(2, "0")}:00`,
      recurrence: "weekly" as const,
      signupMethod: "in_person" as const,
      costInfo: { type: "free" as const },
    });
    for (let i = 0; i < 10; i++) await http.mutation(api.events.create, { venue, details: details(i) });
    for (let i = 10; i < 15; i++) {
      const data = await expectAppError(
        http.mutation(api.events.create, { venue, details: details(i) }),
        "RATE_LIMITED",
        /^You have added a lot of events today\. Please try again in /,
      );
      expect(data).toMatchObject({ limit: "createMic" });
    }
  }, 180_000);
});
