/**
 * The client-chosen Connect.sessionId went into every kept mutation result
 * (in memory forever and in log.jsonl), at any length. The official client
 * always sends a UUID: anything else ends the connection with a FatalError,
 * and the kept results are bounded (by age, per session and in total).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  MUTATION_RESULT_TTL_MS,
  MUTATION_RESULTS_PER_SESSION,
  MutationResults,
} from "../../local-backend/src/database/mutationResults";
import { type Backend, startBackend } from "../local-backend/harness";
import { backendStats, RawClient } from "../local-backend/rawClient";

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});

afterAll(async () => {
  await backend?.dispose();
});

async function fatalFor(sessionId: string): Promise<any> {
  const client = await RawClient.open(backend, sessionId);
  try {
    client.mutate("messages:send", { channel: "sid", author: "a", body: "x" });
    return await client.waitForMessage((m) => m.type === "FatalError" || m.type === "MutationResponse", "an answer");
  } finally {
    await client.close();
  }
}

describe("Connect.sessionId must be a UUID", () => {
  test("a 1 MB sessionId is refused with a FatalError", async () => {
    const answer = await fatalFor("s".repeat(1024 * 1024));
    expect(answer.type).toBe("FatalError");
    expect(answer.error).toMatch(/sessionId must be a UUID/);
  });

  test("a short non-UUID sessionId is refused; a UUID works", async () => {
    for (const bad of ["session-1", "not-a-uuid-at-all-0000000000000000000", "{}"]) {
      const answer = await fatalFor(bad);
      expect(answer.type).toBe("FatalError");
    }
    const ok = await fatalFor(crypto.randomUUID());
    expect(ok.type).toBe("MutationResponse");
    expect(ok.success).toBe(true);
  });
});

describe("kept mutation results are bounded", () => {
  test(`one session keeps at most ${MUTATION_RESULTS_PER_SESSION} results on the running backend`, async () => {
    const before = (await backendStats(backend)).mutationResults as number;
    const client = await RawClient.open(backend);
    try {
      const n = MUTATION_RESULTS_PER_SESSION + 50;
      for (let i = 0; i < n; i++) client.mutate("messages:send", { channel: "bounded", author: "a", body: `#${i}` });
      await client.waitForMessage((m) => m.type === "MutationResponse" && m.requestId === n - 1, "the last response");
      expect(client.messages.filter((m) => m.type === "MutationResponse" && m.success)).toHaveLength(n);
    } finally {
      await client.close();
    }
    const after = (await backendStats(backend)).mutationResults as number;
    expect(after - before).toBeLessThanOrEqual(MUTATION_RESULTS_PER_SESSION);
  }, 60_000);

  test("results expire after the retention window and the total is capped", () => {
    let now = 1_000_000;
    const results = new MutationResults(() => now);
    results.set("a|f:1", { ts: 1n, result: "one" });
    expect(results.get("a|f:1")?.result).toBe("one");
    now += MUTATION_RESULT_TTL_MS + 1;
    expect(results.get("a|f:1")).toBeUndefined();
    // Expired ones are dropped when others arrive, not only when asked for.
    results.set("b|f:1", { ts: 2n, result: "two" });
    now += MUTATION_RESULT_TTL_MS + 1;
    for (let i = 0; i < 1000; i++) results.set(`${i}|f:0`, { ts: 3n, result: i });
    expect(results.size).toBe(1000);
    expect(results.get("b|f:1")).toBeUndefined();
  });
});
