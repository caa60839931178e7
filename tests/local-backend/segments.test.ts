/**
 * Issue 18 item 3: the data directory's snapshot is segmented (segments.ts):
 * bounded segment files and a manifest swapped by rename, compaction that
 * writes what changed (a delta) and merges only the buckets it touches, and
 * old data directories (`snapshot.json` + `log.jsonl`) migrated on start. The
 * backends here use tiny segments (`LOCAL_BACKEND_SEGMENT_DOCS`) so a few
 * hundred messages cross many segment boundaries.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { api } from "./fixture/convex/_generated/api";
import type { Id } from "./fixture/convex/_generated/dataModel";
import { type Backend, fixtureDir, startBackend, tempDir, waitFor } from "./harness";

const SEGMENT_DOCS = 8;
let backend: Backend | undefined;

afterEach(async () => {
  await backend?.dispose();
  backend = undefined;
});

async function admin(b: Backend, route: string): Promise<any> {
  const adminKey = fs.readFileSync(path.join(b.dataDir, "admin-key"), "utf8").trim();
  const response = await fetch(`${b.url}/_local/${route}`, {
    method: "POST",
    headers: { Authorization: `Convex ${adminKey}` },
  });
  if (!response.ok) throw new Error(`${route}: ${response.status} ${await response.text()}`);
  return await response.json();
}

type Segment = { file: string; docs: number; bytes: number };
type Manifest = {
  version: number;
  ts: string;
  /** Each table's base (components' documents under `@`). */
  tables: Record<string, { level: number; base: (Segment | null)[] }>;
  deltas: Segment[];
};
const manifestOf = (dataDir: string) =>
  JSON.parse(fs.readFileSync(path.join(dataDir, "manifest.json"), "utf8")) as Manifest;
/** Every base segment of every table. */
const baseFiles = (m: Manifest) =>
  Object.values(m.tables)
    .flatMap((t) => t.base)
    .filter((s) => s !== null)
    .map((s) => s.file)
    .sort();
const segmentFiles = (dataDir: string) =>
  fs.existsSync(path.join(dataDir, "segments")) ? fs.readdirSync(path.join(dataDir, "segments")).sort() : [];
/** Every byte of the segments and the log, as text. */
const onDisk = (dataDir: string) =>
  [...segmentFiles(dataDir).map((f) => path.join(dataDir, "segments", f)), path.join(dataDir, "log.jsonl")]
    .map((f) => fs.readFileSync(f, "utf8"))
    .join("");

async function bodies(b: Backend, channel: string): Promise<string[]> {
  return (await b.httpClient().query(api.messages.list, { channel })).map((m) => m.body);
}

/** Messages in a channel (more than the list's take(2000)). */
async function count(b: Backend, channel: string): Promise<number> {
  const page = await b
    .httpClient()
    .query(api.messages.page, { channel, paginationOpts: { numItems: 10000, cursor: null } });
  return page.page.length;
}

const numbered = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `#${from + i}`);

describe("segmented snapshot", () => {
  test("compaction writes bounded segments, then only what changed; kill -9 and restarts keep everything", async () => {
    backend = await startBackend({ env: { LOCAL_BACKEND_SEGMENT_DOCS: String(SEGMENT_DOCS) } });
    const http = backend.httpClient();
    await http.mutation(api.messages.seed, { channel: "seg", count: 200 });
    const all = await http.query(api.messages.list, { channel: "seg" });
    expect(all).toHaveLength(200);

    // The first compaction writes everything, in buckets of about SEGMENT_DOCS documents.
    const full = await admin(backend, "compact");
    expect(full.kind).toBe("full");
    const manifest = manifestOf(backend.dataDir);
    expect(manifest.version).toBe(2);
    // Each table has a base of its own (a start reads a table's files only when it is needed).
    const messages = manifest.tables.messages;
    expect(2 ** messages.level).toBeGreaterThanOrEqual(200 / SEGMENT_DOCS);
    const base = messages.base.filter((s) => s !== null);
    expect(base.length).toBeGreaterThan(10);
    expect(Math.max(...base.map((s) => s.docs))).toBeLessThan(SEGMENT_DOCS * 4);
    expect(base.reduce((a, s) => a + s.docs, 0)).toBe(200);
    expect(segmentFiles(backend.dataDir)).toEqual(baseFiles(manifest));
    // The log was emptied: all it holds is what committed after the compaction, which here can only
    // be the fixture's cron (counters.tick, every second: it raced this check and won on a loaded machine).
    const logged = fs
      .readFileSync(path.join(backend.dataDir, "log.jsonl"), "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as { ts: string; w: [string, { name?: string } | null][] });
    for (const entry of logged) {
      expect(BigInt(entry.ts)).toBeGreaterThan(BigInt(manifest.ts));
      expect(entry.w.map(([, doc]) => doc?.name)).toEqual(["cron"]);
    }

    // One patch and one delete: a delta of two lines, not the database again.
    await http.mutation(api.messages.remove, { id: all[0]._id });
    await http.mutation(api.messages.rewrite, { id: all[1]._id });
    const delta = await admin(backend, "compact");
    // Plus, when it ticked in between on a loaded machine, the fixture cron's one counter document.
    expect(delta).toMatchObject({ kind: "delta", files: 1 });
    expect(delta.changed).toBe(delta.docs);
    expect([2, 3]).toContain(delta.changed);
    expect(delta.bytes).toBeLessThan(full.bytes / 20);

    await backend.kill();
    await backend.start();
    expect(await bodies(backend, "seg")).toEqual(numbered(1, 200));
    const after = await backend.httpClient().query(api.messages.list, { channel: "seg" });
    expect(after).toEqual(all.slice(1)); // exact _id and _creationTime
  }, 120_000);

  test("merging deltas rewrites only the buckets they touch; deleted documents leave the disk", async () => {
    backend = await startBackend({ env: { LOCAL_BACKEND_SEGMENT_DOCS: String(SEGMENT_DOCS) } });
    const http = backend.httpClient();
    await http.mutation(api.messages.seed, { channel: "merge", count: 300 });
    await admin(backend, "compact");
    const before = manifestOf(backend.dataDir);
    const all = await http.query(api.messages.list, { channel: "merge" });
    // Delete a few, one compaction each (deltas), until they are merged.
    const removed = all.slice(0, 3);
    for (const doc of removed) {
      await http.mutation(api.messages.remove, { id: doc._id });
      expect((await admin(backend, "compact")).kind).toBe("delta");
    }
    expect(onDisk(backend.dataDir)).toContain(removed[0]._id); // tombstones in the deltas
    // More changes than a merge waits for (a quarter of the base): the deltas go into the base.
    await http.mutation(api.messages.seed, { channel: "merge-more", count: 80 });
    const merge = await admin(backend, "compact");
    expect(merge.kind).toBe("merge");
    const after = manifestOf(backend.dataDir);
    expect(after.deltas).toEqual([]);
    // Untouched buckets keep their files.
    const [beforeBase, afterBase] = [before, after].map((m) => m.tables.messages.base);
    const kept = afterBase.filter((s, i) => s !== null && s.file === beforeBase[i]?.file);
    expect(kept.length).toBeGreaterThan(0);
    expect(merge.files).toBeLessThan(baseFiles(after).length);
    // The deleted documents are nowhere on disk any more.
    const disk = onDisk(backend.dataDir);
    for (const doc of removed) expect(disk).not.toContain(doc._id);
    expect(segmentFiles(backend.dataDir)).toEqual(baseFiles(after));

    await backend.restart();
    expect(await bodies(backend, "merge")).toEqual(numbered(3, 300));
    expect(await bodies(backend, "merge-more")).toHaveLength(80);
  }, 120_000);

  test("the backend compacts by itself once the log passes its threshold, between commits", async () => {
    backend = await startBackend({
      env: { LOCAL_BACKEND_SEGMENT_DOCS: String(SEGMENT_DOCS), LOCAL_BACKEND_COMPACT_LOG_BYTES: "20000" },
    });
    const http = backend.httpClient();
    for (let i = 0; i < 30; i++) await http.mutation(api.messages.seed, { channel: "auto", count: 10, from: i * 10 });
    await waitFor(async () => fs.existsSync(path.join(backend!.dataDir, "manifest.json")), {
      message: "a compaction",
    });
    const stats = await admin(backend, "stats");
    expect(stats.storage.lastCompaction).not.toBeNull();
    expect(stats.storage.logBytes).toBeLessThan(20000 + 5000);
    await backend.kill();
    await backend.start();
    expect(await bodies(backend, "auto")).toEqual(numbered(0, 300));
  }, 120_000);

  test("kill -9 while compactions run every few commits loses nothing acknowledged", async () => {
    backend = await startBackend({
      env: { LOCAL_BACKEND_SEGMENT_DOCS: String(SEGMENT_DOCS), LOCAL_BACKEND_COMPACT_LOG_BYTES: "2000" },
    });
    const acknowledged: string[] = [];
    let stop = false;
    const writer = async (name: string) => {
      const http = backend!.httpClient();
      for (let i = 0; !stop; i++) {
        try {
          await http.mutation(api.messages.send, { channel: "crash", author: name, body: `${name}-${i}` });
          acknowledged.push(`${name}-${i}`);
        } catch {
          return;
        }
      }
    };
    const writers = ["a", "b", "c"].map(writer);
    await waitFor(() => acknowledged.length >= 150, { message: "150 acknowledged writes", timeoutMs: 90_000 });
    await backend.kill();
    stop = true;
    await Promise.all(writers);
    const atKill = [...acknowledged];
    expect(segmentFiles(backend.dataDir).length, "compactions ran before the kill").toBeGreaterThan(0);
    await backend.start();
    const after = await bodies(backend, "crash");
    for (const body of atKill)
      expect(
        after.filter((b) => b === body),
        body,
      ).toHaveLength(1);
    expect(after.length - atKill.length).toBeLessThanOrEqual(3);
  }, 180_000);

  test("a large commit is several log lines, applied all or nothing", async () => {
    backend = await startBackend();
    const http = backend.httpClient();
    await http.mutation(api.messages.send, { channel: "before", author: "a", body: "kept" });
    await http.mutation(api.messages.seed, { channel: "big", count: 5000 });
    await backend.kill();
    const logPath = path.join(backend.dataDir, "log.jsonl");
    const lines = fs
      .readFileSync(logPath, "utf8")
      .split("\n")
      .filter((l) => l.length > 0);
    const parts = lines.filter((l) => (JSON.parse(l) as { more?: boolean }).more === true);
    expect(parts.length).toBeGreaterThanOrEqual(2); // 5,000 writes in lines of 2,048
    await backend.start();
    expect(await count(backend, "big")).toBe(5000);
    await backend.stop();

    // A crash after the commit's first lines but before its last: none of it is there.
    fs.writeFileSync(logPath, lines.slice(0, -1).join("\n") + "\n");
    await backend.start();
    expect(await count(backend, "big")).toBe(0);
    expect(await bodies(backend, "before")).toEqual(["kept"]);
    // The cut-off lines are gone from the log, so later commits are not mixed with them.
    await backend.httpClient().mutation(api.messages.send, { channel: "before", author: "a", body: "next" });
    await backend.kill();
    await backend.start();
    expect(await bodies(backend, "big")).toEqual([]);
    expect(await bodies(backend, "before")).toEqual(["kept", "next"]);
  }, 120_000);

  test("a compaction cut short by a crash leaves the old manifest and the log: nothing is lost", async () => {
    backend = await startBackend({ env: { LOCAL_BACKEND_SEGMENT_DOCS: String(SEGMENT_DOCS) } });
    const http = backend.httpClient();
    await http.mutation(api.messages.seed, { channel: "cut", count: 50 });
    await admin(backend, "compact");
    await http.mutation(api.messages.seed, { channel: "cut", count: 10, from: 50 });
    await backend.kill();
    // What a crash mid-compaction leaves: a half-written segment and manifest beside the real ones.
    const dir = backend.dataDir;
    const stray = path.join(dir, "segments", "99999.seg");
    fs.writeFileSync(stray, "garbage\tnot json", { mode: 0o600 });
    fs.writeFileSync(path.join(dir, "manifest.json.tmp"), "{", { mode: 0o600 });
    await backend.start();
    expect(await bodies(backend, "cut")).toEqual(numbered(0, 60));
    expect(fs.existsSync(stray)).toBe(false);
    expect(fs.existsSync(path.join(dir, "manifest.json.tmp"))).toBe(false);
  }, 120_000);
});

describe("a damaged data directory", () => {
  test("a lost manifest or a cut segment stops the start with a clear error instead of loading less", async () => {
    backend = await startBackend({ env: { LOCAL_BACKEND_SEGMENT_DOCS: String(SEGMENT_DOCS) } });
    await backend.httpClient().mutation(api.messages.seed, { channel: "damaged", count: 40 });
    await admin(backend, "compact");
    await backend.kill();
    const dir = backend.dataDir;
    const manifest = path.join(dir, "manifest.json");
    const saved = fs.readFileSync(manifest);
    // The manifest is gone: the segments are kept and the backend refuses to start.
    fs.rmSync(manifest);
    await expect(backend.start()).rejects.toThrow();
    expect(backend.output).toMatch(/manifest\.json is missing/);
    expect(segmentFiles(dir).length).toBeGreaterThan(0);
    // Back in place: everything is there.
    fs.writeFileSync(manifest, saved, { mode: 0o600 });
    await backend.start();
    expect(await bodies(backend, "damaged")).toEqual(numbered(0, 40));
    await backend.kill();
    // A segment cut at a line boundary would load with documents missing: refused.
    const [first] = segmentFiles(dir);
    const file = path.join(dir, "segments", first);
    const lines = fs.readFileSync(file, "utf8").split("\n");
    fs.writeFileSync(file, lines.slice(0, 2).join("\n") + "\n", { mode: 0o600 });
    await expect(backend.start()).rejects.toThrow();
    expect(backend.output).toMatch(/the data directory is damaged/);
  }, 120_000);
});

describe("the data check on start", () => {
  test("documents in the segments are checked again when the schema changed, not when it is the same", async () => {
    const dir = await tempDir();
    const functionsDir = path.join(dir, "convex");
    fs.cpSync(fixtureDir, functionsDir, { recursive: true });
    backend = await startBackend({ functionsDir });
    await backend.httpClient().mutation(api.messages.seed, { channel: "schema", count: 20 });
    await admin(backend, "compact");
    await backend.restart(); // same schema: starts
    expect(await bodies(backend, "schema")).toHaveLength(20);
    await backend.stop();
    // A schema the stored messages do not satisfy: the start refuses, naming the data.
    const schemaFile = path.join(functionsDir, "schema.ts");
    const text = fs.readFileSync(schemaFile, "utf8");
    expect(text).toContain('    body: v.string(),\n  }).index("by_channel"');
    fs.writeFileSync(
      schemaFile,
      text.replace('    body: v.string(),\n  }).index("by_channel"', '    body: v.number(),\n  }).index("by_channel"'),
    );
    await expect(backend.start()).rejects.toThrow(/rejects existing data/);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 120_000);
});

describe("a data directory with one base for every table (manifest version 1)", () => {
  test("is read as it is and rewritten with a base per table on start, keeping every document", async () => {
    backend = await startBackend({ env: { LOCAL_BACKEND_SEGMENT_DOCS: String(SEGMENT_DOCS) } });
    const http = backend.httpClient();
    await http.mutation(api.messages.seed, { channel: "v1", count: 60 });
    await admin(backend, "compact");
    await http.mutation(api.messages.seed, { channel: "v1-log", count: 5 });
    await backend.kill();
    // The same segments under a version 1 manifest: one base holding every table's documents.
    const file = path.join(backend.dataDir, "manifest.json");
    const { tables, ...rest } = manifestOf(backend.dataDir);
    const base = Object.values(tables).flatMap((t) => t.base.filter((s) => s !== null));
    fs.writeFileSync(file, JSON.stringify({ ...rest, version: 1, level: 0, base }), { mode: 0o600 });
    await backend.start();
    expect(backend.output).toMatch(/Compacted the data log \(full/);
    expect(manifestOf(backend.dataDir).version).toBe(2);
    expect(await bodies(backend, "v1")).toEqual(numbered(0, 60));
    expect(await bodies(backend, "v1-log")).toEqual(numbered(0, 5));
    await backend.kill();
    await backend.start();
    expect(await bodies(backend, "v1")).toEqual(numbered(0, 60));
  }, 120_000);
});

describe("an old-format data directory (snapshot.json + log.jsonl)", () => {
  test("is migrated to segments on start, keeping every document, and stays owner-only", async () => {
    const dataDir = await tempDir();
    // As a version before the segments left it: a compacted snapshot (one JSON
    // string) and the log written since, with a patch and a delete.
    const ids = Array.from({ length: 40 }, (_, i) => `${String(10000 + i).padStart(24, "0")}messages`);
    const doc = (i: number, body = `old ${i}`) => ({
      _id: ids[i],
      _creationTime: 1700000000000 + i,
      channel: "old",
      author: "a",
      body,
    });
    const snapshot = { ts: "1700000000000000000", docs: ids.slice(0, 38).map((id, i) => [id, doc(i)]) };
    fs.writeFileSync(path.join(dataDir, "snapshot.json"), JSON.stringify(snapshot), { mode: 0o600 });
    const log = [
      { ts: "1700000000000000001", w: [[ids[38], doc(38)]] },
      {
        ts: "1700000000000000002",
        w: [
          [ids[39], doc(39)],
          [ids[0], doc(0, "patched")],
          [ids[1], null],
        ],
      },
    ];
    fs.writeFileSync(path.join(dataDir, "log.jsonl"), log.map((e) => JSON.stringify(e)).join("\n") + "\n", {
      mode: 0o600,
    });
    const expected = ["patched", ...Array.from({ length: 38 }, (_, i) => `old ${i + 2}`)];

    backend = await startBackend({ dataDir, env: { LOCAL_BACKEND_SEGMENT_DOCS: String(SEGMENT_DOCS) } });
    expect(backend.output).toMatch(/Compacted the data log \(full/);
    expect(await bodies(backend, "old")).toEqual(expected);
    const list = await backend.httpClient().query(api.messages.list, { channel: "old" });
    expect(list[0]).toEqual(doc(0, "patched"));
    // The old files are replaced by the manifest and its segments.
    expect(fs.existsSync(path.join(dataDir, "snapshot.json"))).toBe(false);
    // The log holds only what ran since (the fixture's cron ticks from deploy time on), none of the old writes.
    const logSince = fs.readFileSync(path.join(dataDir, "log.jsonl"), "utf8");
    for (const id of ids) expect(logSince).not.toContain(id);
    expect(manifestOf(dataDir).tables.messages.base.filter((s) => s !== null).length).toBeGreaterThan(1);
    // Owner-only, the new folder and files too.
    expect(fs.statSync(path.join(dataDir, "segments")).mode & 0o777).toBe(0o700);
    for (const name of ["manifest.json", ...segmentFiles(dataDir).map((f) => `segments/${f}`)]) {
      expect(fs.statSync(path.join(dataDir, name)).mode & 0o777, name).toBe(0o600);
    }
    // Old ids keep working after the migration, and new writes survive kill -9.
    await backend.httpClient().mutation(api.messages.rewrite, { id: ids[2] as Id<"messages"> });
    await backend.httpClient().mutation(api.messages.send, { channel: "old", author: "b", body: "new" });
    await backend.kill();
    await backend.start();
    expect(await bodies(backend, "old")).toEqual([...expected, "new"]);
  }, 120_000);
});
