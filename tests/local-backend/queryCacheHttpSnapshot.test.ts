/**
 * The moments a black-box test cannot pick (issue 18 item 4): an HTTP query
 * served from the subscriptions' cache (QueryEntries.serveOnce) must not take a
 * subscribed result that a commit made stale before the flush re-ran it, nor
 * the previous result of an entry a run is re-computing. The engine runs in
 * this process with its flush loop stopped, so the stale state holds until
 * the HTTP query comes; the run in progress is caught by wrapping
 * Engine.query (no timing involved).
 */
import fs from "node:fs";
import { afterAll, beforeAll, expect, test } from "vitest";
import { TokenVerifier } from "../../local-backend/src/auth/auth";
import { Engine } from "../../local-backend/src/engine/engine";
import { SyncManager } from "../../local-backend/src/sync/sync";
import { startInProcessEngine } from "./inProcessEngine";

let engine: Engine;
let sync: SyncManager;
let dir: string;

beforeAll(async () => {
  ({ engine, dir } = await startInProcessEngine("stagetime-lb-http-cache-"));
  sync = new SyncManager(engine, new TokenVerifier(engine));
});

afterAll(() => {
  sync?.stop();
  engine?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const none = { kind: "none" } as const;
const count = async () => {
  const { result } = await sync.queries.serveOnce("items:summary", {}, none);
  if (!result.ok) throw new Error(result.message);
  return (result.value as { count: number }).count;
};

test("a subscribed result a write made stale is re-run for the HTTP query, once for both", async () => {
  await engine.mutation("items:add", { n: 1 }, none);
  // A subscriber's entry, computed by a flush; then no flush runs again.
  const entry = sync.queries.acquire("items:summary", {}, none);
  await sync.requestFlush();
  expect((entry.result as { value: { count: number } }).value.count).toBe(1);
  sync.stop();

  let runs = sync.queries.queryRuns;
  expect(await count()).toBe(1);
  expect(sync.queries.queryRuns - runs).toBe(0);

  await engine.mutation("items:add", { n: 2 }, none);
  expect(entry.dirty).toBe(true);
  runs = sync.queries.queryRuns;
  expect(await count()).toBe(2);
  expect(sync.queries.queryRuns - runs).toBe(1);
  // The subscriber's entry got that run: nothing left for the next flush.
  expect(entry.dirty).toBe(false);
  expect((entry.result as { value: { count: number } }).value.count).toBe(2);
});

test("an HTTP query arriving while the entry is re-run waits for that run instead of taking the previous result", async () => {
  await engine.mutation("items:add", { n: 3 }, none);
  const query = engine.query;
  let during: Promise<number> | null = null;
  engine.query = (...args: Parameters<Engine["query"]>) => {
    engine.query = query;
    // The entry is being re-run: its result is still the previous one.
    during = count();
    return query.apply(engine, args);
  };
  try {
    const runs = sync.queries.queryRuns;
    expect(await count()).toBe(3);
    expect(during).not.toBeNull();
    expect(await during!).toBe(3);
    expect(sync.queries.queryRuns - runs).toBe(1);
  } finally {
    engine.query = query;
  }
});
