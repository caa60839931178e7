/**
 * Issue 14 item 1: one snapshot per Transition. Every query result in a
 * Transition, and every new subscription's first result, reads the state
 * committed at the Transition's endVersion.ts, while another socket writes.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { type Backend, startBackend, waitFor } from "./harness";
import { decodeTs, RawClient } from "./rawClient";

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});

afterAll(async () => {
  await backend?.dispose();
});

test("queries of one Transition, new ones included, read the state at its endVersion.ts", async () => {
  const channel = "snapshot";
  const reader = await RawClient.open(backend);
  // Two subscriptions computing the same thing as separate executions.
  reader.subscribe([
    { queryId: 0, udfPath: "sync:count", args: { channel, tag: "a" } },
    { queryId: 1, udfPath: "sync:count", args: { channel, tag: "b" } },
  ]);
  await reader.waitForMessage((m) => m.type === "Transition" && m.modifications.length === 2, "the first results");

  const writer = await RawClient.open(backend);
  const WRITES = 150;
  for (let i = 0; i < WRITES; i++) writer.mutate("sync:insert", { channel, body: `w${i}` });
  // Meanwhile the reader keeps adding subscriptions: their first results must agree too.
  let nextQuery = 2;
  const adder = setInterval(() => {
    if (nextQuery < 40) {
      reader.subscribe([{ queryId: nextQuery, udfPath: "sync:count", args: { channel, tag: `late-${nextQuery}` } }]);
      nextQuery++;
    }
  }, 15);
  try {
    await waitFor(() => writer.messages.filter((m) => m.type === "MutationResponse").length === WRITES, {
      message: "every write answered",
    });
  } finally {
    clearInterval(adder);
  }
  const lastQuery = nextQuery - 1;
  await waitFor(() => latest(reader).has(lastQuery), { message: "the last subscription's first result" });
  await waitFor(() => latest(reader).get(0) === WRITES, { message: "the reader caught up" });

  const writeTs = writer.messages
    .filter((m) => m.type === "MutationResponse")
    .map((m) => {
      expect(m.success).toBe(true);
      return decodeTs(m.ts);
    });
  // Replay the Transitions: after each, every query holds the count committed at endVersion.ts.
  const values = new Map<number, number>();
  let checked = 0;
  let previousEnd = 0n;
  for (const t of reader.transitions()) {
    expect(decodeTs(t.startVersion.ts)).toBe(previousEnd);
    const endTs = decodeTs(t.endVersion.ts);
    previousEnd = endTs;
    for (const m of t.modifications) {
      if (m.type === "QueryUpdated") values.set(m.queryId, m.value as number);
      if (m.type === "QueryRemoved") values.delete(m.queryId);
    }
    const committed = writeTs.filter((ts) => ts <= endTs).length;
    for (const [queryId, value] of values) {
      expect({ queryId, value, endTs: String(endTs) }).toEqual({ queryId, value: committed, endTs: String(endTs) });
    }
    if (t.modifications.length > 0) checked++;
  }
  // Enough Transitions were interleaved with writes to mean something.
  expect(checked).toBeGreaterThan(20);
  await reader.close();
  await writer.close();
});

/** Each query's latest value on a raw client. */
function latest(client: RawClient): Map<number, unknown> {
  const values = new Map<number, unknown>();
  for (const t of client.transitions()) {
    for (const m of t.modifications) if (m.type === "QueryUpdated") values.set(m.queryId, m.value);
  }
  return values;
}
