/** The server environment Convex Auth needs in tests that sign in for real (`auth:signIn`). */
import { exportPKCS8, generateKeyPair } from "jose";
import { afterEach, beforeAll, beforeEach, vi } from "vitest";

/** The backend's HTTP actions URL: Convex Auth names it as the issuer of session JWTs. */
export const TEST_CONVEX_SITE_URL = "http://127.0.0.1:3211";
/** The front end's URL (redirects go back to it). */
export const TEST_SITE_URL = "http://localhost:5173";

/** A fresh RS256 private key in PKCS#8, as `JWT_PRIVATE_KEY` holds it. */
export async function newSigningKey(): Promise<string> {
  const keys = await generateKeyPair("RS256", { extractable: true });
  return await exportPKCS8(keys.privateKey);
}

/**
 * Stubs what Convex Auth reads: `JWT_PRIVATE_KEY` (it signs session JWTs) and the site URLs.
 * `vi.unstubAllEnvs()` undoes it.
 */
export function stubAuthEnv(privateKey: string): void {
  vi.stubEnv("JWT_PRIVATE_KEY", privateKey);
  vi.stubEnv("CONVEX_SITE_URL", TEST_CONVEX_SITE_URL);
  vi.stubEnv("SITE_URL", TEST_SITE_URL);
}

/** For every test of the calling file: Convex Auth's environment ({@link stubAuthEnv}, one key per file), unstubbed afterwards. */
export function useAuthEnv(): void {
  let privateKey = "";
  beforeAll(async () => {
    privateKey = await newSigningKey();
  });
  beforeEach(() => {
    stubAuthEnv(privateKey);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });
}
