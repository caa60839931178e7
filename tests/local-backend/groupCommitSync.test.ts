/**
 * Group commit seen from a subscription: a Transition goes out only once the
 * data log holds the commits it shows, and the commits that land while one
 * fsync runs are re-run together (one query run for the whole group, not one
 * per commit). The engine and the sync manager run in this process; the
 * log's fsyncs (`fs.fsync`) are held by the test and released one at a time,
 * so nothing here depends on timing.
 */
import { EventEmitter } from "node:events";
import fs from "node:fs";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import type { WebSocket } from "ws";
import { TokenVerifier } from "../../local-backend/src/auth/auth";
import type { Engine } from "../../local-backend/src/engine/engine";
import { SyncManager } from "../../local-backend/src/sync/sync";
import { startInProcessEngine } from "./inProcessEngine";

let engine: Engine;
let sync: SyncManager;
let dir: string;

beforeAll(async () => {
  ({ engine, dir } = await startInProcessEngine("stagetime-lb-group-commit-"));
  sync = new SyncManager(engine, new TokenVerifier(engine));
});

afterAll(() => {
  vi.restoreAllMocks();
  sync?.stop();
  engine?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** A WebSocket stand-in: what the server sends is kept, parsed. */
class FakeSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  bufferedAmount = 0;
  readonly sent: Array<Record<string, unknown>> = [];
  send(text: string): void {
    this.sent.push(JSON.parse(text) as Record<string, unknown>);
  }
  close(): void {
    this.readyState = 3;
  }
}

const none = { kind: "none" } as const;

test("a Transition waits for the fsync of what it shows, and a group of commits is re-run once", async () => {
  const socket = new FakeSocket();
  sync.attach(socket as unknown as WebSocket);
  const receive = (message: Record<string, unknown>) =>
    socket.emit("message", Buffer.from(JSON.stringify(message)), false);
  receive({ type: "Connect", sessionId: "6a3b2c1d-0000-4000-8000-000000000001", connectionCount: 0 });
  receive({
    type: "ModifyQuerySet",
    baseVersion: 0,
    newVersion: 1,
    modifications: [{ type: "Add", queryId: 0, udfPath: "items:summary", args: [{}] }],
  });
  const transitions = () => socket.sent.filter((m) => m.type === "Transition");
  const counts = () =>
    transitions().flatMap((t) =>
      (t.modifications as Array<{ value?: { count: number } }>).map((m) => m.value?.count ?? null),
    );
  await vi.waitFor(() => expect(counts()).toEqual([0]));

  const held: Array<() => void> = [];
  const realFsync = fs.fsync.bind(fs);
  vi.spyOn(fs, "fsync").mockImplementation(((fd: number, done: (error: Error | null) => void) => {
    held.push(() => realFsync(fd, done));
  }) as typeof fs.fsync);
  const runs0 = sync.queries.queryRuns;
  const commits0 = engine.commitSeq;

  // One commit: its fsync is held; the flush re-runs the query but sends nothing yet.
  const first = engine.mutation("items:add", { n: 1 }, none);
  await vi.waitFor(() => expect(held).toHaveLength(1));
  await vi.waitFor(() => expect(sync.queries.queryRuns).toBe(runs0 + 1));
  expect(counts()).toEqual([0]);

  // Ten more land while that fsync runs.
  const rest = Array.from({ length: 10 }, (_, i) => engine.mutation("items:add", { n: 2 + i }, none));
  await vi.waitFor(() => expect(engine.commitSeq).toBe(commits0 + 11));
  expect(counts()).toEqual([0]);

  // The first fsync ends: its Transition goes out; the ten share the next fsync (held again).
  held.shift()!();
  await first;
  await vi.waitFor(() => expect(counts()).toEqual([0, 1]));
  await vi.waitFor(() => expect(held).toHaveLength(1));
  // The ten commits were re-run together, once, and are not shown before their fsync.
  await vi.waitFor(() => expect(sync.queries.queryRuns).toBe(runs0 + 2));
  expect(counts()).toEqual([0, 1]);

  held.shift()!();
  await Promise.all(rest);
  await vi.waitFor(() => expect(counts()).toEqual([0, 1, 11]));
  expect(sync.queries.queryRuns - runs0).toBe(2);
  expect(engine.durable()).toBeNull();
  vi.restoreAllMocks();
});
