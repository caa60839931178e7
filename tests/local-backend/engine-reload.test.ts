/**
 * Engine behaviour beyond the conformance suite: hot reload keeps data and
 * refuses a schema that existing documents violate; a mutation retried with the
 * same session and request id (as the client does after a reconnect) is not
 * applied twice.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import WebSocket from "ws";
import { anyApi } from "convex/server";
import { type Backend, waitFor } from "./harness";
import { startWatchedFixture, type WatchedFixture } from "./watchedFixture";

const api = anyApi as any;
let fixture: WatchedFixture;
let backend: Backend;
let edit: WatchedFixture["edit"];

beforeAll(async () => {
  fixture = await startWatchedFixture("stagetime-lb-reload-");
  ({ backend, edit } = fixture);
});

afterAll(async () => {
  await fixture?.dispose();
});

describe("hot reload", () => {
  test("a changed function is served without restart and the data stays", async () => {
    const http = backend.httpClient();
    await http.mutation(api.items.add, { n: 1 });
    expect(await http.query(api.items.summary, {})).toEqual({ count: 1, last: [1] });

    edit("items.ts", "last: items.slice(-5).map((item) => item.n)", "last: items.slice(-5).map((item) => item.n * 10)");
    await waitFor(async () => (await http.query(api.items.summary, {})).last[0] === 10, {
      message: "the reloaded summary",
    });
    expect(await http.query(api.items.summary, {})).toEqual({ count: 1, last: [10] });
  });

  test("a schema that existing data violates is refused and the old functions keep serving", async () => {
    const http = backend.httpClient();
    edit("schema.ts", "n: v.number(), body: v.string()", "n: v.number(), body: v.string(), extra: v.number()");
    await waitFor(() => backend.output.includes("rejects existing data"), { message: "the schema error" });
    expect(backend.output).toMatch(/table "items", document \S+: .*extra/);
    // Still the old schema: a document without `extra` is accepted.
    await http.mutation(api.items.add, { n: 2 });
    expect((await http.query(api.items.summary, {})).count).toBe(2);
    edit("schema.ts", "n: v.number(), body: v.string(), extra: v.number()", "n: v.number(), body: v.string()");
  });
});

describe("mutation retries", () => {
  /** Sends one Mutation over a fresh raw connection and returns the response. */
  async function sendMutation(sessionId: string, requestId: number, n: number): Promise<any> {
    const ws = new WebSocket(`${backend.url.replace("http", "ws")}/api/1.48.0/sync`);
    await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
    const response = new Promise<any>((resolve) => {
      ws.on("message", (data) => {
        const message = JSON.parse(String(data));
        if (message.type === "MutationResponse") resolve(message);
      });
    });
    ws.send(
      JSON.stringify({ type: "Connect", sessionId, connectionCount: 0, lastCloseReason: null, clientTs: Date.now() }),
    );
    ws.send(JSON.stringify({ type: "Mutation", requestId, udfPath: "items:add", args: [{ n }] }));
    const result = await response;
    ws.close();
    return result;
  }

  test("the same session and request id commit once and get the first result", async () => {
    const http = backend.httpClient();
    const before = (await http.query(api.items.summary, {})).count;
    const sessionId = randomUUID(); // the protocol's session ids are UUIDs
    const first = await sendMutation(sessionId, 7, 100);
    const second = await sendMutation(sessionId, 7, 100);
    expect(first.success).toBe(true);
    expect(second).toMatchObject({ success: true, result: first.result, ts: first.ts });
    expect((await http.query(api.items.summary, {})).count).toBe(before + 1);
    // A different request id is a different mutation.
    await sendMutation(sessionId, 8, 101);
    expect((await http.query(api.items.summary, {})).count).toBe(before + 2);
  });
});
