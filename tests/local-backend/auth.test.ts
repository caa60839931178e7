import type { ConvexClient } from "convex/browser";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api } from "./fixture/convex/_generated/api";
import { type Backend, startBackend, Subscription, waitFor } from "./harness";

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});

afterAll(async () => {
  await backend?.dispose();
});

type Tokens = { token: string; refreshToken: string };

async function signIn(args: Parameters<typeof passwordArgs>[0] | { refreshToken: string }): Promise<Tokens | null> {
  const http = backend.httpClient();
  const input = "refreshToken" in args ? { refreshToken: args.refreshToken } : passwordArgs(args);
  const result = await http.action(api.auth.signIn, input);
  return (result as { tokens?: Tokens | null }).tokens ?? null;
}

function passwordArgs({ email, password, flow }: { email: string; password: string; flow: "signUp" | "signIn" }) {
  return { provider: "password", params: { email, password, flow } };
}

/** Sets auth on a ConvexClient the way the React provider does, resolving with the first verdict. */
async function authenticate(
  client: ConvexClient,
  fetchToken: (args: { forceRefreshToken: boolean }) => Promise<string | null | undefined>,
): Promise<boolean> {
  return await new Promise<boolean>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no auth verdict within 30 s")), 30_000);
    client.setAuth(fetchToken, (ok) => {
      clearTimeout(timer);
      resolve(ok);
    });
  });
}

describe("@convex-dev/auth password flow, end to end", () => {
  const email = "dana@example.com";
  const password = "correct horse battery";

  test("sign up, sign in, refresh and sign out", async () => {
    // Sign up issues a session.
    const signedUp = await signIn({ email, password, flow: "signUp" });
    expect(signedUp).not.toBeNull();
    expect(typeof signedUp!.token).toBe("string");
    expect(typeof signedUp!.refreshToken).toBe("string");
    const claims = decodeJwt(signedUp!.token);
    expect(claims.iss).toBe(backend.siteUrl);
    expect(claims.aud).toBe("convex");

    // The token is accepted: whoami shows the user, live.
    const client = backend.client();
    const session = new Subscription(client, api.whoami.session, {});
    await session.waitFor((v) => v === null, "signed out at first");
    expect(await authenticate(client, async () => signedUp!.token)).toBe(true);
    const me = await session.waitFor((v) => v !== null, "the signed-in user");
    expect(me).toMatchObject({ email, sessionLive: true });
    const identity = await client.query(api.whoami.identity, {});
    expect(identity?.subject.startsWith(`${me!.userId}|`)).toBe(true);
    expect(identity?.tokenIdentifier).toBe(`${backend.siteUrl}|${identity?.subject}`);

    // Signing up again with the same email and another password is refused
    // (with the same password, @convex-dev/auth signs the user in instead).
    await expect(signIn({ email, password: "another password", flow: "signUp" })).rejects.toThrow();
    // A wrong password is refused.
    await expect(signIn({ email, password: "wrong password", flow: "signIn" })).rejects.toThrow();

    // Signing in again gives a second session of the same user.
    const signedIn = await signIn({ email, password, flow: "signIn" });
    expect(signedIn).not.toBeNull();
    const http = backend.httpClient();
    http.setAuth(signedIn!.token);
    const second = await http.query(api.whoami.session, {});
    expect(second).toMatchObject({ userId: me!.userId, sessionLive: true });
    expect(decodeJwt(signedIn!.token).sub).not.toBe(claims.sub);

    // The refresh token buys a new JWT for the same session.
    const refreshed = await signIn({ refreshToken: signedUp!.refreshToken });
    expect(refreshed).not.toBeNull();
    expect(refreshed!.refreshToken).not.toBe(signedUp!.refreshToken);
    expect(decodeJwt(refreshed!.token).sub).toBe(claims.sub);
    const viaRefreshed = backend.httpClient();
    viaRefreshed.setAuth(refreshed!.token);
    expect(await viaRefreshed.query(api.whoami.session, {})).toMatchObject({ userId: me!.userId, sessionLive: true });

    // Sign out ends the first session: the live query sees it, and its refresh
    // token no longer works. The other session is untouched.
    await client.action(api.auth.signOut, {});
    await session.waitFor((v) => v !== null && v.sessionLive === false, "the session to end");
    let afterSignOut: Tokens | null | "refused";
    try {
      afterSignOut = await signIn({ refreshToken: refreshed!.refreshToken });
    } catch {
      afterSignOut = "refused";
    }
    expect([null, "refused"]).toContain(afterSignOut);
    expect(await http.query(api.whoami.session, {})).toMatchObject({ userId: me!.userId, sessionLive: true });

    // Without a token there is no identity.
    client.client.clearAuth();
    await session.waitFor((v) => v === null, "no identity after clearing auth");
    expect(await backend.httpClient().query(api.whoami.identity, {})).toBeNull();
  }, 120_000);

  test("the client refreshes its token through signIn as the React provider does", async () => {
    const other = "lee@example.com";
    const first = await signIn({ email: other, password, flow: "signUp" });
    expect(first).not.toBeNull();
    let current = first!;
    const fetches: boolean[] = [];
    const client = backend.client();
    const session = new Subscription(client, api.whoami.session, {});
    const ok = await authenticate(client, async ({ forceRefreshToken }) => {
      fetches.push(forceRefreshToken);
      if (!forceRefreshToken) return current.token;
      const next = await signIn({ refreshToken: current.refreshToken });
      if (next === null) return null;
      current = next;
      return current.token;
    });
    expect(ok).toBe(true);
    const me = await session.waitFor((v) => v !== null, "the signed-in user");
    expect(me).toMatchObject({ email: other, sessionLive: true });
    // After the server confirmed the first token the client fetched a fresh one
    // (forceRefreshToken) and the server accepted it too: still signed in.
    await waitFor(() => fetches.includes(true), { message: "a forced refresh" });
    await waitFor(() => client.getAuth()?.token === current.token, { message: "the refreshed token in use" });
    expect(await client.query(api.whoami.session, {})).toMatchObject({ userId: me!.userId, sessionLive: true });
  }, 120_000);

  test("a password shorter than the provider allows is refused at sign-up", async () => {
    await expect(signIn({ email: "short@example.com", password: "12345", flow: "signUp" })).rejects.toThrow();
  });
});
