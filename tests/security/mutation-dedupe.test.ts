/**
 * Issue 13 item 14: mutation de-duplication is keyed on the session id, the
 * request id, the caller's identity and the function. The session id is chosen
 * by the client, so a replayed (session id, request id) from another identity
 * or for another function must run as itself, never return the first result.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Backend, startBackend } from "../local-backend/harness";
import { RawClient } from "../local-backend/rawClient";

let backend: Backend;
let adminKey: string;

beforeAll(async () => {
  backend = await startBackend();
  adminKey = (await readFile(path.join(backend.dataDir, "admin-key"), "utf8")).trim();
});

afterAll(async () => {
  await backend?.dispose();
});

/** A connection on `sessionId`, authenticated as `subject` (admin impersonation), or anonymous. */
async function connect(sessionId: string, subject: string | null): Promise<RawClient> {
  const client = await RawClient.open(backend, sessionId);
  if (subject !== null) {
    client.send({
      type: "Authenticate",
      tokenType: "Admin",
      value: adminKey,
      impersonating: { subject, issuer: "https://victim.test", tokenIdentifier: `https://victim.test|${subject}` },
      baseVersion: client.identityVersion++,
    });
  }
  return client;
}

async function mutationResult(client: RawClient, requestId: number): Promise<any> {
  return await client.waitForMessage(
    (m) => m.type === "MutationResponse" && m.requestId === requestId,
    `response ${requestId}`,
  );
}

describe("mutation de-duplication", () => {
  test("a request id replayed from another identity or anonymously runs as itself", async () => {
    const sessionId = randomUUID();
    const victim = await connect(sessionId, "victim");
    victim.mutate("sync:insert", { channel: "dedupe", body: "the victim's message" }, 7);
    const original = await mutationResult(victim, 7);
    expect(original.success).toBe(true);
    await victim.close();

    // The attacker knows (or guesses) the session id and request id.
    const attacker = await connect(sessionId, "attacker");
    attacker.mutate("sync:insert", { channel: "dedupe", body: "the attacker's message" }, 7);
    const replay = await mutationResult(attacker, 7);
    expect(replay.success).toBe(true);
    expect(replay.result).not.toBe(original.result);
    await attacker.close();

    const anonymous = await connect(sessionId, null);
    anonymous.mutate("sync:insert", { channel: "dedupe", body: "anonymous" }, 7);
    const anonymousReplay = await mutationResult(anonymous, 7);
    expect(anonymousReplay.result).not.toBe(original.result);
    expect(anonymousReplay.result).not.toBe(replay.result);
    await anonymous.close();

    // Another function under the same ids is not a retry either.
    const other = await connect(sessionId, "victim");
    other.mutate("messages:send", { channel: "dedupe", author: "victim", body: "other function" }, 7);
    const otherFunction = await mutationResult(other, 7);
    expect(otherFunction.success).toBe(true);
    expect(otherFunction.result).not.toBe(original.result);
    await other.close();

    const http = backend.httpClient();
    const bodies = ((await http.query("messages:list" as any, { channel: "dedupe" })) as { body: string }[]).map(
      (m) => m.body,
    );
    expect(bodies.sort()).toEqual(["anonymous", "other function", "the attacker's message", "the victim's message"]);
  });

  test("the same identity retrying on its session still gets its first result, applied once", async () => {
    const sessionId = randomUUID();
    const first = await connect(sessionId, "retrier");
    first.mutate("sync:insert", { channel: "retry", body: "once" }, 3);
    const original = await mutationResult(first, 3);
    await first.close();

    const again = await connect(sessionId, "retrier");
    again.mutate("sync:insert", { channel: "retry", body: "once" }, 3);
    const retry = await mutationResult(again, 3);
    expect(retry.success).toBe(true);
    expect(retry.result).toBe(original.result);
    expect(retry.ts).toBe(original.ts);
    await again.close();

    const http = backend.httpClient();
    expect(await http.query("sync:count" as any, { channel: "retry" })).toBe(1);
  });
});
