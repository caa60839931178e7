/**
 * A token that expires while its connection is open stops counting: the
 * backend tells the client (AuthError "Token expired"), the client asks for a
 * new token, and live subscriptions follow whichever token it gets.
 */
import { importPKCS8, SignJWT } from "jose";
import { afterAll, beforeAll, expect, test } from "vitest";
import { api } from "./fixture/convex/_generated/api";
import { type Backend, readEnv, startBackend, Subscription } from "./harness";

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});

afterAll(async () => {
  await backend?.dispose();
});

test("an identity ends when its token expires mid-connection; a fresh token restores it", async () => {
  const env = await readEnv(backend);
  const key = await importPKCS8(env.JWT_PRIVATE_KEY, "RS256");
  const kid = (JSON.parse(env.JWKS) as { keys: { kid?: string }[] }).keys[0]?.kid;
  const sign = async (subject: string, seconds: number) => {
    const now = Math.floor(Date.now() / 1000);
    return await new SignJWT({ sub: subject })
      .setProtectedHeader(kid ? { alg: "RS256", kid } : { alg: "RS256" })
      .setIssuedAt(now)
      .setIssuer(env.CONVEX_SITE_URL)
      .setAudience("convex")
      .setExpirationTime(now + seconds)
      .sign(key);
  };

  const client = backend.client();
  const identity = new Subscription(client, api.whoami.identity, {});
  await identity.waitFor((v) => v === null, "no identity at first");
  // setAuth fetches twice (a cached token, then a fresh one): both live 2 s, too
  // short for the client to schedule its own refresh. Later fetches, which only
  // the backend's "Token expired" causes, get a long-lived token of another subject.
  let fetches = 0;
  client.setAuth(async () => (++fetches <= 2 ? await sign("short|1", 2) : await sign("long|2", 3600)));
  await identity.waitFor((v) => v?.subject === "long|2", "the identity of the refetched token", 20_000);
  const subjects = identity.values.map((v) => v?.subject ?? null);
  expect(subjects).toContain("short|1");
  expect(subjects.indexOf("short|1")).toBeLessThan(subjects.indexOf("long|2"));
  expect(fetches).toBeGreaterThanOrEqual(3);
});
