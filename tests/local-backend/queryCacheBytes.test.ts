/**
 * What the query cache keeps without subscribers is bounded by what it holds,
 * arguments included (QueryEntries' idleCost), as Convex sizes its cache
 * entries by path, arguments, identity and journal with the result. A
 * stranger's HTTP queries with distinct multi-megabyte arguments used to be
 * kept 1,000 at a time, counted by their (tiny) results alone.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { IDLE_MAX_BYTES } from "../../local-backend/src/sync/querySubscriptions";
import { type Backend, startBackend } from "./harness";
import { backendStats } from "./rawClient";

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});

afterAll(async () => {
  await backend?.dispose();
});

const cached = async () => (await backendStats(backend)).cachedResults as number;

async function query(tag: string): Promise<void> {
  const response = await fetch(`${backend.url}/api/query`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ path: "sync:count", format: "json", args: [{ channel: "cache-bytes", tag }] }),
  });
  expect(response.status).toBe(200);
  expect(await response.json()).toMatchObject({ status: "success", value: 0 });
}

test("distinct large arguments fill the cache by their size, not by the count of results", async () => {
  const before = await cached();
  const size = 2 ** 20; // 1 MiB of arguments: each entry holds about 2 MiB (its key, and the arguments as values).
  for (let i = 0; i < 40; i++) await query(`${i}`.padEnd(size, "x"));
  const kept = (await cached()) - before;
  expect(kept).toBeGreaterThan(0);
  expect(kept).toBeLessThanOrEqual(Math.floor(IDLE_MAX_BYTES / (2 * size)));
});

test("one query's arguments over an eighth of the budget are not kept at all", async () => {
  const before = await cached();
  for (let i = 0; i < 3; i++) await query(`big-${i}`.padEnd(IDLE_MAX_BYTES / 8, "y"));
  expect((await cached()) - before).toBe(0);
});
