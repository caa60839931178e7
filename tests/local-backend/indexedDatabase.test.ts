/**
 * Differential test of the local backend's IndexedDatabase against stock
 * convex-test DatabaseFake (the same loaded module, unpatched class): the same
 * random inserts, patches, replaces, deletes, nested transactions and
 * rollbacks go to both, and every index query, full table scan and pagination
 * (random ranges, orders, filters, limits, cursors, end cursors, read limits)
 * must give identical results, errors included. Runs in process.
 */
import { defineSchema, defineTable } from "convex/server";
import { convexToJson, v } from "convex/values";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadConvexTest } from "../../local-backend/src/runtime/convexTestLoader";
import { indexedDatabaseClass } from "../../local-backend/src/database/indexedDatabase";

const schema = defineSchema({
  items: defineTable({
    a: v.number(),
    b: v.optional(v.string()),
    c: v.optional(v.union(v.number(), v.null())),
    tag: v.string(),
    nested: v.optional(v.object({ x: v.number() })),
  })
    .index("by_a", ["a"])
    .index("by_a_b", ["a", "b"])
    .index("by_tag_c", ["tag", "c"])
    .index("by_nested_x", ["nested.x"]),
  others: defineTable({ a: v.number(), tag: v.string() }).index("by_a", ["a"]),
});

/** A small seeded PRNG (mulberry32), so a failure can be replayed by its seed. */
function rng(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];
  return { next, int, pick, chance: (p: number) => next() < p };
}
type Rng = ReturnType<typeof rng>;

const A = [0, 1, 2, 3, 4];
const B = [undefined, "", "x", "y", "z", "é", "\u{1F600}"];
const C = [undefined, null, -1, 0, 1.5, 2];
const TAGS = ["p", "q"];

function randomItem(r: Rng): Record<string, unknown> {
  const doc: Record<string, unknown> = { a: r.pick(A), tag: r.pick(TAGS) };
  const b = r.pick(B);
  if (b !== undefined) doc.b = b;
  const c = r.pick(C);
  if (c !== undefined) doc.c = c;
  if (r.chance(0.6)) doc.nested = { x: r.pick(A) };
  return doc;
}

/** A patch as the syscall passes it: JSON values, `{$undefined: null}` removes a field. */
function randomPatch(r: Rng): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  const u = { $undefined: null };
  if (r.chance(0.5)) patch.a = r.pick(A);
  if (r.chance(0.4)) patch.b = r.pick(B) ?? u;
  if (r.chance(0.4)) patch.c = r.pick(C) ?? u;
  if (r.chance(0.3)) patch.tag = r.pick(TAGS);
  if (r.chance(0.2)) patch.nested = r.chance(0.5) ? { x: r.pick(A) } : u;
  return patch;
}

const json = (value: unknown) => (value === undefined ? { $undefined: null } : convexToJson(value as any));

const INDEXES: Record<string, string[]> = {
  "items.by_a": ["a"],
  "items.by_a_b": ["a", "b"],
  "items.by_tag_c": ["tag", "c"],
  "items.by_nested_x": ["nested.x"],
  "items.by_creation_time": ["_creationTime"],
  "items.by_id": ["_id"],
  "others.by_a": ["a"],
};
const DOMAIN: Record<string, readonly unknown[]> = { a: A, b: B, c: C, tag: TAGS, "nested.x": A };

function randomSource(r: Rng, ids: string[], times: number[]): any {
  const order = r.pick(["asc", "desc"] as const);
  if (r.chance(0.1)) return { type: "FullTableScan", tableName: r.pick(["items", "others"]), order };
  const indexName = r.pick(Object.keys(INDEXES));
  const fields = INDEXES[indexName];
  const domain = (field: string) =>
    field === "_id"
      ? ids.length
        ? ids
        : ["10000items"]
      : field === "_creationTime"
        ? times.length
          ? times
          : [0]
        : DOMAIN[field];
  const range: any[] = [];
  const eqCount = r.int(fields.length + 1);
  for (let i = 0; i < eqCount; i++)
    range.push({ type: "Eq", fieldPath: fields[i], value: json(r.pick(domain(fields[i]))) });
  if (eqCount < fields.length) {
    const field = fields[eqCount];
    const lower = r.chance(0.5)
      ? { type: r.pick(["Gt", "Gte"]), fieldPath: field, value: json(r.pick(domain(field))) }
      : null;
    const upper = r.chance(0.5)
      ? { type: r.pick(["Lt", "Lte"]), fieldPath: field, value: json(r.pick(domain(field))) }
      : null;
    const bounds = [lower, upper].filter(Boolean);
    if (r.chance(0.5)) bounds.reverse();
    range.push(...bounds);
  }
  // Now and then an invalid range: both must fail the same way.
  if (r.chance(0.03)) range.reverse();
  if (r.chance(0.02)) return { type: "IndexRange", indexName: "items.no_such_index", range: [], order };
  return { type: "IndexRange", indexName, range, order };
}

function randomOperators(r: Rng): any[] {
  const operators: any[] = [];
  if (r.chance(0.3)) {
    const filter = r.pick([
      { $gt: [{ $field: "c" }, { $literal: 0 }] },
      { $eq: [{ $field: "tag" }, { $literal: "p" }] },
      { $neq: [{ $field: "b" }, { $literal: "x" }] },
      { $or: [{ $eq: [{ $field: "a" }, { $literal: 1 }] }, { $lt: [{ $field: "a" }, { $literal: 1 }] }] },
    ]);
    operators.push({ filter });
  }
  if (r.chance(0.4)) operators.push({ limit: r.int(6) });
  return operators;
}

/** Runs `fn` on a database; the result, or the error's message. */
function outcome(fn: () => unknown): string {
  try {
    return JSON.stringify(convexToJson(fn() as any));
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

function drain(db: any, query: any): unknown[] {
  const id = db.startQuery(query);
  const out: unknown[] = [];
  for (;;) {
    const { value, done } = db.queryNext(id);
    if (done) return out;
    out.push(value);
  }
}

let ct: any;
let realNow: () => number;

beforeAll(async () => {
  ct = await loadConvexTest();
  realNow = Date.now;
  // Both databases stamp _creationTime from the clock: freeze it so they agree
  // (creation times still increase, by 0.001 per insert).
  Date.now = () => 1_700_000_000_000;
});

afterAll(() => {
  Date.now = realNow;
});

/** One seeded run: `steps` random steps applied to both databases, compared. */
function differential(seed: number, steps: number, chunkLoad: number): { queries: number; pages: number } {
  const Indexed: any = indexedDatabaseClass(ct);
  const SmallChunks: any = class extends Indexed {
    static chunkLoad = chunkLoad;
  };
  const stock = new ct.DatabaseFake(schema, "");
  const indexed = new SmallChunks(schema, "");
  // Compared on query semantics, not on id minting: both mint convex-test's
  // counter ids here (the backend's random Convex ids are tested in ids.test.ts).
  indexed._generateId = (table: string) => ct.DatabaseFake.prototype._generateId.call(indexed, table);
  const both = (fn: (db: any) => unknown, what: string) => {
    const expected = outcome(() => fn(stock));
    const actual = outcome(() => fn(indexed));
    if (actual !== expected) {
      throw new Error(`seed ${seed}: ${what}\nstock:   ${expected.slice(0, 2000)}\nindexed: ${actual.slice(0, 2000)}`);
    }
    return expected;
  };
  const r = rng(seed);
  let depth = 0;
  let ts = 1n;
  let queries = 0;
  let pages = 0;
  const liveIds = (): string[] => {
    const out: string[] = [];
    stock._iterateDocs("items", (doc: any) => out.push(doc._id));
    stock._iterateDocs("others", (doc: any) => out.push(doc._id));
    return out;
  };
  const creationTimes = (): number[] => {
    const out: number[] = [];
    stock._iterateDocs("items", (doc: any) => out.push(doc._creationTime));
    return out;
  };
  for (let step = 0; step < steps; step++) {
    const roll = r.next();
    if (depth === 0 || (roll < 0.05 && depth < 3)) {
      both((db) => db.startTransaction(), "startTransaction");
      depth++;
      continue;
    }
    if (roll < 0.1) {
      // Commit or roll back the innermost level.
      if (r.chance(0.8)) {
        const commitTs = depth === 1 ? ts++ : null;
        both((db) => db.commit(commitTs), "commit");
      } else {
        both((db) => db.rollbackWrites(), "rollback");
      }
      depth--;
      continue;
    }
    const ids = liveIds();
    if (roll < 0.45) {
      const table = r.chance(0.85) ? "items" : "others";
      const value = table === "items" ? randomItem(r) : { a: r.pick(A), tag: r.pick(TAGS) };
      both((db) => db.insert(table, { ...value }), `insert ${JSON.stringify(value)}`);
    } else if (roll < 0.58 && ids.length) {
      const id = r.pick(ids);
      const patch = id.endsWith("others") ? { a: r.pick(A) } : randomPatch(r);
      both((db) => db.patch(undefined, id, structuredClone(patch)), `patch ${id} ${JSON.stringify(patch)}`);
    } else if (roll < 0.62 && ids.length) {
      const id = r.pick(ids.filter((i) => i.endsWith("items")).concat(ids[0]));
      const value = id.endsWith("items") ? (convexToJson(randomItem(r) as any) as object) : { a: 1, tag: "p" };
      both((db) => db.replace(undefined, id, structuredClone(value)), `replace ${id}`);
    } else if (roll < 0.7 && ids.length) {
      const id = r.pick(ids);
      both((db) => db.delete(undefined, id), `delete ${id}`);
    } else if (roll < 0.72 && ids.length) {
      const id = r.pick(ids);
      both((db) => db.get(undefined, id), `get ${id}`);
    } else if (roll < 0.86) {
      const query = { source: randomSource(r, ids, creationTimes()), operators: randomOperators(r) };
      both((db) => drain(db, query), `query ${JSON.stringify(query)}`);
      queries++;
    } else {
      // Page through a range, with writes between pages and now and then a page
      // fetched again up to its pinned end (as a subscription re-runs it).
      const query = {
        source: randomSource(r, ids, creationTimes()),
        operators: r.chance(0.3) ? randomOperators(r).filter((op) => "filter" in op) : [],
      };
      let cursor: string | null = r.chance(0.05) ? "_end_cursor" : null;
      for (let guard = 0; guard < 40; guard++) {
        const pageSize = 1 + r.int(4);
        const maximumRowsRead = r.chance(0.15) ? 1 + r.int(4) : undefined;
        const args = { query, cursor, pageSize, maximumRowsRead };
        const result = both((db) => db.paginate(args), `paginate ${JSON.stringify(args)}`);
        pages++;
        if (result.startsWith("error")) break;
        const page = JSON.parse(result);
        if (r.chance(0.3)) {
          const again = { query, cursor, endCursor: page.continueCursor, pageSize };
          both((db) => db.paginate(again), `paginate with end ${JSON.stringify(again)}`);
          pages++;
        }
        if (page.isDone) break;
        if (r.chance(0.3)) {
          const live = liveIds();
          if (live.length && r.chance(0.5)) {
            const id = r.pick(live);
            both((db) => db.delete(undefined, id), `delete between pages ${id}`);
          } else if (live.length) {
            const id = r.pick(live);
            const patch = id.endsWith("others") ? { a: r.pick(A) } : randomPatch(r);
            both((db) => db.patch(undefined, id, structuredClone(patch)), `patch between pages ${id}`);
          } else {
            both((db) => db.insert("items", randomItem(r)), "insert between pages");
          }
        }
        cursor = page.continueCursor;
      }
    }
  }
  while (depth > 0) {
    both((db) => db.commit(depth === 1 ? ts++ : null), "final commit");
    depth--;
  }
  // After everything, each index and the table scans still agree on the whole table.
  for (const indexName of Object.keys(INDEXES)) {
    for (const order of ["asc", "desc"]) {
      const query = { source: { type: "IndexRange", indexName, range: [], order }, operators: [] };
      both((db) => drain(db, query), `final ${indexName} ${order}`);
    }
  }
  return { queries, pages };
}

describe("IndexedDatabase matches stock convex-test DatabaseFake", () => {
  test("random writes, transactions, index queries and pagination (tiny index chunks)", () => {
    let queries = 0;
    let pages = 0;
    for (let seed = 1; seed <= 8; seed++) {
      const run = differential(seed, 1200, 3);
      queries += run.queries;
      pages += run.pages;
    }
    expect(queries).toBeGreaterThan(600);
    expect(pages).toBeGreaterThan(600);
    // 10 s on a quiet machine; over 100 s when the 2 cores are shared with other runs.
  }, 600_000);

  test("the same with the default chunk size and a larger table", () => {
    const run = differential(101, 4000, 512);
    expect(run.queries).toBeGreaterThan(300);
  }, 600_000);

  test("an index range query reads its own table, in index order", () => {
    const Indexed = indexedDatabaseClass(ct);
    const db = new Indexed(schema, "");
    db.startTransaction();
    for (let i = 0; i < 2000; i++) db.insert("items", { a: i % 5, tag: i % 2 ? "p" : "q", c: i });
    for (let i = 0; i < 50; i++) db.insert("others", { a: i, tag: "p" });
    db.commit(1n);
    const reads: string[] = [];
    db.onRead = (table: string) => reads.push(table);
    const range = [
      { type: "Eq", fieldPath: "tag", value: "p" },
      { type: "Gte", fieldPath: "c", value: 100 },
      { type: "Lt", fieldPath: "c", value: 120 },
    ];
    const result = drain(db, {
      source: { type: "IndexRange", indexName: "items.by_tag_c", range, order: "desc" },
      operators: [],
    });
    expect(result.map((d: any) => d.c)).toEqual([119, 117, 115, 113, 111, 109, 107, 105, 103, 101]);
    expect(reads).toEqual(["items"]);
    expect(
      drain(db, { source: { type: "FullTableScan", tableName: "others", order: "asc" }, operators: [] }),
    ).toHaveLength(50);
  });
});
