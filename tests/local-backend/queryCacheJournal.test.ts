/**
 * The query journal is part of a cached result's key, as in Convex's query
 * cache (crates/application/src/cache/mod.rs, RequestedCacheKey): a paginated
 * subscription's page end is fixed after its first run and sent back in
 * QueryUpdated's `journal`; its re-runs keep that end. A new caller without a
 * journal gets a first page computed now, with an end of its own; a client
 * that reconnects with its journal gets its pinned page back.
 */
import { convexToJson } from "convex/values";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api } from "./fixture/convex/_generated/api";
import { type Backend, startBackend } from "./harness";
import { backendStats, RawClient } from "./rawClient";

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});

afterAll(async () => {
  await backend?.dispose();
});

type PageUpdate = { bodies: string[]; journal: string | null; isDone: boolean };

/** Subscribes query 0 of a fresh connection to `queryCache:newestPage`, with `journal` if given. */
async function subscribe(args: Record<string, unknown>, journal?: string | null): Promise<RawClient> {
  const client = await RawClient.open(backend);
  client.send({
    type: "ModifyQuerySet",
    baseVersion: 0,
    newVersion: ++client.querySetVersion,
    modifications: [
      {
        type: "Add",
        queryId: 0,
        udfPath: "queryCache:newestPage",
        args: [convexToJson(args as any)],
        ...(journal !== undefined ? { journal } : {}),
      },
    ],
  });
  return client;
}

/** The first update of query 0 at or after message `from`. */
async function update(client: RawClient, what: string, from = 0): Promise<PageUpdate> {
  const transition = await client.waitForMessage(
    (m) => m.type === "Transition" && m.modifications.some((mod: any) => mod.queryId === 0),
    what,
    from,
  );
  const mod = transition.modifications.find((m: any) => m.queryId === 0);
  expect(mod.type).toBe("QueryUpdated");
  return { bodies: mod.value.page.map((m: any) => m.body), journal: mod.journal, isDone: mod.value.isDone };
}

async function send(channel: string, body: string): Promise<void> {
  await backend.httpClient().mutation(api.messages.send, { channel, author: "t", body });
}

const runs = async () => (await backendStats(backend)).queryRuns as number;

describe("the journal is part of the cache key", () => {
  test("a fresh subscriber gets a first page of its own, not the one another subscription pinned", async () => {
    const channel = `journal-${Date.now()}`;
    for (const body of ["a", "b", "c"]) await send(channel, body);
    const args = { channel, paginationOpts: { numItems: 2, cursor: null } };

    const first = await subscribe(args);
    const initial = await update(first, "the first page");
    expect(initial.bodies).toEqual(["c", "b"]);
    expect(typeof initial.journal).toBe("string");

    // Newer messages land before the first page's end: it keeps its end and grows.
    const from = first.messages.length;
    await send(channel, "d");
    await send(channel, "e");
    await first.waitForMessage(
      (m) =>
        m.type === "Transition" && m.modifications.some((mod: any) => mod.queryId === 0 && mod.value.page.length === 4),
      "the pinned page with both new messages",
      from,
    );

    // A new subscriber with the same arguments and no journal: a first page of exactly two, computed now.
    const second = await subscribe(args);
    const fresh = await update(second, "the fresh subscriber's first page");
    expect(fresh.bodies).toEqual(["e", "d"]);
    expect(fresh.journal).not.toBe(initial.journal);
    // An HTTP query (no journal) gets the same fresh first page.
    const http = await backend.httpClient().query(api.queryCache.newestPage, args);
    expect(http.page.map((m) => m.body)).toEqual(["e", "d"]);

    // A client reconnecting with the first subscription's journal gets its pinned page back.
    const reconnected = await subscribe(args, initial.journal);
    const pinned = await update(reconnected, "the reconnected page");
    expect(pinned.bodies).toEqual(["e", "d", "c", "b"]);
    expect(pinned.journal).toBe(initial.journal);

    // The fresh subscription pins its own end in turn.
    const fromSecond = second.messages.length;
    await send(channel, "f");
    expect((await update(second, "the second page after f", fromSecond)).bodies).toEqual(["f", "e", "d"]);
    for (const client of [first, second, reconnected]) await client.close();
  });

  test("with no write since a first run, a fresh subscriber shares it (and its journal) without a run", async () => {
    const channel = `journal-share-${Date.now()}`;
    for (const body of ["a", "b", "c"]) await send(channel, body);
    const args = { channel, paginationOpts: { numItems: 2, cursor: null } };
    const first = await subscribe(args);
    const initial = await update(first, "the first page");
    const before = await runs();
    const second = await subscribe(args);
    const shared = await update(second, "the shared first page");
    expect(shared).toEqual(initial);
    expect((await runs()) - before).toBe(0);
    await first.close();
    await second.close();
  });
});
