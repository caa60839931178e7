/**
 * JWT verification as Convex does it for `auth.config.ts` providers, and the
 * key pair `@convex-dev/auth` signs its tokens with.
 */
import { timingSafeEqual } from "node:crypto";
import * as jose from "jose";
import type { AuthConfig } from "convex/server";
import type { Caller } from "../runtime/index.js";

/** What token checks use of the engine: its auth config, and its site for a provider's keys. */
export type AuthHost = {
  readonly authConfig: AuthConfig | null;
  readonly opts: { readonly siteUrl: string };
  httpAction(pathAndQuery: string, init: RequestInit, caller: Caller): Promise<Response>;
};

/** Whether `given` is the deployment's admin key: a constant-time comparison, so the time a
 * wrong key takes to refuse says nothing about how much of it was right. The one rule for
 * every place an admin key arrives (the WebSocket's Authenticate and the HTTP API). */

/** An auth.config.ts provider: OIDC (`domain`) or a custom JWT issuer (`type: "customJwt"`). */
type Provider = {
  type?: string;
  domain?: string;
  issuer?: string;
  jwks?: string;
  algorithm?: string;
  applicationID?: string;
};

export function isAdminKey(expected: string, given: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Claim name -> UserIdentity field, as Convex maps them. */
const CLAIM_TO_FIELD: Record<string, string> = {
  sub: "subject",
  iss: "issuer",
  name: "name",
  given_name: "givenName",
  family_name: "familyName",
  nickname: "nickname",
  preferred_username: "preferredUsername",
  profile: "profileUrl",
  picture: "pictureUrl",
  email: "email",
  email_verified: "emailVerified",
  gender: "gender",
  birthdate: "birthday",
  zoneinfo: "timezone",
  locale: "language",
  phone_number: "phoneNumber",
  phone_number_verified: "phoneNumberVerified",
  address: "address",
  updated_at: "updatedAt",
};
const DROPPED_CLAIMS = new Set(["aud", "exp", "iat", "nbf", "jti"]);
/** Where a verified token's expiry (seconds) is kept on the identity object, not enumerable. */
export const EXPIRES = Symbol("expires");

export class AuthError extends Error {}

/** The identity Convex gives functions for a verified token's claims. */
export function identityFromClaims(claims: jose.JWTPayload): Record<string, unknown> {
  const identity: Record<string, unknown> = {};
  for (const [claim, value] of Object.entries(claims)) {
    if (DROPPED_CLAIMS.has(claim) || value === undefined) continue;
    identity[CLAIM_TO_FIELD[claim] ?? claim] = value;
  }
  identity.tokenIdentifier = `${claims.iss}|${claims.sub}`;
  return identity;
}

const trimSlash = (s: string) => s.replace(/\/+$/, "");

type KeySet = ReturnType<typeof jose.createLocalJWKSet>;

/** Verified tokens kept at most (oldest dropped first). */
const VERIFIED_TOKENS_MAX = 10_000;
/** How long a provider's fetched keys are used before they are fetched again. */
const KEYS_MAX_AGE_MS = 5 * 60_000;
/** A refetch forced by a token naming an unknown key, at most this often (unsigned tokens can name any). */
const FORCED_REFETCH_MIN_MS = 30_000;

type Verified = {
  identity: Record<string, unknown>;
  exp: number | undefined;
  keys: KeySet;
  cacheKey: string;
  /** The auth config it was checked under (a reload that drops a provider drops its tokens). */
  config: unknown;
};

export class TokenVerifier {
  private keySets = new Map<string, { keys: KeySet; fetchedAt: number }>();
  /**
   * Tokens already verified, by their exact text: a client sends the same token with every
   * request until it refreshes it, and the signature check is most of a request's CPU. A
   * kept token is accepted only while it has not expired and the keys it was checked with are
   * still the provider's current ones (refetched every KEYS_MAX_AGE_MS, dropped by reset()).
   */
  private verified = new Map<string, Verified>();
  /** Figures for `/_local/stats`: tokens answered from `verified`, and signature checks run. */
  cacheHits = 0;
  signatureChecks = 0;
  keyFetches = 0;

  constructor(private readonly engine: AuthHost) {}

  /** Forget cached keys and verified tokens (after env or auth config changes). */
  reset(): void {
    this.keySets.clear();
    this.verified.clear();
  }

  /** A kept verification of `token` that still holds, as a new identity object. */
  private cached(token: string): Record<string, unknown> | null {
    const hit = this.verified.get(token);
    if (!hit) return null;
    const keySet = this.keySets.get(hit.cacheKey);
    const expired = hit.exp !== undefined && hit.exp <= Math.floor(Date.now() / 1000);
    const stale = keySet?.keys !== hit.keys || Date.now() - keySet.fetchedAt >= KEYS_MAX_AGE_MS;
    if (expired || stale || hit.config !== this.engine.authConfig) {
      this.verified.delete(token);
      return null;
    }
    this.cacheHits++;
    const identity = { ...hit.identity };
    if (hit.exp !== undefined) Object.defineProperty(identity, EXPIRES, { value: hit.exp });
    return identity;
  }

  private async fetchJson(url: string): Promise<unknown> {
    const site = trimSlash(this.engine.opts.siteUrl);
    let response: Response;
    if (url.startsWith(`${site}/`)) {
      // Our own HTTP actions: call the router in process.
      response = await this.engine.httpAction(url.slice(site.length), { method: "GET" }, { kind: "none" });
    } else {
      response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    }
    if (!response.ok) throw new AuthError(`Fetching ${url} failed with HTTP ${response.status}`);
    return await response.json();
  }

  private async keysFor(cacheKey: string, load: () => Promise<KeySet>, fresh = false): Promise<KeySet> {
    const cached = this.keySets.get(cacheKey);
    const age = cached ? Date.now() - cached.fetchedAt : Infinity;
    if (cached && age < KEYS_MAX_AGE_MS && (!fresh || age < FORCED_REFETCH_MIN_MS)) return cached.keys;
    this.keyFetches++;
    const keys = await load();
    this.keySets.set(cacheKey, { keys, fetchedAt: Date.now() });
    return keys;
  }

  /** Verifies a token against the configured providers; returns the identity. */
  async verify(token: string): Promise<Record<string, unknown>> {
    const cached = this.cached(token);
    if (cached) return cached;
    let claims: jose.JWTPayload;
    try {
      claims = jose.decodeJwt(token);
    } catch {
      throw new AuthError("Could not parse the JWT");
    }
    const config = this.engine.authConfig;
    const providers = (config?.providers ?? []) as Provider[];
    if (providers.length === 0) throw new AuthError("No auth providers are configured (auth.config.ts)");
    const iss = typeof claims.iss === "string" ? claims.iss : "";
    for (const provider of providers) {
      if (provider.type === "customJwt") {
        if (trimSlash(String(provider.issuer ?? "")) !== trimSlash(iss)) continue;
        const load = async () => {
          const jwks = String(provider.jwks);
          const data = jwks.startsWith("data:")
            ? JSON.parse(Buffer.from(jwks.split(",", 2)[1], jwks.includes(";base64,") ? "base64" : "utf8").toString())
            : await this.fetchJson(jwks);
          return jose.createLocalJWKSet(data as jose.JSONWebKeySet);
        };
        return await this.check(token, `custom:${provider.jwks}`, load, config, {
          issuer: iss,
          audience: provider.applicationID ?? undefined,
          algorithms: [provider.algorithm ?? "RS256"],
        });
      }
      const domain = trimSlash(String(provider.domain ?? ""));
      if (!domain || domain !== trimSlash(iss)) continue;
      const load = async () => {
        const config = (await this.fetchJson(`${domain}/.well-known/openid-configuration`)) as { jwks_uri?: unknown };
        if (typeof config.jwks_uri !== "string") throw new AuthError(`${domain} has no jwks_uri`);
        return jose.createLocalJWKSet((await this.fetchJson(config.jwks_uri)) as jose.JSONWebKeySet);
      };
      return await this.check(token, `oidc:${domain}`, load, config, {
        issuer: iss,
        audience: provider.applicationID,
        algorithms: ["RS256", "ES256"],
      });
    }
    throw new AuthError(
      `No auth provider found matching the given token (issuer "${iss}", audience ${JSON.stringify(claims.aud)})`,
    );
  }

  private remember(token: string, verified: Verified): void {
    // Only while these keys are still the provider's (a refetch during the check replaced them).
    const current = this.keySets.get(verified.cacheKey)?.keys === verified.keys;
    if (!current || verified.config !== this.engine.authConfig) return;
    this.verified.delete(token);
    this.verified.set(token, verified);
    if (this.verified.size > VERIFIED_TOKENS_MAX) this.verified.delete(this.verified.keys().next().value!);
  }

  private async check(
    token: string,
    cacheKey: string,
    load: () => Promise<KeySet>,
    config: unknown,
    options: jose.JWTVerifyOptions,
  ): Promise<Record<string, unknown>> {
    for (const fresh of [false, true]) {
      let keys: KeySet;
      try {
        keys = await this.keysFor(cacheKey, load, fresh);
      } catch (error) {
        throw new AuthError(`Could not fetch the provider's keys: ${(error as Error).message}`);
      }
      try {
        this.signatureChecks++;
        const { payload } = await jose.jwtVerify(token, keys, options);
        if (typeof payload.sub !== "string") throw new AuthError("Token has no subject");
        const identity = identityFromClaims(payload);
        const exp = typeof payload.exp === "number" ? payload.exp : undefined;
        this.remember(token, { identity: { ...identity }, exp, keys, cacheKey, config });
        if (exp !== undefined) Object.defineProperty(identity, EXPIRES, { value: exp });
        return identity;
      } catch (error) {
        // The provider may have rotated its keys: refetch once.
        if (!fresh && error instanceof jose.errors.JWKSNoMatchingKey) continue;
        if (error instanceof jose.errors.JWTExpired) throw new AuthError("Token expired");
        if (error instanceof AuthError) throw error;
        throw new AuthError(`Invalid token: ${(error as Error).message}`);
      }
    }
    throw new AuthError("Invalid token");
  }
}

/** A fresh key pair in the format `@convex-dev/auth` reads from the environment. */
export async function generateAuthKeys(): Promise<{ JWT_PRIVATE_KEY: string; JWKS: string }> {
  const { privateKey, publicKey } = await jose.generateKeyPair("RS256", { extractable: true });
  const pkcs8 = await jose.exportPKCS8(privateKey);
  const jwk = await jose.exportJWK(publicKey);
  return {
    // Newlines as spaces, as the Convex Auth setup docs' generator writes it.
    JWT_PRIVATE_KEY: pkcs8.trimEnd().replace(/\n/g, " "),
    JWKS: JSON.stringify({ keys: [{ use: "sig", ...jwk }] }),
  };
}
