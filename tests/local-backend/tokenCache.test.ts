/**
 * The verified-token cache (auth.ts): a token checked once is answered
 * without a second signature check while it holds, and never once it no
 * longer would pass the check: expired, its provider's keys refetched or
 * replaced, the auth config changed. The verifier runs in this process with
 * a custom-JWT provider whose keys are a `data:` URL; the clock is faked.
 */
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from "jose";
import { afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { EXPIRES, TokenVerifier } from "../../local-backend/src/auth/auth";
import type { Engine } from "../../local-backend/src/engine/engine";

const ISSUER = "https://issuer.test";
let privateKey: CryptoKey;
let jwks: string;

beforeAll(async () => {
  const pair = await generateKeyPair("RS256", { extractable: true });
  privateKey = pair.privateKey;
  const jwk = await exportJWK(pair.publicKey);
  jwks = `data:application/json;base64,${Buffer.from(JSON.stringify({ keys: [{ ...jwk, alg: "RS256", kid: "k1" }] })).toString("base64")}`;
});

afterEach(() => {
  vi.useRealTimers();
});

const config = () => ({ providers: [{ type: "customJwt", issuer: ISSUER, jwks, algorithm: "RS256" }] });

function verifier(authConfig: unknown = config()): { verifier: TokenVerifier; engine: { authConfig: unknown } } {
  const engine = { authConfig, opts: { siteUrl: "http://127.0.0.1:1" } };
  return { verifier: new TokenVerifier(engine as unknown as Engine), engine };
}

async function sign(expiresInSeconds: number, sub = "user|session", kid?: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return await new SignJWT({ sub })
    .setProtectedHeader(kid === undefined ? { alg: "RS256" } : { alg: "RS256", kid })
    .setIssuedAt(now)
    .setIssuer(ISSUER)
    .setExpirationTime(now + expiresInSeconds)
    .sign(privateKey);
}

describe("the verified-token cache", () => {
  test("a token checked once is answered again without a signature check, with the same identity", async () => {
    const { verifier: v } = verifier();
    const token = await sign(3600);
    const first = await v.verify(token);
    const second = await v.verify(token);
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    expect((second as Record<symbol, unknown>)[EXPIRES]).toBe((first as Record<symbol, unknown>)[EXPIRES]);
    expect(first.tokenIdentifier).toBe(`${ISSUER}|user|session`);
    expect({ checks: v.signatureChecks, hits: v.cacheHits }).toEqual({ checks: 1, hits: 1 });
  });

  test("tokens naming unknown keys force a refetch at most every 30 s, and do not empty the cache", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { verifier: v } = verifier();
    const good = await sign(3600);
    await v.verify(good);
    expect(v.keyFetches).toBe(1);
    for (let i = 0; i < 5; i++) await expect(v.verify(await sign(3600, "x|y", `nope-${i}`))).rejects.toThrow();
    expect(v.keyFetches).toBe(1);
    await v.verify(good);
    expect(v.cacheHits).toBe(1);
    // Later, a token with a new key may make the verifier fetch the keys again, once.
    vi.setSystemTime(Date.now() + 31_000);
    for (let i = 0; i < 3; i++) await expect(v.verify(await sign(3600, "x|y", "rotated"))).rejects.toThrow();
    expect(v.keyFetches).toBe(2);
  });

  test("an expired token is refused even though it was verified before", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { verifier: v } = verifier();
    const token = await sign(60);
    await v.verify(token);
    vi.setSystemTime(Date.now() + 61_000);
    await expect(v.verify(token)).rejects.toThrow(/expired/);
    expect(v.cacheHits).toBe(0);
  });

  test("a token is checked again once the provider's keys are refetched (every 5 minutes)", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { verifier: v } = verifier();
    const token = await sign(3600);
    await v.verify(token);
    vi.setSystemTime(Date.now() + 5 * 60_000 + 1);
    await v.verify(token);
    expect({ checks: v.signatureChecks, hits: v.cacheHits }).toEqual({ checks: 2, hits: 0 });
  });

  test("a changed auth config (or reset after an env change) drops what was verified", async () => {
    const { verifier: v, engine } = verifier();
    const token = await sign(3600);
    await v.verify(token);
    // The provider is gone: the token no longer verifies.
    engine.authConfig = { providers: [] };
    await expect(v.verify(token)).rejects.toThrow(/No auth providers/);
    engine.authConfig = config();
    await v.verify(token);
    v.reset();
    await v.verify(token);
    expect({ checks: v.signatureChecks, hits: v.cacheHits }).toEqual({ checks: 3, hits: 0 });
  });

  test("only the exact token is answered from the cache: a tampered one is checked and refused", async () => {
    const { verifier: v } = verifier();
    const token = await sign(3600);
    await v.verify(token);
    const [header, payload] = token.split(".");
    const other = JSON.parse(Buffer.from(payload, "base64url").toString());
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...other, sub: "admin|x" })).toString("base64url")}.${token.split(".")[2]}`;
    await expect(v.verify(forged)).rejects.toThrow(/Invalid token/);
    expect(v.cacheHits).toBe(0);
  });
});
