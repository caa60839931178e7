import { randomUUID } from "node:crypto";
import { version } from "convex";
import { convexToJson } from "convex/values";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import WebSocket from "ws";
import { api } from "./fixture/convex/_generated/api";
import { type Backend, startBackend, waitFor } from "./harness";

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});

afterAll(async () => {
  await Promise.all(sockets.map((s) => s.close()));
  await backend?.dispose();
});

/** A server timestamp on the wire: a u64, little-endian, base64-encoded. */
function decodeTs(encoded: string): bigint {
  const bytes = Buffer.from(encoded, "base64");
  let value = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) value = (value << 8n) | BigInt(bytes[i]);
  return value;
}

type Version = { querySet: number; identity: number; ts: string };

/** A bare sync-protocol client, to look at the frames the official client hides. */
class RawClient {
  readonly messages: any[] = [];
  private querySetVersion = 0;
  private nextRequestId = 0;

  private constructor(private readonly socket: WebSocket) {
    socket.on("message", (data) => this.messages.push(JSON.parse(data.toString())));
  }

  static async open(): Promise<RawClient> {
    const socket = new WebSocket(`${backend.url.replace(/^http/, "ws")}/api/${version}/sync`);
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    const client = new RawClient(socket);
    client.send({
      type: "Connect",
      sessionId: randomUUID(),
      connectionCount: 0,
      lastCloseReason: "InitialConnect",
      clientTs: Date.now(),
    });
    sockets.push(client);
    return client;
  }

  send(message: unknown) {
    this.socket.send(JSON.stringify(message));
  }

  subscribe(queryId: number, udfPath: string, args: Record<string, unknown>) {
    this.send({
      type: "ModifyQuerySet",
      baseVersion: this.querySetVersion,
      newVersion: ++this.querySetVersion,
      modifications: [{ type: "Add", queryId, udfPath, args: [convexToJson(args as any)] }],
    });
  }

  unsubscribe(queryId: number) {
    this.send({
      type: "ModifyQuerySet",
      baseVersion: this.querySetVersion,
      newVersion: ++this.querySetVersion,
      modifications: [{ type: "Remove", queryId }],
    });
  }

  mutate(udfPath: string, args: Record<string, unknown>): number {
    const requestId = this.nextRequestId++;
    this.send({ type: "Mutation", requestId, udfPath, args: [convexToJson(args as any)] });
    return requestId;
  }

  /** Index of the first message at or after `from` that satisfies `predicate`. */
  async waitForMessage(predicate: (message: any) => boolean, what: string, from = 0): Promise<number> {
    return await waitFor(
      () => {
        const index = this.messages.findIndex((m, i) => i >= from && predicate(m));
        return index >= 0 ? index + 1 : 0;
      },
      { message: `${what}; got ${JSON.stringify(this.messages.slice(from)).slice(0, 1500)}` },
    ).then((n) => n - 1);
  }

  /** The QueryUpdated modifications for `queryId`, in arrival order. */
  updatesOf(queryId: number): any[] {
    return this.transitions().flatMap((t) =>
      t.modifications.filter((m: any) => m.type === "QueryUpdated" && m.queryId === queryId),
    );
  }

  transitions(): any[] {
    return this.messages.filter((m) => m.type === "Transition");
  }

  async close() {
    this.socket.terminate();
  }
}

const sockets: RawClient[] = [];
const bodies = (value: { body: string }[]) => value.map((m) => m.body);

describe("the sync protocol on the wire", () => {
  test("a MutationResponse goes out before the Transition that carries its timestamp", async () => {
    const client = await RawClient.open();
    client.subscribe(0, "messages:list", { channel: "wire" });
    await client.waitForMessage(
      (m) => m.type === "Transition" && m.modifications.some((x: any) => x.queryId === 0),
      "the first result",
    );
    const requestId = client.mutate("messages:send", { channel: "wire", author: "raw", body: "ordered" });
    const responseAt = await client.waitForMessage(
      (m) => m.type === "MutationResponse" && m.requestId === requestId,
      "the mutation response",
    );
    const response = client.messages[responseAt];
    expect(response.success).toBe(true);
    const ts = decodeTs(response.ts);
    const carrierAt = await client.waitForMessage(
      (m) => m.type === "Transition" && decodeTs(m.endVersion.ts) >= ts,
      "a Transition at or past the mutation's timestamp",
    );
    expect(carrierAt).toBeGreaterThan(responseAt);
    // No Transition before the response already reached the mutation's timestamp.
    for (const m of client.messages.slice(0, responseAt)) {
      if (m.type === "Transition") expect(decodeTs(m.endVersion.ts) < ts).toBe(true);
    }
    const updates = client.updatesOf(0);
    expect(bodies(updates[updates.length - 1].value)).toEqual(["ordered"]);
  });

  test("transitions chain their versions and only carry results that changed", async () => {
    const client = await RawClient.open();
    client.subscribe(0, "messages:list", { channel: "chain" });
    client.subscribe(1, "counters:get", { name: "chain" });
    await client.waitForMessage(
      () => client.updatesOf(0).length === 1 && client.updatesOf(1).length === 1,
      "first results of both queries",
    );
    const writer = backend.httpClient();
    await writer.mutation(api.messages.send, { channel: "chain", author: "w", body: "one" });
    await client.waitForMessage(() => client.updatesOf(0).length === 2, "the list update");
    // Writes that do not change these results: another channel, another counter.
    await writer.mutation(api.messages.send, { channel: "not-chain", author: "w", body: "x" });
    await writer.mutation(api.counters.bump, { name: "not-chain" });
    await writer.mutation(api.counters.bump, { name: "chain" });
    await client.waitForMessage(() => client.updatesOf(1).length === 2, "the counter update");

    expect(client.updatesOf(0).map((u) => bodies(u.value))).toEqual([[], ["one"]]);
    expect(client.updatesOf(1).map((u) => u.value)).toEqual([null, 1]);
    const transitions = client.transitions();
    for (let i = 1; i < transitions.length; i++) {
      const start: Version = transitions[i].startVersion;
      const previousEnd: Version = transitions[i - 1].endVersion;
      expect(start).toEqual(previousEnd);
      expect(decodeTs(transitions[i].endVersion.ts) >= decodeTs(start.ts)).toBe(true);
    }
  });

  test("a removed query gets no more updates; a query added twice gets its own results", async () => {
    const client = await RawClient.open();
    client.subscribe(0, "messages:list", { channel: "remove" });
    client.subscribe(1, "messages:list", { channel: "remove" });
    await client.waitForMessage(
      () => client.updatesOf(0).length === 1 && client.updatesOf(1).length === 1,
      "first results of both copies",
    );
    client.unsubscribe(0);
    client.subscribe(2, "counters:get", { name: "remove" });
    await client.waitForMessage(() => client.updatesOf(2).length === 1, "the counter's first result");
    const writer = backend.httpClient();
    await writer.mutation(api.messages.send, { channel: "remove", author: "w", body: "after remove" });
    await writer.mutation(api.counters.bump, { name: "remove" });
    await client.waitForMessage(() => client.updatesOf(2).length === 2, "the counter update");
    await client.waitForMessage(() => client.updatesOf(1).length === 2, "the remaining copy's update");
    expect(client.updatesOf(0)).toHaveLength(1);
    expect(bodies(client.updatesOf(1)[1].value)).toEqual(["after remove"]);
    expect(
      client.transitions().some((t) => t.modifications.some((m: any) => m.type === "QueryRemoved" && m.queryId === 0)),
    ).toBe(true);
  });
});
