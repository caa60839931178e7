/**
 * The snapshot import reads its file a chunk at a time: the reader cuts each
 * document, stored file and top-level value out of the bytes wherever the
 * chunks split them, refuses what is not a snapshot, and holds one chunk plus
 * one value; the CLI imports a snapshot several times larger than its heap.
 */
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { rm } from "node:fs/promises";
import { afterAll, describe, expect, test } from "vitest";
import { encodeId } from "../../local-backend/src/common/ids";
import {
  MAX_DOCUMENT_JSON_BYTES,
  type SnapshotPart,
  type SnapshotReadStats,
  snapshotParts,
} from "../../local-backend/src/engine/snapshotStream";
import { fixtureDir, runCli, tempDir } from "./harnessProcesses";
import { startBackend } from "./harness";
import { api } from "./fixture/convex/_generated/api";
import type { Id } from "./fixture/convex/_generated/dataModel";

const cleanup: string[] = [];
afterAll(async () => {
  await Promise.all(cleanup.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function* chunked(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function readParts(text: string, chunkSize: number): Promise<SnapshotPart[]> {
  const parts: SnapshotPart[] = [];
  for await (const batch of snapshotParts(chunked(Buffer.from(text, "utf8"), chunkSize))) parts.push(...batch);
  return parts;
}

/** What JSON.parse makes of a snapshot, as the reader's parts. */
function expectedParts(text: string): SnapshotPart[] {
  const parts: SnapshotPart[] = [];
  for (const [key, value] of Object.entries(JSON.parse(text) as Record<string, unknown>)) {
    if (key === "tables") {
      parts.push({ kind: "tables" });
      for (const [table, docs] of Object.entries(value as Record<string, unknown[]>)) {
        for (const json of docs) parts.push({ kind: "doc", table, json });
      }
    } else if (key === "files") {
      for (const [id, file] of Object.entries(value as Record<string, unknown>))
        parts.push({ kind: "file", id, value: file });
    } else parts.push({ kind: "top", key, value });
  }
  return parts;
}

describe("snapshot reader", () => {
  // Strings with quotes, backslashes, brackets and multi-byte characters, split at every byte.
  const tricky = JSON.stringify(
    {
      format: "stagetime-local-backend-snapshot",
      version: 1,
      ts: "1234",
      tableNumbers: { messages: 10001, 'odd"name': 10002 },
      tables: {
        messages: [
          { _id: "a", _creationTime: 1.5, body: 'say "hi" \\ {not} [an] array, really: ', n: -12.5e3, ok: true },
          { _id: "b", _creationTime: 2, body: "émoji 🎤 — naïve ünïcode", nested: { deep: [[1, [2, { x: null }]]] } },
          null,
          { _id: "c", _creationTime: 3, body: "\u0000\u001f\n\t", empty: {}, list: [] },
        ],
        empty: [],
        'odd"name': [{ _id: "d", _creationTime: 4, v: false }],
      },
      files: { s1: { base64: "aGVsbG8=", contentType: "text/plain" }, "s\\2": { base64: "" } },
      components: { counter: { counters: [{ _id: "x", name: "n", value: 3 }] } },
    },
    null,
    1,
  );

  test.each([1, 2, 3, 7, 64, 1 << 20])("gives every part JSON.parse sees, read %i bytes at a time", async (size) => {
    expect(await readParts(tricky, size)).toEqual(expectedParts(tricky));
  });

  test("refuses what is not JSON or not a snapshot, saying where", async () => {
    const cases: [string, RegExp][] = [
      ["", /Not a snapshot: missing `tables`/],
      ["[]", /Not a snapshot: missing `tables`/],
      ['{"tables":[]}', /Not a snapshot: missing `tables`/],
      ['{"tables":{"a":{}}}', /Snapshot table "a" must be an array of documents/],
      ['{"tables":{"a":[{"_id":1},]}}', /not valid JSON: .* at byte 26/],
      ['{"tables":{"a":[{"_id":1}}}', /not valid JSON: expected "," or the end, found "}" at byte 25/],
      ['{"tables":{"a":[{"_id":1}]}', /not valid JSON: unexpected end at byte 27/],
      ['{"tables":{"a":[{"_id":tru}]}}', /not valid JSON/],
      ['{"tables":{}} x', /not valid JSON: more after the snapshot's end at byte 14/],
      ["{tables:{}}", /not valid JSON: expected a key/],
      ['{"version":1', /not valid JSON: unexpected end/],
    ];
    for (const [text, error] of cases) {
      for (const size of [1, 1 << 20]) {
        await expect(readParts(text, size), `${text} by ${size}`).rejects.toThrow(error);
      }
    }
  });

  test("refuses a document of more JSON than any Convex document takes", async () => {
    const big = `{"tables":{"a":[{"_id":"x","s":"${"y".repeat(MAX_DOCUMENT_JSON_BYTES)}"}]}}`;
    await expect(readParts(big, 1 << 20)).rejects.toThrow(/a value of more than 16 MiB of JSON \(from byte 16\)/);
  });

  test("holds one chunk and one document, however many megabytes the snapshot has", async () => {
    // 40 MB of documents made as they are read: the test never holds the snapshot either.
    const docs = 40_000;
    const body = "z".repeat(1000);
    async function* generated(): AsyncGenerator<Buffer> {
      yield Buffer.from('{"tableNumbers":{},"tables":{"notes":[');
      for (let i = 0; i < docs; i += 100) {
        const batch = [];
        for (let k = i; k < i + 100; k++) batch.push(JSON.stringify({ _id: `n${k}`, _creationTime: k, body }));
        yield Buffer.from((i > 0 ? "," : "") + batch.join(","));
      }
      yield Buffer.from("]}}");
    }
    const stats: SnapshotReadStats = { bytes: 0, peakHeldBytes: 0 };
    let count = 0;
    for await (const batch of snapshotParts(generated(), stats)) count += batch.filter((p) => p.kind === "doc").length;
    expect(count).toBe(docs);
    expect(stats.bytes).toBeGreaterThan(40_000_000);
    // A generated chunk is 100 documents (~104 KB); a document split between two chunks is carried over.
    expect(stats.peakHeldBytes).toBeLessThan(2 * 105_000);
  });
});

/** Runs the CLI under a V8 heap of `heapMiB` (old space). */
async function cliWithHeap(heapMiB: number, args: string[]) {
  return await runCli(args, { timeoutMs: 120_000, demoAccounts: false, nodeArgs: [`--max-old-space-size=${heapMiB}`] });
}

/**
 * Writes a snapshot of twelve stored files of 4 MiB: 64 MB of base64, more than a heap of
 * 48 MiB (the CLI) or 64 MiB (the backend) holds as one string, let alone parses. Returns their ids.
 */
function writeFilesSnapshot(file: string): string[] {
  const out = fs.openSync(file, "w");
  const ids: string[] = [];
  fs.writeSync(
    out,
    '{"format":"stagetime-local-backend-snapshot","version":1,"tableNumbers":{"_storage":9077},"tables":{"_storage":[',
  );
  const files: [string, Buffer][] = [];
  for (let i = 0; i < 12; i++) {
    const bytes = randomBytes(4 << 20);
    const id = encodeId(9077, randomBytes(16));
    const sha256 = createHash("sha256").update(bytes).digest("base64");
    fs.writeSync(
      out,
      (i > 0 ? "," : "") +
        JSON.stringify({
          _id: id,
          _creationTime: 1000 + i,
          sha256,
          size: bytes.length,
          contentType: "application/octet-stream",
        }),
    );
    ids.push(id);
    files.push([id, bytes]);
  }
  fs.writeSync(out, ']},"files":{');
  files.forEach(([id, bytes], i) => {
    fs.writeSync(out, `${i > 0 ? "," : ""}${JSON.stringify(id)}:{"contentType":"application/octet-stream","base64":"`);
    fs.writeSync(out, bytes.toString("base64"));
    fs.writeSync(out, '"}');
  });
  files.length = 0;
  fs.writeSync(out, "}}\n");
  fs.closeSync(out);
  return ids;
}

describe("CLI import", () => {
  test("imports a snapshot larger than its heap, and the first start has no import to replay", async () => {
    const dir = await tempDir("stagetime-stream-import-");
    cleanup.push(dir);
    const file = path.join(dir, "snapshot.json");
    const ids = writeFilesSnapshot(file);
    expect(fs.statSync(file).size).toBeGreaterThan(64_000_000);

    const dataDir = path.join(dir, "data");
    const imported = await cliWithHeap(48, ["import", file, "--data-dir", dataDir, "--functions", fixtureDir]);
    expect(imported.code, `${imported.stdout}\n${imported.stderr}`).toBe(0);
    expect(imported.stdout).toContain("Imported 12 documents and 12 files");
    // Compacted into the segments before the CLI exits: a start reads them, with no log to replay.
    expect(fs.statSync(path.join(dataDir, "log.jsonl")).size).toBe(0);
    const got = await runCli(
      ["run", "files:get", JSON.stringify({ storageId: ids[3] }), "--data-dir", dataDir, "--functions", fixtureDir],
      { timeoutMs: 120_000 },
    );
    expect(got.code, got.stderr).toBe(0);
    expect(JSON.parse(got.stdout)).toMatchObject({ size: 4 << 20, contentType: "application/octet-stream" });
  }, 240_000);

  test("against a running backend, neither the CLI nor the backend holds the snapshot whole", async () => {
    const dir = await tempDir("stagetime-stream-import-running-");
    cleanup.push(dir);
    const file = path.join(dir, "snapshot.json");
    const ids = writeFilesSnapshot(file);
    const backend = await startBackend({ nodeArgs: ["--max-old-space-size=64"] });
    try {
      const imported = await cliWithHeap(48, ["import", file, "--data-dir", backend.dataDir]);
      expect(imported.code, `${imported.stdout}\n${imported.stderr}`).toBe(0);
      expect(imported.stdout).toContain("Imported 12 documents and 12 files");
      const got = await backend.httpClient().query(api.files.get, { storageId: ids[5] as Id<"_storage"> });
      expect(got).toMatchObject({ size: 4 << 20, contentType: "application/octet-stream" });
      // The body went through a temporary file, removed once imported.
      expect(fs.readdirSync(backend.dataDir).filter((name) => name.startsWith("import-"))).toEqual([]);
    } finally {
      await backend.dispose();
    }
  }, 240_000);
});
