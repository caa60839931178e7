/**
 * Issue 18 item 3, start time: how a start reads the data directory
 * (documentLoader.ts). A user table's documents stay the JSON text of their
 * segment lines until the table is first used, then all of them are parsed
 * before anything reads it; the deltas' and the log's documents come parsed;
 * the largest `_creationTime` comes from the manifest (or, from a manifest
 * written before it was recorded, from the lines' text); ids decode without
 * being encoded again. Runs in process over a real data directory.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { loadConvexTest } from "../../local-backend/src/runtime/convexTestLoader";
import {
  installDocuments,
  loadInBackground,
  readDocuments,
  readDocumentsInSlices,
  restoreDocuments,
  YIELD_TO_REQUESTS_MS,
} from "../../local-backend/src/database/documentLoader";
import { decodeId, encodeId } from "../../local-backend/src/common/ids";
import { indexedDatabaseClass } from "../../local-backend/src/database/indexedDatabase";
import { DataStore, type JsonDoc } from "../../local-backend/src/storage/store";

const schema = defineSchema({
  messages: defineTable({ body: v.string(), n: v.optional(v.int64()) }).index("by_body", ["body"]),
  others: defineTable({ body: v.string() }),
});

let Indexed: any;
beforeAll(async () => {
  Indexed = indexedDatabaseClass(await loadConvexTest());
});

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const id = (n: number, table = "messages") => `${String(n).padStart(24, "0")}${table}`;
const T0 = 1_700_000_000_000;
/** Convex JSON of a document (`n` a bigint, `$integer`-encoded). */
const json = (n: number, table = "messages", body = `body ${n}`): Record<string, unknown> => ({
  _id: id(n, table),
  _creationTime: T0 + n,
  body,
  ...(n % 10 === 0 && table === "messages"
    ? { n: { $integer: Buffer.from(new BigInt64Array([BigInt(n)]).buffer).toString("base64") } }
    : {}),
});

/**
 * A data directory whose segments hold messages 1..40 and others 1..20 (the
 * latest created last), then a log that patches message 1, deletes message 2
 * and adds message 41.
 */
function dataDirectory(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "storage-load-"));
  dirs.push(dir);
  const docs = new Map<string, JsonDoc>();
  for (let n = 1; n <= 40; n++) docs.set(id(n), json(n));
  for (let n = 1; n <= 20; n++) docs.set(id(n, "others"), { ...json(n, "others"), _creationTime: T0 - n });
  const store = new DataStore(dir);
  store.load();
  store.append({ ts: "1", w: [...docs] });
  store.compact({ get: (key) => docs.get(key) ?? null, all: () => docs, keys: () => docs.keys() }, 1n);
  store.append({
    ts: "2",
    w: [
      [id(1), json(1, "messages", "patched")],
      [id(2), null],
      [id(41), json(41)],
    ],
  });
  store.closeLog();
  return dir;
}

function restore(dir: string) {
  const db = new Indexed(schema, "");
  const store = new DataStore(dir);
  restoreDocuments(db, store.load());
  store.closeLog();
  return db;
}

function bodies(db: any, table: string): string[] {
  const query = db.startQuery({ source: { type: "FullTableScan", tableName: table, order: "asc" }, operators: [] });
  const out: string[] = [];
  for (let next = db.queryNext(query); !next.done; next = db.queryNext(query)) out.push(next.value.body);
  return out;
}

describe("a start reads user tables' documents when first used", () => {
  test("nothing of a user table is parsed until it is used, then all of it is", () => {
    const db = restore(dataDirectory());
    // The segment lines of both tables are still unread (messages 1 and 2 too, whose lines the log
    // supersedes: counted until read); the log's documents came parsed.
    expect(db.unparsedDocuments()).toBe(40 + 20);
    expect(db.documentCount()).toBe(40 + 2 + 20);
    // The start's data check reads the log's documents: that parses nothing.
    expect(db.committed(id(1)).body).toBe("patched");
    expect(db.committed(id(41)).body).toBe("body 41");
    expect(db.unparsedDocuments()).toBe(60);
    // A query reads the whole table, never part of it.
    expect(bodies(db, "messages")).toEqual(["patched", ...Array.from({ length: 39 }, (_, i) => `body ${i + 3}`)]);
    expect(db.unparsedDocuments()).toBe(20);
    expect(db.documentCount()).toBe(40 + 20);
    expect(db.committed(id(2))).toBeNull();
    // `$`-encoded values are decoded as they were stored.
    expect(db.committed(id(10)).n).toBe(10n);
    expect(db.committed(id(11)).n).toBeUndefined();
    // A read by id parses that table too.
    expect(db.committed(id(5, "others")).body).toBe("body 5");
    expect(db.unparsedDocuments()).toBe(0);
    expect(db.documentCount()).toBe(60);
  });

  test("the rest is parsed a slice at a time; a write to a table not parsed yet parses it first", () => {
    const db = restore(dataDirectory());
    db.startTransaction();
    db.insert("others", { body: "new" });
    db.commit(3n);
    expect(db.unparsedDocuments()).toBe(40);
    expect(bodies(db, "others").sort()).toEqual(
      [...Array.from({ length: 20 }, (_, i) => `body ${i + 1}`), "new"].sort(),
    );
    let slices = 0;
    while (db.loadSome(10)) slices++;
    expect(slices).toBeGreaterThanOrEqual(3);
    expect(db.unparsedDocuments()).toBe(0);
    expect(bodies(db, "messages")).toHaveLength(40);
  });

  test("new documents are created after every stored one, parsed or not", () => {
    const dir = dataDirectory();
    const manifestPath = path.join(dir, "manifest.json");
    const manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8"));
    expect(manifest.maxCreationTime).toBe(T0 + 40);
    expect(restore(dir)._lastCreationTime).toBe(T0 + 41);
    // A manifest from before the record: found in the lines' text.
    delete manifest.maxCreationTime;
    fs.writeFileSync(manifestPath, JSON.stringify(manifest));
    const db = restore(dir);
    expect(db._lastCreationTime).toBe(T0 + 41);
    expect(db.unparsedDocuments()).toBe(60);
  });
});

describe("a start reads while it awaits the bundle, and parses ahead until the database takes the tables", () => {
  const turns = async (n: number) => {
    for (let i = 0; i < n; i++) await new Promise<void>((resolve) => setImmediate(resolve));
  };

  test("read in slices, the smallest table parsed ahead first; what the database takes is whole", async () => {
    const store = new DataStore(dataDirectory());
    let parsing = true;
    const read = await readDocumentsInSlices(store.load(), () => parsing);
    store.closeLog();
    expect(read.lazy.get("messages")!.unparsed).toBe(40);
    // Ahead, a slice at a time: the others (20) before the messages (40 lines).
    for (let i = 0; i < 100 && read.lazy.get("others")!.unparsed > 0; i++) await turns(1);
    expect(read.lazy.get("others")!.unparsed).toBe(0);
    parsing = false;
    const left = read.lazy.get("messages")!.unparsed;
    await turns(5);
    expect(read.lazy.get("messages")!.unparsed).toBe(left);
    const db = new Indexed(schema, "");
    installDocuments(db, read);
    expect(db.documentCount()).toBe(40 + 2 + 20); // messages 1 and 2 counted twice until read
    expect(bodies(db, "messages")).toHaveLength(40);
    expect(db.documentCount()).toBe(60);
    expect(bodies(db, "others")).toHaveLength(20);
    expect(bodies(db, "messages")).toEqual(["patched", ...Array.from({ length: 39 }, (_, i) => `body ${i + 3}`)]);
    expect(db.committed(id(10)).n).toBe(10n);
    expect(db.unparsedDocuments()).toBe(0);
  });

  test("a table parsed partly ahead is parsed whole before a query reads it; the rest loads smallest first", () => {
    const store = new DataStore(dataDirectory());
    const read = readDocuments(store.load());
    store.closeLog();
    read.lazy.get("messages")!.drain(7);
    const db = new Indexed(schema, "");
    installDocuments(db, read);
    expect(db.unparsedDocuments()).toBe(40 - 7 + 20);
    // Background loading: the smaller table first, whole, before the larger one starts.
    expect(db.loadSome(20)).toBe(true);
    expect(db.unparsedDocuments()).toBe(40 - 7);
    const all = bodies(db, "messages");
    expect(all).toHaveLength(40);
    expect(new Set(all).size).toBe(40);
    expect(db.unparsedDocuments()).toBe(0);
  });
});

describe("background loading makes way for requests", () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  /** Loads `db` in the background with `busy`; resolves with the milliseconds until it was done. */
  const load = (db: any, busy: () => boolean) =>
    new Promise<number>((resolve) => {
      const started = performance.now();
      loadInBackground(
        db,
        () => false,
        () => resolve(performance.now() - started),
        busy,
      );
    });

  test("nothing is parsed in the background while a request is served; the rest once none is", async () => {
    const db = restore(dataDirectory());
    let busy = true;
    const done = load(db, () => busy);
    await sleep(100);
    expect(db.unparsedDocuments()).toBe(60);
    busy = false;
    await done;
    expect(db.unparsedDocuments()).toBe(0);
    expect(bodies(db, "messages")).toHaveLength(40);
  });

  test("requests that never stop delay it by at most YIELD_TO_REQUESTS_MS at a time", async () => {
    const db = restore(dataDirectory());
    const ms = await load(db, () => true);
    expect(ms).toBeGreaterThanOrEqual(YIELD_TO_REQUESTS_MS - 10);
    expect(ms).toBeLessThan(YIELD_TO_REQUESTS_MS * 3);
    expect(db.unparsedDocuments()).toBe(0);
  });
});

describe("ids", () => {
  test("decode as Convex does: only the canonical spelling of a valid id", () => {
    for (let i = 0; i < 200; i++) {
      const table = 1 + ((i * 7919) % 20000);
      const internal = randomBytes(16);
      const encoded = encodeId(table, internal);
      const decoded = decodeId(encoded);
      expect(decoded?.tableNumber).toBe(table);
      expect(Buffer.from(decoded!.internalId).equals(internal)).toBe(true);
    }
    const good = encodeId(10001, randomBytes(16));
    expect(decodeId(good.toUpperCase())).toBeNull();
    expect(decodeId(good.slice(0, -1))).toBeNull();
    expect(decodeId(good + "0")).toBeNull();
    // The last character carries padding bits: any other value with the same bytes is not canonical.
    const alphabet = "0123456789abcdefghjkmnpqrstvwxyz";
    const last = alphabet.indexOf(good.at(-1)!);
    const padded = good.slice(0, -1) + alphabet[last ^ 1];
    expect(decodeId(padded)).toBeNull();
    // A changed byte fails the checksum.
    const flipped = alphabet[(alphabet.indexOf(good[10]) + 1) % 32];
    expect(decodeId(good.slice(0, 10) + flipped + good.slice(11))).toBeNull();
    expect(decodeId("")).toBeNull();
    expect(decodeId("0000000000000000000000000messages")).toBeNull();
  });
});
