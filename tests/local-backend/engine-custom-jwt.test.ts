/**
 * `customJwt` providers in auth.config.ts: tokens from another issuer, checked
 * against its JWKS (here a data: URI), algorithm and applicationID.
 */
import fs from "node:fs";
import path from "node:path";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from "jose";
import { afterAll, beforeAll, expect, test } from "vitest";
import { anyApi } from "convex/server";
import { type Backend, repoRoot, startBackend, tempDir } from "./harness";

const api = anyApi as any;
const ISSUER = "https://issuer.example.test";
let backend: Backend;
let dir: string;
let privateKey: CryptoKey;

beforeAll(async () => {
  const keys = await generateKeyPair("RS256", { extractable: true });
  privateKey = keys.privateKey;
  const jwks = JSON.stringify({
    keys: [{ ...(await exportJWK(keys.publicKey)), kid: "k1", alg: "RS256", use: "sig" }],
  });
  dir = await tempDir("stagetime-lb-jwt-");
  const functionsDir = path.join(dir, "convex");
  fs.cpSync(path.join(repoRoot, "tests/bench/fixture/convex"), functionsDir, { recursive: true });
  fs.writeFileSync(
    path.join(functionsDir, "auth.config.ts"),
    `export default { providers: [{ type: "customJwt", issuer: ${JSON.stringify(ISSUER)}, ` +
      `jwks: ${JSON.stringify(`data:text/plain;charset=utf-8;base64,${Buffer.from(jwks).toString("base64")}`)}, ` +
      `algorithm: "RS256", applicationID: "stagetime-tests" }] };\n`,
  );
  fs.writeFileSync(
    path.join(functionsDir, "whoami.ts"),
    `import { query } from "./_generated/server";\n` +
      `export const identity = query({ args: {}, handler: async (ctx) => await ctx.auth.getUserIdentity() });\n`,
  );
  backend = await startBackend({ functionsDir });
});

afterAll(async () => {
  await backend?.dispose();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function token(claims: { aud?: string; iss?: string } = {}): Promise<string> {
  return await new SignJWT({ sub: "ext-42", email: "ext@example.test" })
    .setProtectedHeader({ alg: "RS256", kid: "k1" })
    .setIssuedAt()
    .setIssuer(claims.iss ?? ISSUER)
    .setAudience(claims.aud ?? "stagetime-tests")
    .setExpirationTime("1h")
    .sign(privateKey);
}

test("a token of a customJwt provider yields its identity", async () => {
  const http = backend.httpClient();
  http.setAuth(await token());
  expect(await http.query(api.whoami.identity, {})).toMatchObject({
    subject: "ext-42",
    issuer: ISSUER,
    tokenIdentifier: `${ISSUER}|ext-42`,
    email: "ext@example.test",
  });
});

test("a wrong audience or issuer is refused", async () => {
  for (const claims of [{ aud: "someone-else" }, { iss: "https://other.example.test" }]) {
    const http = backend.httpClient();
    http.setAuth(await token(claims));
    await expect(http.query(api.whoami.identity, {})).rejects.toThrow();
  }
});
