/**
 * Issue 18 item 1: a write re-runs only the subscriptions whose read set (index
 * ranges, documents read by id, tables read whole) it touches, as Convex does,
 * not every subscription that read the same table. Query runs are counted by
 * the backend (`/_local/stats` queryRuns).
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { type Backend, startBackend, waitFor } from "./harness";
import { backendStats, decodeTs, RawClient } from "./rawClient";

let backend: Backend;
let reader: RawClient;
let writer: RawClient;

beforeAll(async () => {
  backend = await startBackend();
  reader = await RawClient.open(backend);
  writer = await RawClient.open(backend);
});

afterAll(async () => {
  await reader?.close();
  await writer?.close();
  await backend?.dispose();
});

/** Runs one mutation on the writer and waits until the reader saw its Transition. */
async function write(udfPath: string, args: Record<string, unknown>): Promise<any> {
  const requestId = writer.mutate(udfPath, args);
  const response = await writer.waitForMessage(
    (m) => m.type === "MutationResponse" && m.requestId === requestId,
    "response",
  );
  expect(response.success).toBe(true);
  // The flush that follows the commit has run once the writer gets its Transition past the write.
  const ts = decodeTs(response.ts);
  await writer.waitForMessage((m) => m.type === "Transition" && decodeTs(m.endVersion.ts) >= ts, "transition");
  await new Promise((r) => setTimeout(r, 100));
  return response.result;
}

async function runsFor(udfPath: string, args: Record<string, unknown>): Promise<number> {
  const before = (await backendStats(backend)).queryRuns as number;
  await write(udfPath, args);
  return ((await backendStats(backend)).queryRuns as number) - before;
}

test("a write re-runs only the queries whose ranges, documents or tables it touches", async () => {
  const MICS = 20;
  // A document per mic, read by id by one subscription.
  const ids: string[] = [];
  for (let i = 0; i < MICS; i++) ids.push(await write("sync:insert", { channel: `mic-${i}`, body: `first at ${i}` }));
  const adds = [];
  for (let i = 0; i < MICS; i++) adds.push({ queryId: i, udfPath: "sync:count", args: { channel: `mic-${i}` } });
  adds.push({ queryId: 100, udfPath: "sync:byId", args: { id: ids[5] } });
  adds.push({ queryId: 101, udfPath: "sync:everything", args: {} });
  reader.subscribe(adds);
  await reader.waitForMessage((m) => m.type === "Transition" && m.modifications.length === MICS + 2, "first results");
  await new Promise((r) => setTimeout(r, 200));

  // An insert at mic 3: its range and the full scan.
  expect(await runsFor("sync:insert", { channel: "mic-3", body: "check-in" })).toBe(2);
  // A write to a channel no one watches by range: only the full scan.
  expect(await runsFor("sync:insert", { channel: "elsewhere", body: "x" })).toBe(1);
  // The document read by id (mic 5): its range, the get and the full scan.
  expect(await runsFor("messages:rewrite", { id: ids[5] })).toBe(3);
  // A document leaving mic 7 for mic 8: both ranges (before and after the write) and the scan.
  expect(await runsFor("sync:move", { id: ids[7], channel: "mic-8" })).toBe(3);

  // Results stay right.
  const values = new Map<number, unknown>();
  for (const t of reader.transitions())
    for (const m of t.modifications) if (m.type === "QueryUpdated") values.set(m.queryId, m.value);
  await waitFor(
    () => {
      for (const t of reader.transitions())
        for (const m of t.modifications) if (m.type === "QueryUpdated") values.set(m.queryId, m.value);
      return values.get(8) === 2;
    },
    { message: "mic 8 holds two" },
  );
  expect(values.get(3)).toBe(2);
  expect(values.get(7)).toBe(0);
  expect(values.get(0)).toBe(1);
  expect(values.get(100)).toBe("first at 5");
  expect(values.get(101)).toBe(MICS + 2);
});
