/**
 * Refresh tokens minted before the id change: Convex Auth's refresh token is
 * `<authRefreshTokens id>|<authSessions id>`, and old data directories hold
 * those rows under counter ids (`<counter><table>`), which can be guessed by
 * counting down for as long as the token lives (30 days). Such rows are
 * deleted when a data directory is opened or a snapshot imported, and their
 * ids never resolve: the old refresh token signs nobody in (the account
 * itself is kept; its owner signs in again).
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { api } from "../local-backend/fixture/convex/_generated/api";
import { type Backend, startBackend, tempDir } from "../local-backend/harness";

let backend: Backend | undefined;

afterAll(async () => {
  await backend?.dispose();
});

type Tokens = { token: string; refreshToken: string };

async function signIn(b: Backend, params: Record<string, unknown>): Promise<Tokens | null> {
  try {
    const result = await b.httpClient().action(api.auth.signIn, params as any);
    return (result as { tokens?: Tokens | null }).tokens ?? null;
  } catch {
    return null;
  }
}

const PASSWORD = "correct horse battery";

async function signUp(b: Backend, email: string): Promise<Tokens> {
  const tokens = await signIn(b, { provider: "password", params: { email, password: PASSWORD, flow: "signUp" } });
  expect(tokens).toBeTruthy();
  return tokens!;
}

/** The refresh token's two ids rewritten as old counter ids, and a function doing that to text. */
function legacyRewrite(refreshToken: string): { token: string; apply: (text: string) => string } {
  const [refreshId, sessionId] = refreshToken.split("|");
  const oldRefresh = "10007authRefreshTokens";
  const oldSession = "10006authSessions";
  return {
    token: `${oldRefresh}|${oldSession}`,
    apply: (text) => text.split(refreshId).join(oldRefresh).split(sessionId).join(oldSession),
  };
}

async function admin(b: Backend, route: string, body: unknown): Promise<any> {
  const adminKey = (await readFile(path.join(b.dataDir, "admin-key"), "utf8")).trim();
  const response = await fetch(`${b.url}/_local/${route}`, {
    method: "POST",
    headers: { Authorization: `Convex ${adminKey}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${route}: ${response.status} ${await response.text()}`);
  return await response.json();
}

describe("old-format session and refresh token ids (issue 13 item 1)", () => {
  test("a data directory with old-format auth rows: after start the old refresh token does not sign in", async () => {
    const dataDir = await tempDir();
    backend = await startBackend({ dataDir });
    const email = "legacy-dir@example.com";
    const tokens = await signUp(backend, email);
    await backend.stop();
    // The same rows as a backend before the id change would have written them.
    const legacy = legacyRewrite(tokens.refreshToken);
    let rewritten = 0;
    for (const name of await readdir(dataDir)) {
      if (name !== "log.jsonl" && name !== "snapshot.json") continue;
      const file = path.join(dataDir, name);
      const text = await readFile(file, "utf8");
      const next = legacy.apply(text);
      if (next !== text) rewritten++;
      await writeFile(file, next);
    }
    expect(rewritten).toBeGreaterThan(0);
    await backend.start();
    expect(await signIn(backend, { refreshToken: legacy.token })).toBeNull();
    // Still refused after another restart (the rows are gone from disk, not only hidden).
    await backend.restart();
    expect(await signIn(backend, { refreshToken: legacy.token })).toBeNull();
    // The account itself is kept: its owner signs in again with the password.
    const again = await signIn(backend, {
      provider: "password",
      params: { email, password: PASSWORD, flow: "signIn" },
    });
    expect(again?.token).toBeTruthy();
    await backend.dispose();
    backend = undefined;
  }, 180_000);

  test("a snapshot import with old-format auth rows: the old refresh token does not sign in", async () => {
    backend = await startBackend();
    const tokens = await signUp(backend, "legacy-import@example.com");
    const snapshot = await admin(backend, "export", {});
    const legacy = legacyRewrite(tokens.refreshToken);
    const text = JSON.stringify(snapshot);
    const rewritten = legacy.apply(text);
    expect(rewritten).not.toBe(text);
    await admin(backend, "import", JSON.parse(rewritten));
    expect(await signIn(backend, { refreshToken: legacy.token })).toBeNull();
    await backend.dispose();
    backend = undefined;
  }, 180_000);
});
