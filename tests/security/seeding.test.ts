/**
 * Issue 13 item 11: a plain `npm run backend -- start` must never create the
 * demo accounts (their passwords are in the README); only `--seed` (which
 * `npm run dev` passes) seeds an empty database.
 */
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import { ADMIN_EMAIL, ADMIN_PASSWORD, DEMO_EMAIL, DEMO_PASSWORD } from "../../convex-dev/model/seedData";
import { type Backend, repoRoot, startBackend } from "../local-backend/harness";

const appFunctions = path.join(repoRoot, "convex");
let backend: Backend | undefined;

afterEach(async () => {
  await backend?.dispose();
  backend = undefined;
});

async function canSignIn(email: string, password: string): Promise<boolean> {
  try {
    const result = await backend!.httpClient().action(api.auth.signIn, {
      provider: "password",
      params: { email, password, flow: "signIn" },
    });
    return Boolean((result as { tokens?: unknown }).tokens);
  } catch {
    return false;
  }
}

describe("seeding only on request (issue 13 item 11)", () => {
  test("a plain start creates no account: the README's demo admin cannot sign in", async () => {
    backend = await startBackend({ functionsDir: appFunctions, seedFlag: null, startTimeoutMs: 120_000 });
    expect(backend.output).not.toContain("running seed:run");
    expect(await canSignIn(ADMIN_EMAIL, ADMIN_PASSWORD)).toBe(false);
    expect(await canSignIn(DEMO_EMAIL, DEMO_PASSWORD)).toBe(false);
  }, 180_000);

  test("--seed (npm run dev) still seeds the demo scene and accounts", async () => {
    backend = await startBackend({ functionsDir: appFunctions, seedFlag: "--seed", startTimeoutMs: 120_000 });
    expect(backend.output).toContain("running seed:run");
    expect(await canSignIn(DEMO_EMAIL, DEMO_PASSWORD)).toBe(true);
  }, 180_000);
});
