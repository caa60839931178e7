/**
 * Issue 13 item 4: sockets that subscribe and go away (closed, dropped by a
 * failed Authenticate with their ModifyQuerySet still queued) must leave
 * nothing behind: a later write costs what it cost before they came. And one
 * connection cannot pin unbounded work: too many subscriptions or queued
 * messages end it with a FatalError.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Backend, startBackend, waitFor } from "../local-backend/harness";
import { api } from "../local-backend/fixture/convex/_generated/api";
import { backendStats, RawClient, type QueryAdd } from "../local-backend/rawClient";

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});

afterAll(async () => {
  await backend?.dispose();
});

/** 20 different scene-like queries (one channel's list and pages each). */
function sceneQueries(socket: number): QueryAdd[] {
  const adds: QueryAdd[] = [];
  for (let i = 0; i < 20; i++) {
    adds.push(
      i % 2 === 0
        ? { queryId: i, udfPath: "messages:list", args: { channel: `scene-${socket}-${i}` } }
        : {
            queryId: i,
            udfPath: "messages:page",
            args: { channel: `scene-${socket}-${i}`, paginationOpts: { numItems: 10, cursor: null } },
          },
    );
  }
  return adds;
}

/** Query executions one write to the messages table causes (after the dust settles). */
async function runsPerWrite(): Promise<number> {
  const http = backend.httpClient();
  await new Promise((r) => setTimeout(r, 200));
  const before = (await backendStats(backend)).queryRuns as number;
  for (let i = 0; i < 3; i++) {
    await http.mutation(api.messages.send, { channel: "elsewhere", author: "w", body: `write ${i}` });
  }
  await new Promise((r) => setTimeout(r, 300));
  const after = (await backendStats(backend)).queryRuns as number;
  return (after - before) / 3;
}

describe("closed and dropped sessions release their subscriptions", () => {
  test("after 50 sockets of 20 scene queries each, a write costs what it cost before", async () => {
    const baseline = await runsPerWrite();
    const start = await backendStats(backend);
    expect(start.entries).toBe(0);

    const clients: RawClient[] = [];
    for (let s = 0; s < 50; s++) {
      const client = await RawClient.open(backend);
      clients.push(client);
      if (s % 2 === 0) {
        // A failed Authenticate ends the session; the ModifyQuerySet right
        // behind it is already queued and must not take references.
        client.authenticate("not-a-jwt");
        client.subscribe(sceneQueries(s));
      } else {
        client.subscribe(sceneQueries(s));
      }
    }
    // The subscribing half got their results; the other half their AuthError.
    for (let s = 0; s < 50; s++) {
      const client = clients[s];
      if (s % 2 === 0) await client.waitForMessage((m) => m.type === "AuthError", `socket ${s}: AuthError`);
      else
        await client.waitForMessage(
          (m) => m.type === "Transition" && m.modifications.length === 20,
          `socket ${s}: results`,
        );
    }
    await Promise.all(clients.map((c) => c.close()));

    const stats = await waitFor(
      async () => {
        const now = await backendStats(backend);
        return now.sessions === 0 ? now : null;
      },
      { message: "every session gone" },
    );
    // Nothing is still subscribed, and nothing re-runs on a write.
    await waitFor(async () => (await backendStats(backend)).entries === 0, {
      timeoutMs: 5000,
      message: `no query executions left (stats ${JSON.stringify(stats)})`,
    });
    expect(await runsPerWrite()).toBe(baseline);
  });

  test("more subscriptions than a connection may hold end it with a FatalError", async () => {
    const client = await RawClient.open(backend);
    const adds: QueryAdd[] = [];
    for (let i = 0; i < 1001; i++)
      adds.push({ queryId: i, udfPath: "messages:list", args: { channel: `many-${i % 3}` } });
    client.subscribe(adds);
    const fatal = await client.waitForMessage((m) => m.type === "FatalError", "a FatalError");
    expect(fatal.error).toMatch(/TooManySubscriptions/);
    await waitFor(() => client.closed, { message: "the socket closed" });
    await waitFor(async () => (await backendStats(backend)).entries === 0, { message: "its references released" });
  });

  test("more actions in flight than a connection may run end it with a FatalError", async () => {
    const client = await RawClient.open(backend);
    for (let i = 0; i < 1001; i++) {
      client.send({ type: "Action", requestId: i, udfPath: "sync:wait", args: [{ ms: 5000 }] });
    }
    const fatal = await client.waitForMessage((m) => m.type === "FatalError", "a FatalError", 0, 20_000);
    expect(fatal.error).toMatch(/TooManyInflightActionsForSingleClient/);
    await waitFor(() => client.closed, { message: "the socket closed" });
  });
});
