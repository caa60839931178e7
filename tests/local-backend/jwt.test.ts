import type { ConvexClient } from "convex/browser";
import { exportJWK, generateKeyPair, importPKCS8, SignJWT, type CryptoKey, type JWTPayload } from "jose";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api } from "./fixture/convex/_generated/api";
import { type Backend, readEnv, startBackend, Subscription, waitFor } from "./harness";

let backend: Backend;
let privateKey: CryptoKey;
let kid: string | undefined;
let issuer: string;

beforeAll(async () => {
  backend = await startBackend();
  const env = await readEnv(backend);
  expect(env.JWT_PRIVATE_KEY, "env list shows JWT_PRIVATE_KEY").toBeTruthy();
  expect(env.CONVEX_SITE_URL, "env list shows CONVEX_SITE_URL").toBeTruthy();
  privateKey = await importPKCS8(env.JWT_PRIVATE_KEY, "RS256");
  const jwks = JSON.parse(env.JWKS) as { keys: { kid?: string }[] };
  kid = jwks.keys[0]?.kid;
  issuer = env.CONVEX_SITE_URL;
});

afterAll(async () => {
  await backend?.dispose();
});

const SUBJECT = "user123|session456";

/** Signs a token the way @convex-dev/auth does, with overridable claims. */
async function sign(
  claims: JWTPayload & { iss?: string; aud?: string },
  { key = privateKey, keyId = kid, expiresInSeconds = 3600, issuedAgoSeconds = 0 } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return await new SignJWT({ sub: SUBJECT, ...claims })
    .setProtectedHeader(keyId ? { alg: "RS256", kid: keyId } : { alg: "RS256" })
    .setIssuedAt(now - issuedAgoSeconds)
    .setIssuer(claims.iss ?? issuer)
    .setAudience(claims.aud ?? "convex")
    .setExpirationTime(now - issuedAgoSeconds + expiresInSeconds)
    .sign(key);
}

/** Sets the token on a ConvexClient and resolves with the first auth verdict. */
async function authenticate(client: ConvexClient, token: string): Promise<boolean> {
  return await new Promise<boolean>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no auth verdict within 30 s")), 30_000);
    client.setAuth(
      async () => token,
      (isAuthenticated) => {
        clearTimeout(timer);
        resolve(isAuthenticated);
      },
    );
  });
}

describe("JWT verification", () => {
  test("a valid token yields the identity over the WebSocket", async () => {
    const client = backend.client();
    const sub = new Subscription(client, api.whoami.identity, {});
    await sub.waitFor((v) => v === null, "no identity before setAuth");
    const token = await sign({ email: "comic@example.com", name: "Dana Comic" });
    expect(await authenticate(client, token)).toBe(true);
    const identity = await sub.waitFor((v) => v !== null, "the identity after setAuth");
    expect(identity).toMatchObject({
      subject: SUBJECT,
      issuer,
      tokenIdentifier: `${issuer}|${SUBJECT}`,
      email: "comic@example.com",
      name: "Dana Comic",
    });
    expect(await client.query(api.whoami.identity, {})).toMatchObject({ subject: SUBJECT });

    // Clearing auth takes the identity away from the live subscription.
    client.client.clearAuth();
    await sub.waitFor((v) => v === null, "no identity after clearAuth");
  });

  test("the same query under different identities is not shared between them", async () => {
    const clients = [backend.client(), backend.client(), backend.client()];
    const subjects = ["alice|s1", "bob|s2"];
    const subs = clients.map((c) => new Subscription(c, api.whoami.identity, {}));
    await Promise.all(subs.map((s) => s.waitFor((v) => v === null, "no identity at first")));
    expect(await authenticate(clients[0], await sign({ sub: subjects[0] }))).toBe(true);
    expect(await authenticate(clients[1], await sign({ sub: subjects[1] }))).toBe(true);
    expect((await subs[0].waitFor((v) => v !== null, "alice"))?.subject).toBe(subjects[0]);
    expect((await subs[1].waitFor((v) => v !== null, "bob"))?.subject).toBe(subjects[1]);
    // The anonymous client still sees no identity.
    expect(await clients[2].query(api.whoami.identity, {})).toBeNull();
    expect(subs[2].values).toEqual([null]);
    expect(subs[0].values.filter((v) => v !== null).map((v) => v!.subject)).toEqual([subjects[0]]);
  });

  test("a valid token yields the identity over HTTP", async () => {
    const http = backend.httpClient();
    http.setAuth(await sign({}));
    expect(await http.query(api.whoami.identity, {})).toMatchObject({
      subject: SUBJECT,
      issuer,
      tokenIdentifier: `${issuer}|${SUBJECT}`,
    });
  });

  const badTokens: [string, () => Promise<string>][] = [
    [
      "a tampered token",
      async () => {
        const [header, , signature] = (await sign({})).split(".");
        const forged = Buffer.from(
          JSON.stringify({
            sub: "admin|session",
            iss: issuer,
            aud: "convex",
            iat: Math.floor(Date.now() / 1000),
            exp: Math.floor(Date.now() / 1000) + 3600,
          }),
        ).toString("base64url");
        return `${header}.${forged}.${signature}`;
      },
    ],
    ["an expired token", async () => await sign({}, { issuedAgoSeconds: 7200, expiresInSeconds: 3600 })],
    ["a token from another issuer", async () => await sign({ iss: "https://accounts.evil.example" })],
    ["a token for another audience", async () => await sign({ aud: "another-app" })],
    [
      "a token signed with another key",
      async () => {
        const { privateKey: otherKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
        const otherKid = kid ?? (await exportJWK(publicKey)).kid;
        return await sign({}, { key: otherKey, keyId: otherKid });
      },
    ],
    [
      "a token with alg none",
      async () => {
        const payload = Buffer.from(
          JSON.stringify({ sub: SUBJECT, iss: issuer, aud: "convex", exp: Math.floor(Date.now() / 1000) + 3600 }),
        ).toString("base64url");
        return `${Buffer.from(JSON.stringify({ alg: "none" })).toString("base64url")}.${payload}.`;
      },
    ],
    ["something that is not a JWT", async () => "definitely.not.a-jwt"],
  ];

  test.each(badTokens)("%s gets an AuthError and no identity over the WebSocket", async (_name, makeToken) => {
    const client = backend.client();
    const token = await makeToken();
    expect(await authenticate(client, token)).toBe(false);
    expect(await client.query(api.whoami.identity, {})).toBeNull();
    // The connection is still usable for unauthenticated work.
    await client.mutation(api.counters.bump, { name: "after-bad-token" });
  });

  test.each(badTokens)("%s is refused over HTTP", async (_name, makeToken) => {
    const http = backend.httpClient();
    http.setAuth(await makeToken());
    let identity: unknown = "not called";
    try {
      identity = await http.query(api.whoami.identity, {});
    } catch {
      identity = "refused";
    }
    // Real Convex refuses the request; an anonymous answer would also show no identity.
    expect(["refused", null]).toContain(identity);
  });

  test("a bad token on one client does not affect another client's identity", async () => {
    const good = backend.client();
    const bad = backend.client();
    const goodSub = new Subscription(good, api.whoami.identity, {});
    expect(await authenticate(good, await sign({}))).toBe(true);
    await goodSub.waitFor((v) => v !== null, "the good identity");
    expect(await authenticate(bad, await sign({ iss: "https://elsewhere.example" }))).toBe(false);
    await good.mutation(api.counters.bump, { name: "good-client" });
    await waitFor(async () => (await good.query(api.whoami.identity, {}))?.subject === SUBJECT, {
      message: "the good client to keep its identity",
    });
  });
});
