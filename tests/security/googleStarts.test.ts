/**
 * Starting a Google sign-in is anonymous and writes an authVerifiers row: a
 * stranger calling `auth:signIn` with provider "google" in a loop through a
 * running local backend over the app's own functions is cut off by the
 * site-wide googleSignInStart backstop (convex/rateLimits.ts, 1,000 a
 * minute) with a clear message, and the refused starts write no row.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import { expectAppError } from "@convex/testing/test.expect";
import { type Backend, repoRoot, startBackend } from "../local-backend/harness";

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend({
    functionsDir: path.join(repoRoot, "convex"),
    seedFlag: null,
    startTimeoutMs: 120_000,
  });
}, 180_000);

afterAll(async () => {
  await backend?.dispose();
});

async function verifierRows(): Promise<number> {
  const result = await backend.cli(["export"]);
  expect(result.code, result.stderr).toBe(0);
  return ((JSON.parse(result.stdout) as { tables: Record<string, unknown[]> }).tables.authVerifiers ?? []).length;
}

describe("Google sign-in starts through the real backend", () => {
  test("a flood of starts is cut off after 1,000 in a minute; the refused ones write no row", async () => {
    const http = backend.httpClient();
    const start = () => http.action(api.auth.signIn, { provider: "google", params: {} });
    // The bucket refills 1,000 a minute (~17 a second), so the flood goes out
    // 25 at a time to outrun it on a busy machine, until a start is refused.
    let started = 0;
    let refusal: unknown = undefined;
    for (let sent = 0; sent < 3000 && refusal === undefined; sent += 25) {
      const results = await Promise.allSettled(Array.from({ length: 25 }, start));
      for (const result of results) {
        if (result.status === "rejected") {
          refusal ??= result.reason;
          continue;
        }
        expect(result.value.redirect).toBeDefined();
        started++;
      }
    }
    expect(started).toBeGreaterThanOrEqual(1000);
    expect(started).toBeLessThan(3000);
    const refused = await expectAppError(
      Promise.reject(refusal),
      "RATE_LIMITED",
      "Too many sign-ins right now. Please try again in a few minutes.",
    );
    expect(refused).toMatchObject({ limit: "googleSignInStart" });
    expect(await verifierRows()).toBe(started);
  }, 300_000);
});
