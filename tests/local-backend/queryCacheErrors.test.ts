/**
 * A query's error is not cached, as on Convex (crates/application/src/cache/mod.rs:
 * "We do not cache JSErrors"): a new subscriber or HTTP caller runs the query
 * again, while a subscription that got the error keeps it until what it read
 * changes. `queryCache:flaky` fails its first runs per key, on state of its
 * own module that no write touches.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { api } from "./fixture/convex/_generated/api";
import { type Backend, startBackend } from "./harness";
import { RawClient } from "./rawClient";

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});

afterAll(async () => {
  await backend?.dispose();
});

/** A fresh connection subscribed (query 0) to `queryCache:flaky`, and its first modification. */
async function subscribeFlaky(key: string, failures: number): Promise<{ client: RawClient; mod: any }> {
  const client = await RawClient.open(backend);
  client.subscribe([{ queryId: 0, udfPath: "queryCache:flaky", args: { key, failures } }]);
  const transition = await client.waitForMessage(
    (m) => m.type === "Transition" && m.modifications.some((mod: any) => mod.queryId === 0),
    "the first result",
  );
  return { client, mod: transition.modifications.find((m: any) => m.queryId === 0) };
}

const query0 = (client: RawClient) =>
  client.transitions().flatMap((t) => t.modifications.filter((mod: any) => mod.queryId === 0));

test("a new subscriber re-runs a query whose subscription failed; the failed subscription keeps its error", async () => {
  const key = `sub-${Date.now()}`;
  const first = await subscribeFlaky(key, 1);
  expect(first.mod).toMatchObject({ type: "QueryFailed" });
  expect(first.mod.errorMessage).toContain(`flaky ${key} failed run 1`);

  const second = await subscribeFlaky(key, 1);
  expect(second.mod).toMatchObject({ type: "QueryUpdated", value: 2 });
  // The first subscription read nothing that changed: it still shows its error, as on Convex.
  expect(query0(first.client)).toHaveLength(1);

  // An HTTP query is not served the error either (the successful result is shared: no run).
  expect(await backend.httpClient().query(api.queryCache.flaky, { key, failures: 1 })).toBe(2);
  await first.client.close();
  await second.client.close();
});

test("an HTTP query's error is not served to the next HTTP query or subscriber", async () => {
  const key = `http-${Date.now()}`;
  const http = backend.httpClient();
  await expect(http.query(api.queryCache.flaky, { key, failures: 2 })).rejects.toThrow(`flaky ${key} failed run 1`);
  await expect(http.query(api.queryCache.flaky, { key, failures: 2 })).rejects.toThrow(`flaky ${key} failed run 2`);
  const { client, mod } = await subscribeFlaky(key, 2);
  expect(mod).toMatchObject({ type: "QueryUpdated", value: 3 });
  await client.close();
});

test("a failed subscription's error is not served to the next HTTP query", async () => {
  const key = `sub-http-${Date.now()}`;
  const { client, mod } = await subscribeFlaky(key, 1);
  expect(mod.type).toBe("QueryFailed");
  expect(await backend.httpClient().query(api.queryCache.flaky, { key, failures: 1 })).toBe(2);
  await client.close();
});
