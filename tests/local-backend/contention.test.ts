/**
 * Issue 14 item 12: contention insight. Transactions are serialised here, so a
 * document that many mutations write every second (a write-conflict hot spot on
 * Convex) must be reported: a warning naming the table and the function, and a
 * count in `/_local/stats` (which `bench:backend` prints).
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { type Backend, startBackend, waitFor } from "./harness";
import { backendStats, RawClient } from "./rawClient";

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});

afterAll(async () => {
  await backend?.dispose();
});

/** Sends `count` mutations at once on one socket and waits for every response; returns them. */
async function burst(udfPath: string, args: (i: number) => Record<string, unknown>, count: number): Promise<any[]> {
  const client = await RawClient.open(backend);
  for (let i = 0; i < count; i++) client.mutate(udfPath, args(i));
  await waitFor(() => client.messages.filter((m) => m.type === "MutationResponse").length === count, {
    message: "every response",
  });
  await client.close();
  return client.messages.filter((m) => m.type === "MutationResponse");
}

test("many transactions writing one document a second are reported, naming table and function", async () => {
  // Writes to different documents are no hot spot.
  const mark = backend.mark();
  await burst("sync:insert", (i) => ({ channel: "spread", body: `m${i}` }), 40);
  expect((await backendStats(backend)).contention.warnings).toBe(0);
  expect(backend.outputSince(mark)).not.toMatch(/contention/);

  // One counter bumped by 40 transactions in well under a second.
  const responses = await burst("counters:bump", () => ({ name: "hot" }), 40);
  // The warning is the backend's, not a log line of the function's caller.
  for (const response of responses) expect(JSON.stringify(response.logLines)).not.toMatch(/contention/);
  const stats = await backendStats(backend);
  expect(stats.contention.warnings).toBe(1);
  expect(stats.contention.hot[0]).toMatchObject({ table: "counters", functions: ["counters:bump"] });
  expect(stats.contention.hot[0].perSecond).toBeGreaterThan(stats.contention.threshold);
  await waitFor(
    () => /Warning: contention: document \S+ in table "counters" .*by counters:bump/.test(backend.outputSince(mark)),
    {
      message: `the warning in the backend's output:\n${backend.outputSince(mark)}`,
    },
  );
});
