/**
 * Starting a Google sign-in is anonymous and writes an authVerifiers row: a
 * stranger calling `auth:signIn` with provider "google" in a loop through a
 * running local backend over the app's own functions is cut off by the
 * site-wide googleSignInStart limit (convex/rateLimits.ts) with a clear
 * message, and the refused starts write no row.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api } from "../../convex/_generated/api";
import { expectAppError } from "../../convex/test.expect";
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
  test("a flood of starts is cut off after 60 in a minute; the refused ones write no row", async () => {
    const http = backend.httpClient();
    const start = () => http.action(api.auth.signIn, { provider: "google", params: {} });
    // The bucket refills one a second, so the flood is refused within a few more than 60.
    let started = 0;
    for (let i = 0; i < 200; i++) {
      try {
        expect((await start()).redirect).toBeDefined();
        started++;
      } catch {
        break;
      }
    }
    expect(started).toBeGreaterThanOrEqual(60);
    expect(started).toBeLessThan(200);
    const refused = await expectAppError(
      start(),
      "RATE_LIMITED",
      "Too many sign-ins right now. Please try again in a few minutes.",
    );
    expect(refused).toMatchObject({ limit: "googleSignInStart" });
    expect(await verifierRows()).toBe(started);
  }, 180_000);
});
