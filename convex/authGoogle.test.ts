// @vitest-environment node
// Node, not edge-runtime: the OpenID mock server listens on a local port.
import { OAuth2Server } from "oauth2-mock-server";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { newTest } from "./testing/test.setup";
import { TEST_CONVEX_SITE_URL as CONVEX_SITE_URL, TEST_SITE_URL as SITE_URL, newSigningKey } from "./testing/test.auth";

// OAuth round trips are slow on a busy machine.
vi.setConfig({ testTimeout: 30_000 });

let server: OAuth2Server;
const GINA = {
  sub: "google-user-42",
  email: "gina.google@example.com",
  email_verified: true,
  name: "Gina Google",
  picture: "https://example.com/gina.png",
};
/** The id_token claims of the next Google sign-in. */
let googleClaims: Record<string, unknown> = GINA;

beforeAll(async () => {
  server = new OAuth2Server();
  await server.issuer.keys.generate("RS256");
  await server.start(0, "127.0.0.1");
  // auth.ts reads these when it is first loaded, which happens in the first test.
  vi.stubEnv("AUTH_GOOGLE_ISSUER", server.issuer.url!);
  vi.stubEnv("AUTH_GOOGLE_ID", "stagetime-test-client");
  vi.stubEnv("AUTH_GOOGLE_SECRET", "stagetime-test-secret");
  vi.stubEnv("JWT_PRIVATE_KEY", await newSigningKey());
  vi.stubEnv("CONVEX_SITE_URL", CONVEX_SITE_URL);
  vi.stubEnv("SITE_URL", SITE_URL);
  server.service.on("beforeTokenSigning", (token) => {
    Object.assign(token.payload, { ...googleClaims });
  });
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await server.stop();
});

/** The Set-Cookie name=value pairs of a response, as a Cookie header. */
function cookieHeader(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** The whole Google round trip against the mock; returns the session token's subject. */
async function googleSignIn(t: ReturnType<typeof newTest>): Promise<string> {
  // 1. The client asks to sign in with Google and is sent to the app's sign-in route.
  const started = await t.action(api.auth.signIn, { provider: "google", params: {} });
  expect(started.redirect).toBeDefined();
  const signInUrl = new URL(started.redirect!);
  const toProvider = await t.fetch(signInUrl.pathname + signInUrl.search, { redirect: "manual" });
  expect(toProvider.status).toBe(302);
  const authorizeUrl = new URL(toProvider.headers.get("location")!);
  expect(authorizeUrl.origin).toBe(new URL(server.issuer.url!).origin);

  // 2. The mock provider "logs the user in" and redirects back to the callback.
  const fromProvider = await fetch(authorizeUrl, { redirect: "manual" });
  const callbackUrl = new URL(fromProvider.headers.get("location")!);
  expect(callbackUrl.pathname).toBe("/api/auth/callback/google");

  // 3. The callback exchanges the code with the mock and redirects to the app with a code.
  const toApp = await t.fetch(callbackUrl.pathname + callbackUrl.search, {
    redirect: "manual",
    headers: { cookie: cookieHeader(toProvider) },
  });
  expect(toApp.status).toBe(302);
  const appUrl = new URL(toApp.headers.get("location")!);
  expect(appUrl.origin).toBe(SITE_URL);
  const code = appUrl.searchParams.get("code");
  expect(code).toBeTruthy();

  // 4. The app trades the code for session tokens.
  const done = await t.action(api.auth.signIn, {
    provider: "google",
    params: { code: code! },
    verifier: started.verifier,
  });
  const token = done.tokens!.token;
  const payload = JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString());
  return payload.sub as string;
}

test("Google sign-in against the OpenID mock creates the comedian's profile", async () => {
  const t = newTest();
  const payload = { sub: await googleSignIn(t) };
  const userId = payload.sub.split("|")[0] as Id<"users">;
  const me = await t.withIdentity({ subject: payload.sub }).query(api.profiles.me, {});
  expect(me).toMatchObject({
    userId,
    displayName: "Gina Google",
    email: "gina.google@example.com",
    photoUrl: "https://example.com/gina.png",
    needsOnboarding: true,
    onboardingCompleted: false,
    weeklyGoalMinutes: 15,
    hasProfile: true,
  });
});

test("ADMIN_EMAILS makes an admin of a Google account whose email Google verified", async () => {
  vi.stubEnv("ADMIN_EMAILS", "gina.google@example.com");
  googleClaims = GINA;
  try {
    const t = newTest();
    const subject = await googleSignIn(t);
    expect(await t.withIdentity({ subject }).query(api.profiles.isAdmin, {})).toBe(true);
  } finally {
    vi.stubEnv("ADMIN_EMAILS", "");
  }
});

test("a Google account with an unverified listed email is not an admin and is not marked verified", async () => {
  vi.stubEnv("ADMIN_EMAILS", "gina.google@example.com");
  googleClaims = { ...GINA, sub: "google-user-43", email_verified: false };
  try {
    const t = newTest();
    const subject = await googleSignIn(t);
    expect(await t.withIdentity({ subject }).query(api.profiles.isAdmin, {})).toBe(false);
    const userId = subject.split("|")[0] as Id<"users">;
    const user = await t.run(async (ctx) => ctx.db.get("users", userId));
    expect(user?.emailVerificationTime).toBeUndefined();
  } finally {
    googleClaims = GINA;
    vi.stubEnv("ADMIN_EMAILS", "");
  }
});
