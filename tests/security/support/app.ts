/**
 * Shared set-up of the app-side attack tests (appAttacks.*.test.ts): one local
 * backend serving the app's own convex/ folder, an OpenID mock standing in for
 * Google, and the real clients an attacker would use (ConvexHttpClient, Convex
 * Auth's password and Google flows, the backend CLI).
 */
import { rm } from "node:fs/promises";
import path from "node:path";
import { ConvexHttpClient } from "convex/browser";
import { afterAll, beforeAll, expect } from "vitest";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { queueGoogleIdentity, startGoogleMock } from "../../e2e/support/google-mock";
import { type Backend, freePort, repoRoot, runCli, startBackend, tempDir } from "../../local-backend/harness";

const GOOGLE_CLIENT_ID = "stagetime-security.apps.googleusercontent.test";
export const BOSS_EMAIL = "boss@stagetime.test";
export const UNVERIFIED_BOSS_EMAIL = "deputy@stagetime.test";
export const PASSWORD = "correct horse battery";
/** A point in Manhattan; the mics made here sit on it. */
export const VENUE = { latitude: 40.7411, longitude: -73.9897 };

export let backend: Backend;
let dataDir: string;
let google: Awaited<ReturnType<typeof startGoogleMock>>;

/**
 * Starts the Google mock and one local backend serving the app's convex/ folder for the
 * calling test file (registers its beforeAll and afterAll); `backend` is set once it runs.
 */
export function useAppBackend(): void {
  beforeAll(async () => {
    google = await startGoogleMock(await freePort(), GOOGLE_CLIENT_ID);
    // auth.ts reads the Google settings when it is loaded: set before the start.
    dataDir = await tempDir("stagetime-security-");
    for (const [name, value] of [
      ["ADMIN_EMAILS", `${BOSS_EMAIL},${UNVERIFIED_BOSS_EMAIL}`],
      ["AUTH_GOOGLE_ID", GOOGLE_CLIENT_ID],
      ["AUTH_GOOGLE_SECRET", "security-test-secret"],
      ["AUTH_GOOGLE_ISSUER", google.issuer],
      // Item 9's limit has its own test (rateLimits.test.ts); these files sign up a few dozen comedians.
      ["SIGN_UP_LIMIT_PER_MINUTE", "1000"],
      // They sign the same accounts in many times (their own test covers the limit: authSignInLimits.test.ts).
      ["SIGN_IN_SUCCESS_LIMIT_PER_HOUR", "1000"],
    ]) {
      const set = await runCli(["env", "set", name, value, "--data-dir", dataDir]);
      expect(set.code, set.stderr).toBe(0);
    }
    backend = await startBackend({
      functionsDir: path.join(repoRoot, "convex"),
      dataDir,
      seedFlag: null,
      startTimeoutMs: 120_000,
    });
  }, 240_000);

  afterAll(async () => {
    await backend?.dispose();
    await google?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });
}

export type Tokens = { token: string; refreshToken: string };
export type Comedian = Tokens & { email: string; userId: Id<"users">; http: ConvexHttpClient };

function asComedian(email: string, tokens: Tokens): Comedian {
  const payload = JSON.parse(Buffer.from(tokens.token.split(".")[1], "base64url").toString()) as { sub: string };
  const http = new ConvexHttpClient(backend.url);
  http.setAuth(tokens.token);
  return { ...tokens, email, userId: payload.sub.split("|")[0] as Id<"users">, http };
}

/** A password sign-up with a stage name (a comedian without one is asked for it before a list sign-up). */
export async function signUp(email: string, name = `Comic ${email}`): Promise<Comedian> {
  const result = (await backend.httpClient().action(api.auth.signIn, {
    provider: "password",
    params: { email, password: PASSWORD, flow: "signUp", name },
  })) as { tokens?: Tokens | null };
  expect(result.tokens, `sign-up of ${email}`).toBeTruthy();
  return asComedian(email, result.tokens!);
}

export async function passwordSignIn(email: string, password: string) {
  return (await backend.httpClient().action(api.auth.signIn, {
    provider: "password",
    params: { email, password, flow: "signIn" },
  })) as { tokens?: Tokens | null };
}

/**
 * Convex Auth's Google flow as a browser runs it: the sign-in action's
 * redirect, the backend's /api/auth/signin (state and PKCE cookies), Google's
 * consent (the mock approves at once), the backend's callback, and the code it
 * hands back to the app, exchanged by the sign-in action for tokens.
 */
export async function googleSignIn(identity: {
  email: string;
  name: string;
  emailVerified?: boolean;
}): Promise<Comedian> {
  await queueGoogleIdentity(google.issuer, identity);
  const anon = backend.httpClient();
  const started = (await anon.action(api.auth.signIn, { provider: "google" })) as {
    redirect?: string;
    verifier?: string;
  };
  expect(started.redirect).toBeTruthy();
  let res = await fetch(started.redirect!, { redirect: "manual" });
  expect(res.status).toBe(302);
  const cookies = res.headers.getSetCookie().map((c) => c.split(";")[0]);
  res = await fetch(res.headers.get("location")!, { redirect: "manual" });
  expect(res.status).toBe(302);
  res = await fetch(res.headers.get("location")!, { redirect: "manual", headers: { cookie: cookies.join("; ") } });
  expect(res.status).toBe(302);
  const code = new URL(res.headers.get("location")!).searchParams.get("code");
  expect(code, "the callback hands the app a code").toBeTruthy();
  const result = (await anon.action(api.auth.signIn, {
    provider: "google",
    params: { code: code! },
    verifier: started.verifier,
  })) as { tokens?: Tokens | null };
  expect(result.tokens).toBeTruthy();
  return asComedian(identity.email, result.tokens!);
}

/** Runs a function (internal ones too) through the backend CLI, as an operator would. */
export async function cliRun(name: string, args: Record<string, unknown>) {
  return await backend.cli(["run", name, JSON.stringify(args)]);
}

type Snapshot = { tables: Record<string, Array<Record<string, unknown>>> };

/** Every document, through the CLI's export of the running backend. */
export async function exportTables(): Promise<Snapshot["tables"]> {
  const result = await backend.cli(["export"]);
  expect(result.code, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as Snapshot).tables;
}

export async function exportRows(table: string): Promise<Array<Record<string, unknown>>> {
  return (await exportTables())[table] ?? [];
}

let micCounter = 0;

/** A weekly mic of `who` whose check-in window is open now (it starts this minute, in UTC). */
export async function createOpenMic(who: Comedian, title: string, extra: Record<string, unknown> = {}) {
  const now = new Date();
  const hhmm = `${String(now.getUTCHours()).padStart(2, "0")}:${String(now.getUTCMinutes()).padStart(2, "0")}`;
  micCounter += 1;
  const { sceneItemId } = await who.http.mutation(api.events.create, {
    venue: {
      venueName: `${title} Room ${micCounter}`,
      address: `${micCounter} Test St, New York, NY`,
      timeZone: "UTC",
      ...VENUE,
    },
    details: {
      type: "open_mic",
      title,
      dayOfWeek: now.getUTCDay(),
      startTimeLocal: hhmm,
      recurrence: "weekly",
      signupMethod: "in_person",
      costInfo: { type: "free" },
      ...extra,
    },
  });
  return sceneItemId;
}
