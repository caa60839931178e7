/**
 * Optimistic concurrency control through real clients on a running backend:
 * mutations run concurrently, a read-modify-write of one document conflicts
 * and is retried with Convex's budget, and past it fails with Convex's
 * OptimisticConcurrencyControlFailure; disjoint documents never conflict,
 * scheduled mutations retry until they commit, queries read one state.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { makeFunctionReference } from "convex/server";
import { type Backend, startBackend, waitFor } from "./harness";
import { backendStats, RawClient } from "./rawClient";

const bump = makeFunctionReference<"mutation">("counters:bump");
const bumpThroughAwaits = makeFunctionReference<"mutation", { name: string; reads: number }, number>(
  "counters:bumpThroughAwaits",
);
const getCounter = makeFunctionReference<"query", { name: string }, number | null>("counters:get");
const sum = makeFunctionReference<"query", { names: string[] }, number>("counters:sum");
const transfer = makeFunctionReference<"mutation">("counters:transfer");
const scheduleBumps = makeFunctionReference<"mutation">("counters:scheduleBumps");
const readFirstThenAdd = makeFunctionReference<"mutation">("counters:readFirstThenAdd");
const jobStates = makeFunctionReference<"query", { name: string }, string[]>("counters:jobStates");

/** Convex's text (crates/errors/src/lib.rs user_occ, crates/database/src/database.rs occ_write_source_string). */
const OCC_MESSAGE =
  /Documents read from or written to the "counters" table changed while this mutation was being run and on every subsequent retry\. Another call to this mutation changed the document with ID "[0-9a-z]+"\. See https:\/\/docs\.convex\.dev\/error#1/;

type Settled = PromiseSettledResult<number>;

/** `count` clients, each on its own connection, bump one counter at once. */
async function burst(backend: Backend, name: string, count: number, reads = 20): Promise<Settled[]> {
  const clients = Array.from({ length: count }, () => backend.httpClient());
  return await Promise.allSettled(clients.map((client) => client.mutation(bumpThroughAwaits, { name, reads })));
}

function successes(results: Settled[]): number[] {
  return results.filter((r): r is PromiseFulfilledResult<number> => r.status === "fulfilled").map((r) => r.value);
}

describe("with Convex's retry budget and backoff", () => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await startBackend();
  });
  afterAll(async () => {
    await backend?.dispose();
  });

  test("a burst on one document conflicts and retries; the final value counts exactly the calls that succeeded", async () => {
    const http = backend.httpClient();
    await http.mutation(bump, { name: "hot" });
    const before = (await backendStats(backend)).occ;
    const results = await burst(backend, "hot", 12);
    const after = (await backendStats(backend)).occ;
    expect(after.enabled).toBe(true);
    expect(after.maxRetries).toBe(4);
    expect(after.conflicts - before.conflicts).toBeGreaterThan(0);
    expect(after.retries - before.retries).toBeGreaterThan(0);
    const ok = successes(results);
    // Every success saw the one before it: 2, 3, ... with no value twice (no lost update).
    expect([...ok].sort((a, b) => a - b)).toEqual(ok.map((_, i) => i + 2));
    expect(await http.query(getCounter, { name: "hot" })).toBe(1 + ok.length);
    for (const r of results) if (r.status === "rejected") expect(String(r.reason)).toMatch(OCC_MESSAGE);
  });

  test("mutations on different documents never conflict", async () => {
    const http = backend.httpClient();
    const names = Array.from({ length: 12 }, (_, i) => `own-${i}`);
    await Promise.all(names.map((name) => http.mutation(bump, { name })));
    const before = (await backendStats(backend)).occ;
    const clients = names.map(() => backend.httpClient());
    const values = await Promise.all(
      clients.map((client, i) => client.mutation(bumpThroughAwaits, { name: names[i], reads: 20 })),
    );
    expect(values).toEqual(names.map(() => 2));
    const after = (await backendStats(backend)).occ;
    expect(after.conflicts).toBe(before.conflicts);
  });

  test("a .first() read conflicts only with writes up to the document it returned", async () => {
    const http = backend.httpClient();
    await http.mutation(bump, { name: "a-first" });
    const before = (await backendStats(backend)).occ;
    const clients = Array.from({ length: 10 }, () => backend.httpClient());
    await Promise.all(clients.map((client, i) => client.mutation(readFirstThenAdd, { name: `zz-${i}`, reads: 20 })));
    // Each adds a counter after "a-first" in the index, outside what the others read.
    expect((await backendStats(backend)).occ.conflicts).toBe(before.conflicts);
  });

  test("a query reads one committed state while transfers commit", async () => {
    const http = backend.httpClient();
    const names = ["left", "right"];
    for (const name of names) await http.mutation(bump, { name, by: 100 });
    const clients = Array.from({ length: 8 }, () => backend.httpClient());
    const sums: number[] = [];
    const transfers = clients.map(async (client, i) => {
      for (let k = 0; k < 5; k++) {
        await client
          .mutation(transfer, i % 2 === 0 ? { from: "left", to: "right" } : { from: "right", to: "left" })
          .catch(() => undefined);
      }
    });
    const reads = clients.map(async (client) => {
      for (let k = 0; k < 5; k++) sums.push(await client.query(sum, { names }));
    });
    await Promise.all([...transfers, ...reads]);
    expect(sums.length).toBe(40);
    for (const total of sums) expect(total).toBe(200);
  });
});

describe("past the budget", () => {
  let backend: Backend;
  beforeAll(async () => {
    // Retries start at once, so a burst's attempts all overlap again.
    backend = await startBackend({
      env: { UDF_EXECUTOR_OCC_INITIAL_BACKOFF_MS: "0", UDF_EXECUTOR_OCC_MAX_BACKOFF_MS: "0" },
    });
  });
  afterAll(async () => {
    await backend?.dispose();
  });

  test("an HTTP client gets Convex's OptimisticConcurrencyControlFailure; the value counts only the successes", async () => {
    const http = backend.httpClient();
    await http.mutation(bump, { name: "hot" });
    const mark = backend.mark();
    const results = await burst(backend, "hot", 12, 50);
    const failed = results.filter((r) => r.status === "rejected");
    expect(failed.length).toBeGreaterThan(0);
    for (const r of failed) {
      // ConvexHttpClient throws the body of the 503: `{code, message}`.
      const body = JSON.parse(((r as PromiseRejectedResult).reason as Error).message);
      expect(body.code).toBe("OptimisticConcurrencyControlFailure");
      expect(body.message).toMatch(OCC_MESSAGE);
    }
    const ok = successes(results);
    expect(ok.length).toBeGreaterThan(0);
    expect([...ok].sort((a, b) => a - b)).toEqual(ok.map((_, i) => i + 2));
    expect(await http.query(getCounter, { name: "hot" })).toBe(1 + ok.length);
    const stats = (await backendStats(backend)).occ;
    expect(stats.failures).toBe(failed.length);
    // Five attempts each (four retries) before failing.
    expect(stats.retries).toBeGreaterThanOrEqual(4 * failed.length);
    await waitFor(() => OCC_MESSAGE.test(backend.outputSince(mark)), { message: "the error in the backend's log" });
  });
});

describe("with no retries", () => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await startBackend({ env: { UDF_EXECUTOR_OCC_MAX_RETRIES: "0" } });
  });
  afterAll(async () => {
    await backend?.dispose();
  });

  test("over the WebSocket a conflict past the budget closes the socket with 1013; the client resends until it commits", async () => {
    const http = backend.httpClient();
    await http.mutation(bump, { name: "ws" });
    // A bare client sees the close frame Convex sends (code 1013, reason the error code).
    const raws = await Promise.all(Array.from({ length: 6 }, () => RawClient.open(backend)));
    const closes = raws.map(
      (raw) => new Promise<number>((resolve) => raw.socket.once("close", (code: number) => resolve(code))),
    );
    for (const raw of raws) raw.mutate("counters:bumpThroughAwaits", { name: "ws", reads: 50 });
    await waitFor(() => raws.every((raw) => raw.closed || raw.messages.some((m) => m.type === "MutationResponse")), {
      message: "every mutation answered or its socket closed",
    });
    const closedRaws = raws.filter((raw) => raw.closed);
    expect(closedRaws.length).toBeGreaterThan(0);
    for (const raw of closedRaws) expect(raw.messages.some((m) => m.type === "MutationResponse")).toBe(false);
    for (const raw of closedRaws) expect(await closes[raws.indexOf(raw)]).toBe(1013);
    const answered = raws.length - closedRaws.length;
    for (const raw of raws) await raw.close();
    expect(await http.query(getCounter, { name: "ws" })).toBe(1 + answered);

    // The official client reconnects and sends its mutation again: every call ends up committed once.
    const clients = Array.from({ length: 6 }, () => backend.client());
    const values = await Promise.all(clients.map((c) => c.mutation(bumpThroughAwaits, { name: "ws", reads: 50 })));
    expect(new Set(values).size).toBe(6);
    expect(await http.query(getCounter, { name: "ws" })).toBe(1 + answered + 6);
  });

  test("a scheduled mutation that conflicts retries until it commits", async () => {
    const http = backend.httpClient();
    await http.mutation(bump, { name: "sched" });
    const before = (await backendStats(backend)).occ;
    await http.mutation(scheduleBumps, { name: "sched", count: 10 });
    await waitFor(async () => (await http.query(getCounter, { name: "sched" })) === 11, {
      message: `every scheduled bump committed:\n${backend.outputSince(0)}`,
    });
    await waitFor(
      async () => {
        const states = await http.query(jobStates, { name: "counters:bumpInternal" });
        return states.length === 10 && states.every((s) => s === "success");
      },
      { message: "every job succeeded" },
    );
    const after = (await backendStats(backend)).occ;
    // Client mutations get no retry here, yet the scheduled ones retried past it and none failed.
    expect(after.retries - before.retries).toBeGreaterThan(0);
    expect(after.failures).toBe(before.failures);
  });
});
