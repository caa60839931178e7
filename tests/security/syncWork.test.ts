/**
 * One anonymous WebSocket multiplied the cost of every write: a connection could hold 1,000
 * subscriptions to one query differing only in an argument the query ignores, 1,000 separate
 * executions re-run on every write to the rows they share (two sockets made a host's write and a
 * visitor's search take seconds). Now a connection may hold a bounded number of different
 * queries, its connections' address too, and the query time a connection causes is budgeted;
 * past any of them it ends with a FatalError, and everyone else is served.
 */
import { ConvexHttpClient } from "convex/browser";
import { makeFunctionReference } from "convex/server";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { MAX_QUERIES_PER_CONNECTION } from "../../local-backend/src/sync/syncSession";
import { type Backend, startBackend } from "../local-backend/harness";
import { backendStats, RawClient } from "../local-backend/rawClient";

const insert = makeFunctionReference<"mutation", { channel: string; body: string }>("sync:insert");
const list = makeFunctionReference<"query", { channel: string }, unknown[]>("messages:list");

/** `count` subscriptions to one query over `channel`, differing only in the argument it ignores. */
function subscribeMany(client: RawClient, channel: string, count: number, from = 0, udfPath = "sync:count"): void {
  client.subscribe(
    Array.from({ length: count }, (_, i) => ({
      queryId: from + i,
      udfPath,
      args: udfPath === "sync:count" ? { channel, tag: `t${from + i}` } : { channel, tag: `t${from + i}`, work: 3e7 },
    })),
  );
}

/** The first Transition or FatalError the client gets from `from` on. */
async function answer(client: RawClient, from = 0): Promise<any> {
  return await client.waitForMessage(
    (m) => m.type === "Transition" || m.type === "FatalError",
    "a Transition or a FatalError",
    from,
    60_000,
  );
}

describe("with the default limits", () => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await startBackend();
  });
  afterAll(async () => {
    await backend?.dispose();
  });

  test("two sockets of 1,000 subscriptions differing in one argument are ended; a write then re-runs what real clients hold", async () => {
    const http = new ConvexHttpClient(backend.url);
    const visitor = await RawClient.open(backend);
    visitor.subscribe([{ queryId: 1, udfPath: "sync:count", args: { channel: "hot" } }]);
    expect((await answer(visitor)).type).toBe("Transition");

    const attackers = [await RawClient.open(backend), await RawClient.open(backend)];
    for (const attacker of attackers) subscribeMany(attacker, "hot", 1000);
    for (const attacker of attackers) {
      const first = await answer(attacker);
      expect(first.type).toBe("FatalError");
      expect(first.error).toMatch(/^TooManyQueries: a connection may subscribe to at most 200 different queries/);
    }
    await Promise.all(attackers.map((attacker) => attacker.close()));

    const before = (await backendStats(backend)).queryRuns as number;
    const seen = visitor.messages.length;
    await http.mutation(insert, { channel: "hot", body: "walk-in" });
    const update = await visitor.waitForMessage(
      (m) => m.type === "Transition" && m.modifications.some((mod: any) => mod.queryId === 1),
      "the visitor's update",
      seen,
    );
    expect(update.modifications[0].value).toBe(1);
    const reran = ((await backendStats(backend)).queryRuns as number) - before;
    expect(reran).toBeLessThanOrEqual(2);
    // An unrelated visitor's query is answered.
    expect(await http.query(list, { channel: "elsewhere" })).toEqual([]);
    await visitor.close();
  });

  test(`a connection holds ${MAX_QUERIES_PER_CONNECTION} different queries; one more ends it, repeats of one query do not`, async () => {
    const client = await RawClient.open(backend);
    subscribeMany(client, "cap", MAX_QUERIES_PER_CONNECTION);
    expect((await answer(client)).type).toBe("Transition");
    // The same query again under other ids shares its execution: no new work, allowed.
    client.subscribe(
      Array.from({ length: 50 }, (_, i) => ({
        queryId: 10_000 + i,
        udfPath: "sync:count",
        args: { channel: "cap", tag: "t0" },
      })),
    );
    const seen = client.messages.length;
    expect((await answer(client, seen)).type).toBe("Transition");
    subscribeMany(client, "cap", 1, MAX_QUERIES_PER_CONNECTION);
    const last = await answer(client, client.messages.length);
    expect(last.type).toBe("FatalError");
    expect(last.error).toMatch(/^TooManyQueries/);
    await client.close();
  });
});

describe("with small limits (knobs)", () => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await startBackend({
      env: {
        LOCAL_BACKEND_MAX_QUERIES_PER_CONNECTION: "20",
        LOCAL_BACKEND_MAX_QUERIES_PER_ADDRESS: "30",
        LOCAL_BACKEND_RERUN_BUDGET_MS: "60",
        LOCAL_BACKEND_RERUN_MS_PER_SECOND: "1",
      },
    });
  });
  afterAll(async () => {
    await backend?.dispose();
  });

  test("the connections of one address share a cap on different queries", async () => {
    const first = await RawClient.open(backend);
    subscribeMany(first, "address", 20);
    expect((await answer(first)).type).toBe("Transition");
    const second = await RawClient.open(backend);
    subscribeMany(second, "address", 20, 100);
    const refused = await answer(second);
    expect(refused.type).toBe("FatalError");
    expect(refused.error).toMatch(/^TooManyQueriesFromAddress/);
    // The first connection is still served.
    const seen = first.messages.length;
    await new ConvexHttpClient(backend.url).mutation(insert, { channel: "address", body: "x" });
    const update = await first.waitForMessage((m) => m.type === "Transition", "an update", seen);
    expect(update.modifications).toHaveLength(20);
    await Promise.all([first.close(), second.close()]);
  });

  test("a connection whose queries take more than its time budget is ended; others are answered", async () => {
    const client = await RawClient.open(backend);
    // Five runs of 3e7 rounds each take far more than the 60 ms budget.
    subscribeMany(client, "slow", 5, 0, "budget:slowCount");
    const ended = await answer(client);
    expect(ended.type).toBe("FatalError");
    expect(ended.error).toMatch(/^QueryBudgetExceeded: this connection's queries took more than 60 ms/);
    expect(await new ConvexHttpClient(backend.url).query(list, { channel: "slow" })).toEqual([]);
    expect((await backendStats(backend)).sessions).toBe(0);
    await client.close();
  });
});
