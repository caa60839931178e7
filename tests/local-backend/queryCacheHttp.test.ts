/**
 * Issue 18 item 4: an HTTP query (/api/query, as index.html's first-page fetch
 * sends) goes through the same query cache as subscriptions, as Convex's
 * function cache serves the HTTP API and the sync worker alike. Runs are
 * counted from the backend's output (the fixture query prints a line per run),
 * apart from the cache's own figures; the cache never serves a result another
 * identity computed, nor one a write made stale.
 */
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api } from "./fixture/convex/_generated/api";
import { type Backend, startBackend, waitFor } from "./harness";
import { backendStats, RawClient } from "./rawClient";

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});

afterAll(async () => {
  await backend?.dispose();
});

const runs = async () => (await backendStats(backend)).queryRuns as number;

/** How many times `sync:countLogged` ran for `channel` since `mark` (waits for a later line, so none is in flight). */
async function runsLogged(channel: string, mark: number): Promise<number> {
  const sentinel = `sentinel-${channel}-${Math.random()}`;
  await backend.httpClient().query(api.sync.countLogged, { channel: sentinel });
  const output = await waitFor(
    () => {
      const text = backend.outputSince(mark);
      return text.includes(`countLogged ran for ${sentinel}`) ? text : undefined;
    },
    { message: "the sentinel run on the backend's output" },
  );
  return output.split(`countLogged ran for ${channel}\n`).length - 1;
}

/** Subscribes a fresh connection to one query (signed in with `token` if given); its first value. */
async function subscribeOnce(
  udfPath: string,
  args: Record<string, unknown>,
  token?: string,
): Promise<{ value: unknown; client: RawClient }> {
  const client = await RawClient.open(backend);
  if (token) client.authenticate(token);
  client.subscribe([{ queryId: 0, udfPath, args }]);
  const transition = await client.waitForMessage(
    (m) => m.type === "Transition" && m.modifications.some((mod: any) => mod.queryId === 0),
    `the first value of ${udfPath}`,
  );
  const mod = transition.modifications.find((m: any) => m.queryId === 0);
  expect(mod.type).toBe("QueryUpdated");
  return { value: mod.value, client };
}

async function insert(channel: string): Promise<string> {
  return await backend.httpClient().mutation(api.sync.insert, { channel, body: "hello" });
}

describe("an HTTP query and subscriptions share one cache", () => {
  test("an HTTP query then a subscription with the same arguments run the function once, and the reverse", async () => {
    const channel = `shared-${Date.now()}`;
    await insert(channel);
    const mark = backend.mark();
    const before = await runs();
    expect(await backend.httpClient().query(api.sync.countLogged, { channel })).toBe(1);
    const { value, client } = await subscribeOnce("sync:countLogged", { channel });
    expect(value).toBe(1);
    // With a subscriber, a second HTTP query is served too.
    expect(await backend.httpClient().query(api.sync.countLogged, { channel })).toBe(1);
    await client.close();
    expect(await runsLogged(channel, mark)).toBe(1);
    // The cache's own count agrees (the sentinel's run is one more).
    expect((await runs()) - before).toBe(2);
  });

  test("a write between the HTTP query and the subscription: both see it", async () => {
    const channel = `between-${Date.now()}`;
    const http = backend.httpClient();
    expect(await http.query(api.sync.countLogged, { channel })).toBe(0);
    await insert(channel);
    const { value, client } = await subscribeOnce("sync:countLogged", { channel });
    expect(value).toBe(1);
    await insert(channel);
    await client.waitForMessage(
      (m) => m.type === "Transition" && m.modifications.some((mod: any) => mod.value === 2),
      "the second write",
    );
    expect(await http.query(api.sync.countLogged, { channel })).toBe(2);
    await client.close();
    // After the subscriber left, the kept result is dropped by the next write to its range.
    await insert(channel);
    expect(await http.query(api.sync.countLogged, { channel })).toBe(3);
  });

  test("writes racing HTTP queries never leave a stale result for a later subscription or HTTP query", async () => {
    const channel = `race-${Date.now()}`;
    const watcher = await subscribeOnce("sync:countLogged", { channel });
    let written = 0;
    for (let round = 0; round < 16; round++) {
      const http = backend.httpClient();
      // Queries and writes sent together, with and without a subscriber on the same entry; a query sent
      // after a write was acknowledged sees it (and every write acknowledged before it).
      const checks: Promise<void>[] = [];
      const queries = Array.from({ length: 3 }, () => http.query(api.sync.countLogged, { channel }));
      const writes = Array.from({ length: 1 + (round % 3) }, () =>
        insert(channel).then(() => {
          const floor = ++written;
          checks.push(
            http.query(api.sync.countLogged, { channel }).then((value) => expect(value).toBeGreaterThanOrEqual(floor)),
          );
        }),
      );
      const values = await Promise.all(queries);
      await Promise.all(writes);
      await Promise.all(checks);
      for (const value of values) expect(value).toBeLessThanOrEqual(written);
      expect(await http.query(api.sync.countLogged, { channel })).toBe(written);
      const { value, client } = await subscribeOnce("sync:countLogged", { channel });
      expect(value).toBe(written);
      await client.close();
      if (round === 7) await watcher.client.close();
    }
  });

  test("a deployment variable set while a result is cached and subscribed: both get the new value", async () => {
    const name = `LB_CACHE_${Date.now()}`;
    const http = backend.httpClient();
    expect(await http.query(api.config.env, { name })).toBeNull();
    const { value, client } = await subscribeOnce("config:env", { name });
    expect(value).toBeNull();
    const set = await backend.cli(["env", "set", name, "set later"]);
    expect(set.code).toBe(0);
    expect(await http.query(api.config.env, { name })).toBe("set later");
    await client.waitForMessage(
      (m) => m.type === "Transition" && m.modifications.some((mod: any) => mod.value === "set later"),
      "the new value on the subscription",
    );
    await client.close();
  });

  test("a page a subscription pinned is not an HTTP query's first page", async () => {
    const channel = `pinned-${Date.now()}`;
    const first = await insert(channel);
    await insert(channel);
    await insert(channel);
    const args = { channel, paginationOpts: { numItems: 2, cursor: null } };
    const { value, client } = await subscribeOnce("messages:page", args);
    expect((value as any).page).toHaveLength(2);
    // The first message leaves the channel: the subscription's page keeps its end and holds one.
    const from = client.messages.length;
    await backend.httpClient().mutation(api.sync.move, { id: first as any, channel: `${channel}-moved` });
    const update = await client.waitForMessage(
      (m) => m.type === "Transition" && m.modifications.some((mod: any) => mod.queryId === 0),
      "the re-run page",
      from,
    );
    expect(update.modifications.find((m: any) => m.queryId === 0).value.page).toHaveLength(1);
    // A fresh caller (no journal) gets a fresh first page of two.
    const page = await backend.httpClient().query(api.messages.page, args);
    expect(page.page).toHaveLength(2);
    await client.close();
  });
});

describe("a cached result is its caller's only", () => {
  async function signUp(email: string): Promise<string> {
    const result = (await backend.httpClient().action(api.auth.signIn, {
      provider: "password",
      params: { email, password: "correct horse battery", flow: "signUp" },
    })) as { tokens?: { token: string } | null };
    expect(result.tokens?.token).toBeTruthy();
    return result.tokens!.token;
  }

  test("signed out, two users over HTTP and a user's subscription each get their own identity's result", async () => {
    const [tokenA, tokenB] = [await signUp("cache-a@example.com"), await signUp("cache-b@example.com")];
    const [subA, subB] = [decodeJwt(tokenA).sub, decodeJwt(tokenB).sub];
    const anonymous = backend.httpClient();
    const asA = backend.httpClient();
    asA.setAuth(tokenA);
    const asB = backend.httpClient();
    asB.setAuth(tokenB);
    const subject = async (client: typeof asA) =>
      ((await client.query(api.whoami.identity, {})) as { subject?: string } | null)?.subject ?? null;

    const before = await runs();
    expect(await subject(asA)).toBe(subA);
    expect(await subject(anonymous)).toBeNull();
    expect(await subject(asB)).toBe(subB);
    expect((await runs()) - before).toBe(3);

    // Each again: served from the cache, still each its own.
    const cached = await runs();
    expect(await subject(anonymous)).toBeNull();
    expect(await subject(asB)).toBe(subB);
    expect(await subject(asA)).toBe(subA);
    expect((await runs()) - cached).toBe(0);

    // Subscriptions: B's gets B's result, a signed-out one gets none.
    const b = await subscribeOnce("whoami:identity", {}, tokenB);
    expect((b.value as { subject: string }).subject).toBe(subB);
    const none = await subscribeOnce("whoami:identity", {});
    expect(none.value).toBeNull();
    expect((await runs()) - cached).toBe(0);
    await b.client.close();
    await none.client.close();
  });
});
