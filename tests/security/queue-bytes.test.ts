/**
 * A connection could hold 1,000 queued messages of up to 8 MiB each
 * (gigabytes per socket). Queued messages and running actions now count
 * against a byte budget per connection; past it the connection ends with a
 * clear FatalError.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { MAX_QUEUED_BYTES_PER_CONNECTION } from "../../local-backend/src/sync/sync";
import { type Backend, startBackend } from "../local-backend/harness";
import { RawClient } from "../local-backend/rawClient";

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});

afterAll(async () => {
  await backend?.dispose();
});

const PAYLOAD = 7 * 1024 * 1024;

function holdAction(client: RawClient, requestId: number, payload: string): void {
  client.send({ type: "Action", requestId, udfPath: "sync:waitHolding", args: [{ ms: 5000, payload }] });
}

describe("per-connection byte budget", () => {
  test("messages past the byte budget end the connection with a FatalError", async () => {
    const payload = "x".repeat(PAYLOAD);
    const client = await RawClient.open(backend);
    try {
      const count = Math.ceil(MAX_QUEUED_BYTES_PER_CONNECTION / PAYLOAD) + 1;
      for (let i = 0; i < count; i++) holdAction(client, i, payload);
      const fatal = await client.waitForMessage((m) => m.type === "FatalError", "a FatalError", 0, 20_000);
      expect(fatal.error).toMatch(/TooManyInflightBytes/);
    } finally {
      await client.close();
    }
  }, 60_000);

  test("under the budget, large actions run and the budget is given back when they end", async () => {
    const payload = "x".repeat(PAYLOAD);
    const client = await RawClient.open(backend);
    try {
      const perRound = Math.floor(MAX_QUEUED_BYTES_PER_CONNECTION / (PAYLOAD + 1024));
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < perRound; i++) holdAction(client, round * perRound + i, payload);
        const last = (round + 1) * perRound - 1;
        await client.waitForMessage(
          (m) => m.type === "ActionResponse" && m.requestId === last,
          "the round's last response",
          0,
          30_000,
        );
      }
      const responses = client.messages.filter((m) => m.type === "ActionResponse");
      expect(responses).toHaveLength(2 * perRound);
      expect(responses.every((m) => m.success && m.result === PAYLOAD)).toBe(true);
      expect(client.messages.some((m) => m.type === "FatalError")).toBe(false);
    } finally {
      await client.close();
    }
  }, 90_000);
});
