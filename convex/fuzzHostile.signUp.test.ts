/**
 * Sign-up's params are untyped (Convex Auth's auth:signIn takes v.any()), so
 * fuzzHostile.test.ts cannot derive its hostile values from a validator: a
 * 1 MB or one-past-the-cap email, password or name, or a name with control
 * characters, must be refused with INVALID_INPUT and write nothing, and each
 * exactly at its cap accepted.
 */
import { describe, expect, test, vi } from "vitest";
// Load @date-fns/tz before fake timers replace Date (see checkIns.test.ts).
import "./lib/time";
import { api } from "./_generated/api";
import { MAX_DISPLAY_NAME_LENGTH, MAX_EMAIL_LENGTH, MAX_PASSWORD_LENGTH } from "./lib/profileRules";
import { snapshotAll } from "./testing/test.authzSnapshot";
import { buildWorld, type World } from "./testing/test.authzWorld";
import { describeOutcome, NOW, ONE_MB } from "./testing/test.fuzz";
import { useOfflineServer } from "./testing/test.registry";

vi.setConfig({ testTimeout: 240_000 });

useOfflineServer(NOW);

describe("sign-up's untyped params are capped too", () => {
  const signUp = (t: World["t"], params: Record<string, string>) =>
    t.action(api.auth.signIn, { provider: "password", params: { flow: "signUp", ...params } });
  const refusedWith = async (run: Promise<unknown>, message: string) => {
    const outcome = await run.then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    expect(outcome.ok ? `accepted: ${JSON.stringify(outcome.value)?.slice(0, 200)}` : describeOutcome(outcome)).toBe(
      `ConvexError ${JSON.stringify({ code: "INVALID_INPUT", message })}`,
    );
  };

  test("a 1 MB or one-past-the-cap email, password or name is refused; each at its cap is accepted", async () => {
    const { exportPKCS8, generateKeyPair } = await import("jose");
    const keys = await generateKeyPair("RS256", { extractable: true });
    vi.stubEnv("JWT_PRIVATE_KEY", await exportPKCS8(keys.privateKey));
    const w = await buildWorld();
    const email = (n: number) => `${"e".repeat(n - "@example.com".length)}@example.com`;
    const tooLong = {
      email: `Email must be ${MAX_EMAIL_LENGTH} characters or fewer`,
      password: `Password must be ${MAX_PASSWORD_LENGTH} characters or fewer`,
      name: `Display name must be ${MAX_DISPLAY_NAME_LENGTH} characters or fewer.`,
    };
    const before = await snapshotAll(w.t);
    for (const value of [ONE_MB, "x".repeat(MAX_EMAIL_LENGTH + 1)]) {
      await refusedWith(signUp(w.t, { email: `${value}@example.com`, password: "secret1" }), tooLong.email);
    }
    await refusedWith(signUp(w.t, { email: email(MAX_EMAIL_LENGTH + 1), password: "secret1" }), tooLong.email);
    for (const value of [ONE_MB, "p".repeat(MAX_PASSWORD_LENGTH + 1)]) {
      await refusedWith(signUp(w.t, { email: "pw@example.com", password: value }), tooLong.password);
    }
    for (const value of [ONE_MB, "n".repeat(MAX_DISPLAY_NAME_LENGTH + 1)]) {
      await refusedWith(signUp(w.t, { email: "name@example.com", password: "secret1", name: value }), tooLong.name);
    }
    for (const value of ["Casey\rURL:https://evil.example/", "Casey\u202eCimoc", "Casey\u0000"]) {
      await refusedWith(
        signUp(w.t, { email: "ctrl@example.com", password: "secret1", name: value }),
        "Display name must not contain control characters",
      );
    }
    expect(await snapshotAll(w.t), "a refused sign-up writes nothing").toEqual(before);
    const atCaps = await signUp(w.t, {
      email: email(MAX_EMAIL_LENGTH),
      password: "p".repeat(MAX_PASSWORD_LENGTH),
      name: "n".repeat(MAX_DISPLAY_NAME_LENGTH),
    });
    expect((atCaps as { tokens?: { token: string } | null }).tokens?.token).toBeTruthy();
  });
});
