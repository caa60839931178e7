/**
 * Issue 18 item 4: like Convex's query cache, a query's result outlives its
 * last subscriber while no write touches what it read, so the next client
 * asking the same (a visitor opening the scene after another left) gets it
 * without a run. Runs are counted by the backend (`/_local/stats` queryRuns).
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { type Backend, startBackend, waitFor } from "./harness";
import { backendStats, RawClient } from "./rawClient";

let backend: Backend;
let writer: RawClient;

beforeAll(async () => {
  backend = await startBackend();
  writer = await RawClient.open(backend);
});

afterAll(async () => {
  await writer?.close();
  await backend?.dispose();
});

const runs = async () => (await backendStats(backend)).queryRuns as number;

/** Opens a client, subscribes to the channel's count, returns the first value and closes it once the backend has dropped it. */
async function countOnce(channel: string): Promise<number> {
  const client = await RawClient.open(backend);
  client.subscribe([{ queryId: 0, udfPath: "sync:count", args: { channel } }]);
  const transition = await client.waitForMessage(
    (m) => m.type === "Transition" && m.modifications.some((mod: any) => mod.queryId === 0),
    "the count",
  );
  const value = transition.modifications.find((mod: any) => mod.queryId === 0).value as number;
  const sessions = (await backendStats(backend)).sessions as number;
  await client.close();
  await waitFor(async () => ((await backendStats(backend)).sessions as number) < sessions, {
    message: "the session dropped",
  });
  return value;
}

async function insert(channel: string): Promise<void> {
  const requestId = writer.mutate("sync:insert", { channel, body: "hello" });
  const response = await writer.waitForMessage(
    (m) => m.type === "MutationResponse" && m.requestId === requestId,
    "the insert",
  );
  expect(response.success).toBe(true);
}

test("a result is served to the next client after its last subscriber left, until a write touches what it read", async () => {
  const channel = `cache-${Date.now()}`;
  await insert(channel);

  let before = await runs();
  expect(await countOnce(channel)).toBe(1);
  expect((await runs()) - before).toBe(1);
  expect((await backendStats(backend)).cachedResults).toBeGreaterThanOrEqual(1);

  // The same query from a new connection: the kept result, no run.
  before = await runs();
  expect(await countOnce(channel)).toBe(1);
  expect((await runs()) - before).toBe(0);

  // A write elsewhere leaves it; a write to its range drops it, and the next client gets a fresh run.
  await insert(`${channel}-elsewhere`);
  before = await runs();
  expect(await countOnce(channel)).toBe(1);
  expect((await runs()) - before).toBe(0);

  await insert(channel);
  before = await runs();
  expect(await countOnce(channel)).toBe(2);
  expect((await runs()) - before).toBe(1);
});
