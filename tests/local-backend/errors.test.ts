import { randomBytes, randomUUID } from "node:crypto";
import net from "node:net";
import { version } from "convex";
import { makeFunctionReference } from "convex/server";
import { ConvexError } from "convex/values";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import WebSocket from "ws";
import { api } from "./fixture/convex/_generated/api";
import { type Backend, startBackend, Subscription, waitFor } from "./harness";

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});

afterAll(async () => {
  await backend?.dispose();
});

const failData = {
  code: "CHECK_IN_TOO_FAR",
  message: "You need to be at the venue to check in",
  extra: { reason: "far away", distanceMeters: 1234.5, retry: false, tags: ["a", "b"], none: null },
};

/** Resolves with the error a promise rejects with (fails the test if it resolves). */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    const value = await promise;
    throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith("expected a rejection")) throw error;
    return error as Error;
  }
}

function expectConvexError(error: Error, data: unknown) {
  expect(error).toBeInstanceOf(ConvexError);
  expect((error as ConvexError<any>).data).toEqual(data);
}

describe("ConvexError data reaches the caller", () => {
  test("from a mutation over the WebSocket", async () => {
    const client = backend.client();
    expectConvexError(await rejection(client.mutation(api.messages.fail, { reason: "far away" })), failData);
  });

  test("from a mutation and an action over HTTP", async () => {
    const http = backend.httpClient();
    expectConvexError(await rejection(http.mutation(api.messages.fail, { reason: "far away" })), failData);
    expectConvexError(await rejection(http.action(api.messages.failInAction, {})), {
      code: "RATE_LIMITED",
      message: "Slow down",
      extra: { retryAfterMs: 500 },
    });
  });

  test("from an action over the WebSocket", async () => {
    const client = backend.client();
    expectConvexError(await rejection(client.action(api.messages.failInAction, {})), {
      code: "RATE_LIMITED",
      message: "Slow down",
      extra: { retryAfterMs: 500 },
    });
  });

  test("from a query, one-shot and subscribed", async () => {
    const client = backend.client();
    const data = { code: "FORBIDDEN", message: "Not yours", extra: { reason: "r1" } };
    expectConvexError(await rejection(client.query(api.messages.failingQuery, { reason: "r1" })), data);
    const sub = new Subscription(client, api.messages.failingQuery, { reason: "r1" });
    await waitFor(() => sub.errors.length > 0, { message: "the query error" });
    expectConvexError(sub.errors[0], data);
    expectConvexError(await rejection(backend.httpClient().query(api.messages.failingQuery, { reason: "r1" })), data);
  });

  test("a plain Error is an error without ConvexError data", async () => {
    const client = backend.client();
    const error = await rejection(client.mutation(api.messages.crash, {}));
    expect(error).not.toBeInstanceOf(ConvexError);
    expect(error.message.length).toBeGreaterThan(0);
  });
});

describe("bad arguments and unknown functions are errors, not crashes", () => {
  const strict = api.messages.strict;

  test.each([
    ["a wrong type", { count: "3", kind: "set", tags: [] }],
    ["a missing field", { kind: "set", tags: [] }],
    ["an extra field", { count: 1, kind: "set", tags: [], admin: true }],
    ["a value outside the union", { count: 1, kind: "party", tags: [] }],
    ["a wrong element type", { count: 1, kind: "mic", tags: ["ok", 7] }],
    ["a float where an int64 is expected", { count: 1, kind: "mic", tags: [], when: 1.5 }],
  ])("%s is rejected over WebSocket and HTTP", async (_name, args) => {
    const client = backend.client();
    const http = backend.httpClient();
    const wsError = await rejection(client.mutation(strict, args as any));
    expect(wsError).not.toBeInstanceOf(ConvexError);
    expect(wsError.message).toMatch(/valid|argument/i);
    const httpError = await rejection(http.mutation(strict, args as any));
    expect(httpError.message).toMatch(/valid|argument/i);
    // The same client and the server carry on.
    expect(await client.mutation(strict, { count: 2, kind: "mic", tags: ["x"], when: 5n })).toEqual({
      count: 4,
      kind: "mic",
      tags: ["x"],
    });
    expect(backend.running).toBe(true);
  });

  test("unknown functions and internal functions cannot be called by clients", async () => {
    const client = backend.client();
    const http = backend.httpClient();
    const missing = makeFunctionReference<"mutation">("messages:doesNotExist");
    const missingModule = makeFunctionReference<"query">("nowhere:atAll");
    const internalOnly = makeFunctionReference<"mutation">("messages:sendInternal");
    await expect(client.mutation(missing, {})).rejects.toThrow();
    await expect(client.query(missingModule, {})).rejects.toThrow();
    await expect(http.mutation(missing, {})).rejects.toThrow();
    await expect(
      client.mutation(internalOnly, { channel: "internal", author: "x", body: "should not be stored" }),
    ).rejects.toThrow();
    await expect(
      http.mutation(internalOnly, { channel: "internal", author: "x", body: "should not be stored" }),
    ).rejects.toThrow();
    expect(await client.query(api.messages.list, { channel: "internal" })).toEqual([]);
    // A query called as a mutation is refused too.
    await expect(
      client.mutation(makeFunctionReference<"mutation">("messages:list"), { channel: "internal" }),
    ).rejects.toThrow();
  });
});

type Outcome = "fatal" | "closed" | "failed-response" | "query-failed";

/**
 * Opens a raw WebSocket to the sync endpoint, sends `frames` after a Connect,
 * and resolves with how the server dealt with them.
 */
async function sendRaw(frames: (string | Buffer)[], connect = true): Promise<{ outcome: Outcome; messages: any[] }> {
  const url = `${backend.url.replace(/^http/, "ws")}/api/${version}/sync`;
  const socket = new WebSocket(url);
  const messages: any[] = [];
  return await new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.terminate();
      reject(new Error(`no error and no close for junk frames; got ${JSON.stringify(messages).slice(0, 500)}`));
    }, 30_000);
    const done = (outcome: Outcome) => {
      clearTimeout(timer);
      socket.terminate();
      resolve({ outcome, messages });
    };
    socket.on("error", () => {
      // A close follows.
    });
    socket.on("close", () => done("closed"));
    socket.on("message", (data) => {
      let message: any;
      try {
        message = JSON.parse(data.toString());
      } catch {
        return;
      }
      messages.push(message);
      if (message.type === "FatalError") done("fatal");
      else if ((message.type === "MutationResponse" || message.type === "ActionResponse") && message.success === false)
        done("failed-response");
      else if (
        message.type === "Transition" &&
        message.modifications?.some((m: { type: string }) => m.type === "QueryFailed")
      )
        done("query-failed");
    });
    socket.on("open", () => {
      if (connect) {
        socket.send(
          JSON.stringify({
            type: "Connect",
            sessionId: randomUUID(),
            connectionCount: 0,
            lastCloseReason: "InitialConnect",
            clientTs: Date.now(),
          }),
        );
      }
      for (const frame of frames) socket.send(frame);
    });
  });
}

describe("garbage on the WebSocket does not disturb other clients", () => {
  test("junk frames get an error or a close, and everyone else keeps working", async () => {
    const good = backend.client();
    const writer = backend.client();
    const sub = new Subscription(good, api.messages.list, { channel: "survivors" });
    await sub.waitFor((v) => v.length === 0, "the empty first result");

    const junk: [string, (string | Buffer)[], boolean, Outcome[]][] = [
      ["text that is not JSON", ["this is not json {"], true, ["fatal", "closed"]],
      ["junk before Connect", ['{"type":"Nonsense"}'], false, ["fatal", "closed"]],
      ["an unknown message type", [JSON.stringify({ type: "LaunchTheRockets", now: true })], true, ["fatal", "closed"]],
      [
        "a ModifyQuerySet of the wrong shape",
        [JSON.stringify({ type: "ModifyQuerySet", baseVersion: "zero", modifications: "all" })],
        true,
        ["fatal", "closed"],
      ],
      [
        "a Mutation of the wrong shape",
        [JSON.stringify({ type: "Mutation", requestId: "x", udfPath: 42, args: "none" })],
        true,
        ["fatal", "closed", "failed-response"],
      ],
      [
        "a subscription to a function that does not exist",
        [
          JSON.stringify({
            type: "ModifyQuerySet",
            baseVersion: 0,
            newVersion: 1,
            modifications: [{ type: "Add", queryId: 0, udfPath: "nope:nothing", args: [{}] }],
          }),
        ],
        true,
        ["query-failed", "fatal"],
      ],
      [
        "a mutation with arguments that fail validation",
        [JSON.stringify({ type: "Mutation", requestId: 0, udfPath: "messages:strict", args: [{ count: "many" }] })],
        true,
        ["failed-response"],
      ],
      ["random binary", [randomBytes(4096)], true, ["fatal", "closed"]],
      ["a 24 MB frame", ["[" + "9,".repeat(12 * 1024 * 1024) + "9]"], true, ["fatal", "closed"]],
    ];

    let round = 0;
    for (const [name, frames, connect, accepted] of junk) {
      const { outcome } = await sendRaw(frames, connect);
      expect(accepted, `${name}: got ${outcome}`).toContain(outcome);
      expect(backend.running, `${name}: the backend died. Output:\n${backend.output}`).toBe(true);
      round++;
      await writer.mutation(api.messages.send, { channel: "survivors", author: "w", body: `after ${name}` });
      await sub.waitFor((v) => v.length === round, `the write after ${name}`);
    }
    expect(sub.errors).toEqual([]);
    expect(sub.latest?.map((m) => m.body)).toEqual(junk.map(([name]) => `after ${name}`));
  });

  test("malformed requests to the HTTP API get a 4xx", async () => {
    const post = async (path: string, body: string, contentType = "application/json") =>
      await fetch(`${backend.url}${path}`, { method: "POST", headers: { "Content-Type": contentType }, body });
    for (const response of [
      await post("/api/mutation", "{not json"),
      await post("/api/query", JSON.stringify({ path: 7, args: "x", format: "json" })),
      await post("/api/action", JSON.stringify({ nothing: true })),
    ]) {
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      await response.body?.cancel();
    }
    // 24 MiB of arguments: over the 8 MiB body limit (MAX_MESSAGE_BYTES), answered 413 from the
    // declared length (httpLimits.test covers the limit; lingeringClose.test that a fetch still
    // sending the whole body reads the answer). This client sends the headers and 64 KiB.
    const body = JSON.stringify({
      path: "messages:send",
      format: "json",
      args: [{ channel: "x", author: "x", body: "x".repeat(24 * 1024 * 1024) }],
    });
    const answer = await new Promise<string>((resolve) => {
      const socket = net.connect(backend.port, "127.0.0.1");
      let received = "";
      socket.on("data", (chunk) => (received += chunk.toString("latin1")));
      socket.on("error", () => {});
      socket.on("close", () => resolve(received));
      socket.write(
        `POST /api/mutation HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
      );
      socket.write(body.slice(0, 64 * 1024));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(backend.running).toBe(true);
    expect(await backend.httpClient().query(api.messages.list, { channel: "survivors" })).toBeInstanceOf(Array);
  });
});

describe("Convex transaction limits apply", () => {
  test("a query over the database-query limit fails; one under it works", async () => {
    const http = backend.httpClient();
    expect(await http.query(api.limits.manyQueries, { count: 100 })).toBe(0);
    await expect(http.query(api.limits.manyQueries, { count: 5000 })).rejects.toThrow(/limit|too many/i);
  });

  test("a mutation over the scheduling limit fails and rolls back its writes", async () => {
    const client = backend.client();
    await expect(client.mutation(api.limits.manySchedules, { channel: "over-limit", count: 1001 })).rejects.toThrow(
      /limit|too many/i,
    );
    expect(await client.query(api.messages.list, { channel: "over-limit" })).toEqual([]);
    await client.mutation(api.limits.manySchedules, { channel: "under-limit", count: 3 });
    expect((await client.query(api.messages.list, { channel: "under-limit" })).map((m) => m.body)).toEqual([
      "written before the limit",
    ]);
  });
});
