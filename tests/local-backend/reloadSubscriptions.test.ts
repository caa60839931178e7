/**
 * A functions reload re-runs live subscriptions. On Convex a push changes the
 * modules every query reads, so each subscription is re-evaluated with the new
 * code; here a reload used to leave a subscriber on the old code's result
 * until a write touched what it read. No write happens in these tests after
 * the subscription: only the code changes.
 */
import fs from "node:fs";
import path from "node:path";
import { anyApi } from "convex/server";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Backend } from "./harness";
import { startWatchedFixture, type WatchedFixture } from "./watchedFixture";
import { RawClient } from "./rawClient";

const api = anyApi as any;
let fixture: WatchedFixture;
let backend: Backend;
let functionsDir: string;
let edit: WatchedFixture["edit"];

beforeAll(async () => {
  fixture = await startWatchedFixture("stagetime-lb-reload-subs-");
  ({ backend, functionsDir, edit } = fixture);
});

afterAll(async () => {
  await fixture?.dispose();
});

/** The modification for query 0 in the first Transition at or after message `from` that has one. */
async function nextUpdate(client: RawClient, what: string, from = 0): Promise<any> {
  const transition = await client.waitForMessage(
    (m) => m.type === "Transition" && m.modifications.some((mod: any) => mod.queryId === 0),
    what,
    from,
  );
  return transition.modifications.find((mod: any) => mod.queryId === 0);
}

test("a subscriber gets the new code's result after a reload, without any write", async () => {
  await backend.httpClient().mutation(api.items.add, { n: 7 });
  const client = await RawClient.open(backend);
  client.subscribe([{ queryId: 0, udfPath: "items:summary", args: {} }]);
  expect(await nextUpdate(client, "the first summary")).toMatchObject({
    type: "QueryUpdated",
    value: { count: 1, last: [7] },
  });
  const from = client.messages.length;
  edit("items.ts", "last: items.slice(-5).map((item) => item.n)", "last: items.slice(-5).map((item) => item.n * 10)");
  expect(await nextUpdate(client, "the reloaded summary", from)).toMatchObject({
    type: "QueryUpdated",
    value: { count: 1, last: [70] },
  });
  const late = await RawClient.open(backend);
  late.subscribe([{ queryId: 0, udfPath: "items:summary", args: {} }]);
  expect((await nextUpdate(late, "a new subscriber's summary")).value).toEqual({ count: 1, last: [70] });
  await late.close();
  await client.close();
});

test("a subscription to a function that did not exist runs once a reload adds it", async () => {
  const client = await RawClient.open(backend);
  client.subscribe([{ queryId: 0, udfPath: "items:added", args: {} }]);
  const failed = await nextUpdate(client, "the missing function's error");
  expect(failed.type).toBe("QueryFailed");
  expect(failed.errorMessage).toMatch(/Could not find public function/);
  const from = client.messages.length;
  fs.appendFileSync(
    path.join(functionsDir, "items.ts"),
    '\nexport const added = query({ args: {}, handler: async (ctx) => ({ added: (await ctx.db.query("items").take(10)).length }) });\n',
  );
  expect(await nextUpdate(client, "the added function's result", from)).toMatchObject({
    type: "QueryUpdated",
    value: { added: 1 },
  });
  await client.close();
});
