import { afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import { expectAppError } from "./testing/test.expect";
import { newTest, type TestBackend } from "./testing/test.setup";
import { newSigningKey, stubAuthEnv } from "./testing/test.auth";

// Password hashing (scrypt) is slow on a busy machine.
vi.setConfig({ testTimeout: 60_000 });

let privateKey = "";
beforeAll(async () => {
  privateKey = await newSigningKey();
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const EMAIL = "forgetful@example.com";
const signIn = (t: TestBackend, params: Record<string, string>) =>
  t.action(api.auth.signIn, { provider: "password", params });

/** Asks for a reset code and returns what the backend's log line says (no email key set). */
async function requestCode(t: TestBackend, email = EMAIL): Promise<string | null> {
  const log = vi.spyOn(console, "log");
  const result = await signIn(t, { email, flow: "reset" });
  expect(result.tokens ?? null).toBeNull();
  await t.finishAllScheduledFunctions(() => vi.runAllTimers());
  const line = log.mock.calls.map((c) => String(c[0])).find((l) => l.startsWith(`Password reset code for ${email}:`));
  log.mockRestore();
  return line?.match(/: (\d{8}) /)?.[1] ?? null;
}

async function account(t: TestBackend) {
  await signIn(t, { email: EMAIL, password: "old-secret", flow: "signUp" });
}

describe("forgot password", () => {
  test("a code by log line resets the password once; the old password stops working", async () => {
    stubAuthEnv(privateKey);
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    const t = newTest();
    await account(t);
    const code = await requestCode(t);
    expect(code).toMatch(/^\d{8}$/);

    const wrong = code === "00000000" ? "11111111" : "00000000";
    await expectAppError(
      signIn(t, { email: EMAIL, code: wrong, newPassword: "new-secret", flow: "reset-verification" }),
      "INVALID_INPUT",
      "That code is wrong or has expired. Ask for a new one.",
    );
    await expectAppError(
      signIn(t, { email: EMAIL, code: code!, newPassword: "short", flow: "reset-verification" }),
      "INVALID_INPUT",
      "Password must be at least 6 characters",
    );
    const reset = await signIn(t, { email: EMAIL, code: code!, newPassword: "new-secret", flow: "reset-verification" });
    expect(reset.tokens?.token).toBeTypeOf("string");

    // Single use.
    await expectAppError(
      signIn(t, { email: EMAIL, code: code!, newPassword: "other-secret", flow: "reset-verification" }),
      "INVALID_INPUT",
      "That code is wrong or has expired. Ask for a new one.",
    );
    expect((await signIn(t, { email: EMAIL, password: "new-secret", flow: "signIn" })).tokens?.token).toBeTypeOf(
      "string",
    );
    await expectAppError(signIn(t, { email: EMAIL, password: "old-secret", flow: "signIn" }), "INVALID_INPUT");
  });

  test("a code expires after 15 minutes", async () => {
    stubAuthEnv(privateKey);
    vi.useFakeTimers({ toFake: ["setTimeout", "Date"] });
    vi.setSystemTime(Date.parse("2026-11-25T12:00:00Z"));
    const t = newTest();
    await account(t);
    const code = await requestCode(t);
    vi.setSystemTime(Date.parse("2026-11-25T12:16:00Z"));
    await expectAppError(
      signIn(t, { email: EMAIL, code: code!, newPassword: "new-secret", flow: "reset-verification" }),
      "INVALID_INPUT",
      "That code is wrong or has expired. Ask for a new one.",
    );
  });

  test("an unknown address gets the same answer and no code; codes per address are rate limited", async () => {
    stubAuthEnv(privateKey);
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    const t = newTest();
    expect(await requestCode(t, "nobody@example.com")).toBeNull();
    await expectAppError(
      signIn(t, {
        email: "nobody@example.com",
        code: "12345678",
        newPassword: "new-secret",
        flow: "reset-verification",
      }),
      "INVALID_INPUT",
      "That code is wrong or has expired. Ask for a new one.",
    );
    await account(t);
    for (let i = 0; i < 3; i++) expect(await requestCode(t)).toMatch(/^\d{8}$/);
    await expectAppError(signIn(t, { email: EMAIL, flow: "reset" }), "RATE_LIMITED");
  });
});
