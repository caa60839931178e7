/**
 * Issue 13 item 1: document ids cannot be guessed. Convex Auth's refresh token
 * is `<authRefreshTokens id>|<authSessions id>`, so with sequential ids counting
 * down from your own tokens signed in as the previous account. Ids are now
 * Convex's format (random bits plus the table number), so the neighbours of
 * your own ids name nothing, and a refresh token built from them signs nobody in.
 */
import { ConvexError } from "convex/values";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { decodeId, encodeId } from "../../local-backend/src/common/ids";
import { api } from "../local-backend/fixture/convex/_generated/api";
import type { Id } from "../local-backend/fixture/convex/_generated/dataModel";
import { type Backend, startBackend } from "../local-backend/harness";

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});

afterAll(async () => {
  await backend?.dispose();
});

/** The id `delta` steps away from `id`, in whichever format it has (what an attacker counting would try). */
function neighbour(id: string, delta: number): string {
  const decoded = decodeId(id);
  if (decoded) {
    let n = 0n;
    for (const byte of decoded.internalId) n = (n << 8n) | BigInt(byte);
    n = (n + BigInt(delta) + (1n << 128n)) % (1n << 128n);
    const bytes = new Uint8Array(16);
    for (let i = 15; i >= 0; i--) {
      bytes[i] = Number(n & 0xffn);
      n >>= 8n;
    }
    return encodeId(decoded.tableNumber, bytes);
  }
  const digits = /^[0-9]+/.exec(id)![0];
  return `${(BigInt(digits) + BigInt(delta)).toString().padStart(digits.length, "0")}${id.slice(digits.length)}`;
}

type Tokens = { token: string; refreshToken: string };

async function signUp(email: string): Promise<Tokens> {
  const result = await backend.httpClient().action(api.auth.signIn, {
    provider: "password",
    params: { email, password: "correct horse battery", flow: "signUp" },
  });
  const tokens = (result as { tokens?: Tokens | null }).tokens;
  expect(tokens).toBeTruthy();
  return tokens!;
}

async function signInWithRefreshToken(refreshToken: string): Promise<Tokens | null> {
  try {
    const result = await backend.httpClient().action(api.auth.signIn, { refreshToken });
    return (result as { tokens?: Tokens | null }).tokens ?? null;
  } catch {
    return null;
  }
}

describe("document ids are unguessable (issue 13 item 1)", () => {
  test("ids have Convex's shape: 32 characters of its base32 alphabet, table number inside", async () => {
    const http = backend.httpClient();
    const id = await http.mutation(api.messages.send, { channel: "ids-shape", author: "a", body: "x" });
    expect(id).toMatch(/^[0-9a-hjkmnp-tv-z]{32}$/);
    expect(decodeId(id)).not.toBeNull();
    // Valid for v.id("messages") (rewrite takes one), refused as another table's id.
    await expect(http.mutation(api.messages.rewrite, { id })).resolves.toBeNull();
    await expect(http.query(api.files.get, { storageId: id as unknown as Id<"_storage"> })).rejects.toThrow(
      /Validator|_storage/,
    );
  });

  test("neighbours of your own document ids never resolve", async () => {
    const http = backend.httpClient();
    const ids: Id<"messages">[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(await http.mutation(api.messages.send, { channel: "ids", author: "a", body: `#${i}` }));
    const mine = new Set<string>(ids);
    let resolved = 0;
    for (const id of ids) {
      for (const delta of [-3, -2, -1, 1, 2, 3]) {
        const guess = neighbour(id, delta);
        if (mine.has(guess)) {
          resolved++;
          continue;
        }
        try {
          await http.mutation(api.messages.rewrite, { id: guess as Id<"messages"> });
          resolved++;
        } catch (error) {
          // NOT_FOUND is the only acceptable answer for a well-formed guess.
          expect(error).toBeInstanceOf(ConvexError);
        }
      }
    }
    expect(resolved, "neighbour ids that named an existing message").toBe(0);
  });

  test("a refresh token guessed from your own authRefreshTokens/authSessions ids never signs in", async () => {
    await signUp("victim@example.com");
    const attacker = await signUp("attacker@example.com");
    const [refreshId, sessionId] = attacker.refreshToken.split("|");
    expect(sessionId).toBeTruthy();
    // Every sign-up writes the same documents, so the previous account's pair is
    // the same distance back in both tables: count down both together.
    let takeovers = 0;
    for (let k = 1; k <= 30; k++) {
      const guess = `${neighbour(refreshId, -k)}|${neighbour(sessionId, -k)}`;
      if (await signInWithRefreshToken(guess)) takeovers++;
    }
    expect(takeovers, "guessed refresh tokens that signed in").toBe(0);
    // The real token still works (the guesses did not break the mechanism).
    expect(await signInWithRefreshToken(attacker.refreshToken)).not.toBeNull();
  });
});
