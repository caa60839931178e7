/**
 * Convex components in the local backend (issue 14 item 9), through a running
 * backend and the official clients: `convex.config.ts` installs
 * `@convex-dev/rate-limiter` (which itself installs `@convex-dev/batch-worker`)
 * and `@convex-dev/sharded-counter` (as "counter"); their functions run in
 * their own namespace with their own tables, their data survives a restart
 * (also after `kill -9`), and export/import carries their tables.
 */
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api } from "./componentFixture/convex/_generated/api";
import { type Backend, repoRoot, runCli, startBackend, tempDir } from "./harness";

const functionsDir = path.join(repoRoot, "tests/local-backend/componentFixture/convex");
const RATE_LIMITED = /RateLimited/;

let backend: Backend;
const cleanup: string[] = [];

beforeAll(async () => {
  backend = await startBackend({ functionsDir });
});

afterAll(async () => {
  await backend?.dispose();
  for (const dir of cleanup) await rm(dir, { recursive: true, force: true });
});

describe("components", () => {
  test("a rate-limited mutation refuses the 4th call over the real client and writes nothing", async () => {
    const client = backend.client();
    for (let i = 0; i < 3; i++) await client.mutation(api.notes.send, { author: "ana", body: `n${i}` });
    await expect(client.mutation(api.notes.send, { author: "ana", body: "too many" })).rejects.toThrow(RATE_LIMITED);
    // Per key: another author is not limited.
    await client.mutation(api.notes.send, { author: "bo", body: "hello" });
    expect(await client.query(api.notes.canSend, { author: "ana" })).toBe(false);
    expect(await client.query(api.notes.canSend, { author: "bo" })).toBe(true);
    // The refused call wrote nothing; the counter's shards counted the rest; the
    // app's own `rateLimits` table is not the component's.
    expect(await client.query(api.notes.stats, {})).toEqual({ notes: 4, counted: 4, appRateLimits: 0 });
  });

  test("component data persists across a restart and a kill -9", async () => {
    const http = backend.httpClient();
    await backend.restart();
    expect(await http.query(api.notes.canSend, { author: "ana" })).toBe(false);
    await expect(http.mutation(api.notes.send, { author: "ana", body: "after restart" })).rejects.toThrow(RATE_LIMITED);
    expect(await http.query(api.notes.stats, {})).toMatchObject({ notes: 4, counted: 4 });

    await http.mutation(api.notes.send, { author: "cy", body: "before kill" });
    await backend.kill();
    await backend.start();
    const after = backend.httpClient();
    expect(await after.query(api.notes.stats, {})).toMatchObject({ notes: 5, counted: 5 });
    expect(await after.query(api.notes.canSend, { author: "ana" })).toBe(false);
  });

  test("export carries the component tables and import restores them", async () => {
    const dir = await tempDir("stagetime-components-export-");
    cleanup.push(dir);
    const file = path.join(dir, "snapshot.json");
    const exported = await backend.cli(["export", file]);
    expect(exported.code, exported.stderr).toBe(0);
    const snapshot = JSON.parse(await readFile(file, "utf8"));
    expect(Object.keys(snapshot.components).sort()).toEqual(["counter", "rateLimiter", "rateLimiter/batchWorker"]);
    expect(snapshot.components.rateLimiter.rateLimits.length).toBeGreaterThanOrEqual(3);
    expect(snapshot.components.counter.counters.length).toBeGreaterThan(0);
    expect(snapshot.tables.rateLimits ?? []).toEqual([]);

    const freshDir = await tempDir();
    cleanup.push(freshDir);
    const imported = await runCli(["import", file, "--data-dir", freshDir, "--functions", functionsDir]);
    expect(imported.code, `${imported.stdout}\n${imported.stderr}`).toBe(0);
    const copy = await startBackend({ dataDir: freshDir, functionsDir });
    try {
      const http = copy.httpClient();
      expect(await http.query(api.notes.stats, {})).toMatchObject({ notes: 5, counted: 5 });
      expect(await http.query(api.notes.canSend, { author: "ana" })).toBe(false);
      await expect(http.mutation(api.notes.send, { author: "ana", body: "copy" })).rejects.toThrow(RATE_LIMITED);
      await http.mutation(api.notes.send, { author: "dee", body: "new in copy" });
      expect(await http.query(api.notes.stats, {})).toMatchObject({ notes: 6, counted: 6 });
    } finally {
      await copy.dispose();
    }
  }, 180_000);
  test("component documents go through the segments' compaction (full, then a delta) and survive kill -9", async () => {
    const adminKey = (await readFile(path.join(backend.dataDir, "admin-key"), "utf8")).trim();
    const compact = async () => {
      const response = await fetch(`${backend.url}/_local/compact`, {
        method: "POST",
        headers: { Authorization: `Convex ${adminKey}` },
      });
      expect(response.status).toBe(200);
      return (await response.json()) as { kind: string; changed: number };
    };
    const http = backend.httpClient();
    const before = (await http.query(api.notes.stats, {})) as { notes: number; counted: number };
    expect((await compact()).kind).toBe("full");
    await http.mutation(api.notes.send, { author: "dee", body: "after compaction" });
    const delta = await compact();
    expect(delta.kind).toBe("delta");
    expect(delta.changed).toBeGreaterThan(1); // the note, and the component's rate limit and counter rows
    await backend.kill();
    await backend.start();
    const after = backend.httpClient();
    expect(await after.query(api.notes.stats, {})).toMatchObject({
      notes: before.notes + 1,
      counted: before.counted + 1,
    });
    expect(await after.query(api.notes.canSend, { author: "ana" })).toBe(false);
  });
});
