/**
 * Issue 18 item 3, start time: how a start reads segment files (segments.ts,
 * store.ts, documentLoader.ts). A segment is read a chunk of whole lines at a
 * time (ASCII chunks decoded as Latin-1, others as UTF-8), a line longer than
 * a chunk included; a start keeps where each user document's JSON text is in
 * its chunk, not a string per document, and keys what it parses by the line's
 * key. Runs in process over real files.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { loadConvexTest } from "../../local-backend/src/runtime/convexTestLoader";
import { readDocuments, restoreDocuments } from "../../local-backend/src/database/documentLoader";
import {
  currentTableNumbers,
  encodeId,
  isRefusedLegacyId,
  setCurrentTableNumbers,
  storedIdTable,
  tableNameFromId,
  TableNumbers,
} from "../../local-backend/src/common/ids";
import { eachSegmentLine, segmentChunks, segmentLines } from "../../local-backend/src/storage/segments";
import { DataStore, type JsonDoc } from "../../local-backend/src/storage/store";
import { indexedDatabaseClass } from "../../local-backend/src/database/indexedDatabase";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "segment-reading-"));
  dirs.push(dir);
  return dir;
};

/** Lines of every kind a chunk boundary can cut: ASCII, two- to four-byte characters, one longer than a chunk. */
function lines(): string[] {
  const out: string[] = [];
  for (let n = 0; n < 6000; n++) {
    const body = n % 7 === 0 ? `é ${n} \u{1F600} ${"x".repeat(n % 300)}` : `plain ${n} ${"y".repeat(n % 500)}`;
    out.push(`key${n}\t{"body":${JSON.stringify(body)}}`);
  }
  out.splice(3000, 0, `long\t{"body":"${"z".repeat(1.5 * 2 ** 20)}\u00e9"}`);
  return out;
}

describe("segment files are read a chunk of whole lines at a time", () => {
  test("every line comes back as written, across chunk boundaries, whatever its characters or length", () => {
    const file = path.join(tempDir(), "1.seg");
    const written = lines();
    fs.writeFileSync(file, written.join("\n") + "\n");
    expect([...segmentLines(file)]).toEqual(written);
    // The chunks end with a newline; their keys and texts are the lines'.
    const fromChunks: string[] = [];
    let chunks = 0;
    for (const text of segmentChunks(file)) {
      chunks++;
      expect(text.endsWith("\n")).toBe(true);
      eachSegmentLine(text, (key, start, end) => fromChunks.push(`${key}\t${text.slice(start, end)}`));
    }
    expect(chunks).toBeGreaterThan(2);
    expect(fromChunks).toEqual(written);
  });

  test("a file cut mid-line gives its whole lines, then an error; a line without a key is an error", () => {
    const file = path.join(tempDir(), "2.seg");
    fs.writeFileSync(file, "a\t{}\nb\t{}\nc\t{");
    const seen: string[] = [];
    expect(() => {
      for (const line of segmentLines(file)) seen.push(line);
    }).toThrow(/ends without a newline/);
    expect(seen).toEqual(["a\t{}", "b\t{}"]);
    expect(() => eachSegmentLine("a\t{}\nno key\n", () => undefined)).toThrow(/without a key/);
  });
});

describe("a start reads the segments' documents by position", () => {
  const schema = defineSchema({ messages: defineTable({ body: v.string() }) });
  let Indexed: any;
  beforeAll(async () => {
    Indexed = indexedDatabaseClass(await loadConvexTest());
  });
  const id = (n: number) => `${String(n).padStart(24, "0")}messages`;

  /** A data directory whose segments hold `docs` (compacted), and no log. */
  function compacted(docs: Map<string, JsonDoc>): string {
    const dir = tempDir();
    const store = new DataStore(dir);
    store.load();
    store.append({ ts: "1", w: [...docs] });
    store.compact({ get: (key) => docs.get(key) ?? null, all: () => docs, keys: () => docs.keys() }, 1n);
    store.closeLog();
    return dir;
  }

  test("documents with any characters, one larger than a chunk, parse as stored, keyed by their line's key", () => {
    const docs = new Map<string, JsonDoc>();
    for (let n = 1; n <= 300; n++) {
      const body = n === 150 ? "w".repeat(1.5 * 2 ** 20) : n % 3 === 0 ? `é\t\n"\\ ${n} \u{1F600}` : `body ${n}`;
      docs.set(id(n), { _id: id(n), _creationTime: n, body });
    }
    // A document whose `_id` is not its key (never written so): still found by the key it was stored under.
    docs.set(id(301), { _id: "someone else", _creationTime: 301, body: "odd" });
    const dir = compacted(docs);
    const store = new DataStore(dir);
    const read = readDocuments(store.load());
    store.closeLog();
    // Not read yet: the table's own segment files are read when it is first used.
    expect(read.lazy.get("messages")!.unparsed).toBe(301);
    expect(read.chunks).toHaveLength(0);
    const db = new Indexed(schema, "");
    restoreDocuments(db, new DataStore(dir).load());
    for (const [key, doc] of docs) expect(db.committed(key)).toEqual(doc);
    expect(db.unparsedDocuments()).toBe(0);
    expect([...db.tableDocuments("messages").keys()].sort()).toEqual([...docs.keys()].sort());
  });
});

describe("a stored key's table, as a start reads it", () => {
  test("is isRefusedLegacyId and tableNameFromId in one, whatever the data directory's table numbers", () => {
    const saved = currentTableNumbers();
    try {
      for (const numbers of [
        { messages: 10001, authSessions: 10002 },
        { messages: 5, authSessions: 10002 },
      ]) {
        const dir = tempDir();
        fs.writeFileSync(path.join(dir, "tables.json"), JSON.stringify(numbers));
        setCurrentTableNumbers(new TableNumbers(dir));
        const ids = [
          "0000000000000000010000messages",
          "0000000000000000010000sceneItems",
          "12authSessions",
          "12authRefreshTokens",
          "000123",
          "messages",
          "",
          "1",
          encodeId(numbers.messages, new Uint8Array(16).fill(7)),
          encodeId(10002, new Uint8Array(16).fill(1)),
          encodeId(777, new Uint8Array(16).fill(2)),
        ];
        for (let round = 0; round < 2; round++) {
          for (const id of ids) {
            expect(storedIdTable(id), id).toBe(isRefusedLegacyId(id) ? false : tableNameFromId(id));
          }
        }
        expect(storedIdTable("0000000000000000010000sceneItems")).toBe("sceneItems");
        expect(storedIdTable("12authSessions")).toBe(false);
      }
    } finally {
      setCurrentTableNumbers(saved);
    }
  });
});
