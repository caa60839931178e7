/**
 * Full-text search in the local backend's IndexedDatabase (in process): results
 * by relevance (documents matching every term first), whole terms but a prefix
 * last term, filter fields, read-your-own-writes, paging without repeats,
 * commits keeping the inverted index current, the 1024-result limit, and a
 * random comparison with a brute-force reading of the same rules.
 */
import { defineSchema, defineTable } from "convex/server";
import { convexToJson, v } from "convex/values";
import { beforeAll, describe, expect, test } from "vitest";
import { loadConvexTest } from "../../local-backend/src/convexTestLoader";
import { indexedDatabaseClass } from "../../local-backend/src/indexedDatabase";
import { parseSearchQuery, tokenize } from "../../local-backend/src/searchIndex";

const schema = defineSchema({
  items: defineTable({ body: v.string(), kind: v.string(), n: v.number() })
    .index("by_n", ["n"])
    .searchIndex("search_body", { searchField: "body", filterFields: ["kind"] }),
});

let Indexed: any;

beforeAll(async () => {
  Indexed = indexedDatabaseClass(await loadConvexTest());
});

let ts = 1n;

function fresh(bodies: (string | [string, string])[] = []): any {
  const db = new Indexed(schema, "");
  if (bodies.length) {
    db.startTransaction();
    bodies.forEach((b, n) => {
      const [body, kind] = typeof b === "string" ? [b, "a"] : b;
      db.insert("items", { body, kind, n });
    });
    db.commit(ts++);
  }
  return db;
}

function searchQuery(text: string, opts: { kind?: string; limit?: number } = {}): any {
  const filters: any[] = [{ type: "Search", fieldPath: "body", value: text }];
  if (opts.kind !== undefined) filters.push({ type: "Eq", fieldPath: "kind", value: convexToJson(opts.kind) });
  return {
    source: { type: "Search", indexName: "items.search_body", filters },
    operators: opts.limit === undefined ? [] : [{ limit: opts.limit }],
  };
}

function collect(db: any, query: any): any[] {
  const id = db.startQuery(query);
  const out: any[] = [];
  for (;;) {
    const { value, done } = db.queryNext(id);
    if (done) return out;
    out.push(value);
  }
}

const bodies = (docs: any[]) => docs.map((d) => d.body);

function allPages(db: any, query: any, pageSize: number): { docs: any[]; pages: number } {
  const docs: any[] = [];
  let cursor: string | null = null;
  let pages = 0;
  for (;;) {
    const result: any = db.paginate({ query, cursor, pageSize });
    pages++;
    docs.push(...result.page);
    if (result.isDone) return { docs, pages };
    expect(result.page.length).toBe(pageSize);
    cursor = result.continueCursor;
    if (pages > 10_000) throw new Error("no end");
  }
}

describe("tokens and query terms", () => {
  test("split on non-letters/digits, lower-cased; the last term is the prefix term", () => {
    expect(tokenize("The Laugh-Factory, O'Brien's  #42 Café")).toEqual([
      "the",
      "laugh",
      "factory",
      "o",
      "brien",
      "s",
      "42",
      "café",
    ]);
    expect(parseSearchQuery("Laugh  FACTORY chi")).toEqual({ whole: ["laugh", "factory"], prefix: "chi" });
    expect(parseSearchQuery("fun fun")).toEqual({ whole: [], prefix: "fun" });
    expect(parseSearchQuery("  ...  ")).toEqual({ whole: [], prefix: null });
  });
});

describe("search ranking", () => {
  test("documents matching every term come before documents matching one, whatever their insertion order", () => {
    const filler: string[] = [];
    for (let i = 0; i < 40; i++) filler.push(i % 2 ? `laugh track ${i}` : `factory outlet ${i}`);
    const db = fresh([...filler, "Laugh Factory Chicago", "the laugh factory downtown"]);
    const results = collect(db, searchQuery("laugh factory"));
    expect(results).toHaveLength(42);
    expect(new Set(bodies(results.slice(0, 2)))).toEqual(
      new Set(["Laugh Factory Chicago", "the laugh factory downtown"]),
    );
    // A first page of 24 (as scene.listPage asks) holds both full matches.
    const page = db.paginate({ query: searchQuery("laugh factory"), cursor: null, pageSize: 24 });
    expect(bodies(page.page.slice(0, 2)).sort()).toEqual(["Laugh Factory Chicago", "the laugh factory downtown"]);
  });

  test("a rarer term outranks a common one; a tie goes to the newer document", () => {
    const db = fresh(["comedy night", "comedy club", "comedy cellar", "open mic cellar", "comedy basement"]);
    // "cellar" is rarer than "comedy": with one term matched each, "cellar" documents first.
    const results = bodies(collect(db, searchQuery("comedy cellar")));
    expect(results[0]).toBe("comedy cellar");
    expect(results[1]).toBe("open mic cellar");
    // Equal scores: newest first.
    expect(bodies(collect(db, searchQuery("night club basement"))).slice(-1)).toEqual(["comedy night"]);
    const same = fresh(["alpha x", "alpha y", "alpha z"]);
    expect(bodies(collect(same, searchQuery("alpha")))).toEqual(["alpha z", "alpha y", "alpha x"]);
  });

  test("only the last term matches as a prefix", () => {
    const db = fresh(["laughing matter", "factory floor", "lau"]);
    expect(bodies(collect(db, searchQuery("lau"))).sort()).toEqual(["lau", "laughing matter"]);
    // "lau" as a whole term matches only the word "lau"; "fac" as the last term is a prefix.
    expect(bodies(collect(db, searchQuery("lau fac"))).sort()).toEqual(["factory floor", "lau"]);
    expect(bodies(collect(db, searchQuery("laughing")))).toEqual(["laughing matter"]);
    expect(collect(db, searchQuery("aughing"))).toEqual([]);
    expect(collect(db, searchQuery(""))).toEqual([]);
  });

  test("filter fields keep only equal documents, before the limit", () => {
    const docs: [string, string][] = [];
    for (let i = 0; i < 30; i++) docs.push([`open mic ${i}`, i % 3 === 0 ? "mic" : "show"]);
    const db = fresh(docs);
    const mics = collect(db, searchQuery("open", { kind: "mic" }));
    expect(mics).toHaveLength(10);
    expect(mics.every((d) => d.kind === "mic")).toBe(true);
    expect(collect(db, searchQuery("open", { kind: "mic", limit: 4 })).every((d) => d.kind === "mic")).toBe(true);
    expect(collect(db, searchQuery("open", { kind: "mic", limit: 4 }))).toHaveLength(4);
    expect(collect(db, searchQuery("open", { kind: "nothing" }))).toEqual([]);
    // A field the search index does not filter on is an error, as on Convex.
    const bad = searchQuery("open");
    bad.source.filters.push({ type: "Eq", fieldPath: "n", value: 1 });
    expect(() => collect(db, bad)).toThrow(/filter field/);
  });

  test("a search returns at most 1024 documents", () => {
    const many: string[] = [];
    for (let i = 0; i < 1100; i++) many.push(`show number ${i}`);
    const db = fresh(many);
    expect(collect(db, searchQuery("show"))).toHaveLength(1024);
    expect(collect(db, searchQuery("show", { limit: 5 }))).toHaveLength(5);
    // Paging goes on past 1024, each page reading at most 1024 ranked rows.
    const { docs } = allPages(db, searchQuery("show"), 100);
    expect(new Set(docs.map((d) => d._id)).size).toBe(1100);
  });
});

describe("search and writes", () => {
  test("a transaction reads its own inserts, patches and deletes", () => {
    const db = fresh(["late show", "early show", "open mic"]);
    const [late, early] = collect(db, searchQuery("show")).sort((a, b) => a.n - b.n);
    db.startTransaction();
    db.insert("items", { body: "midnight show", kind: "a", n: 9 });
    db.patch("items", early._id, { body: "early brunch" });
    db.delete("items", late._id);
    expect(bodies(collect(db, searchQuery("show")))).toEqual(["midnight show"]);
    expect(bodies(collect(db, searchQuery("brunch")))).toEqual(["early brunch"]);
    expect(bodies(collect(db, searchQuery("mid")))).toEqual(["midnight show"]);
    // A nested level sees the outer one's writes too.
    db.startTransaction();
    db.insert("items", { body: "midnight special", kind: "a", n: 10 });
    expect(bodies(collect(db, searchQuery("midnight special")))).toEqual(["midnight special", "midnight show"]);
    db.rollbackWrites();
    expect(bodies(collect(db, searchQuery("midnight")))).toEqual(["midnight show"]);
    db.rollbackWrites();
    expect(bodies(collect(db, searchQuery("show"))).sort()).toEqual(["early show", "late show"]);
  });

  test("committed inserts, patches and deletes update the index", () => {
    const db = fresh(["late show", "early show"]);
    collect(db, searchQuery("show")); // builds the index
    const early = collect(db, searchQuery("early"))[0];
    db.startTransaction();
    db.patch("items", early._id, { body: "early brunch" });
    db.insert("items", { body: "showcase", kind: "a", n: 5 });
    db.commit(ts++);
    expect(bodies(collect(db, searchQuery("show"))).sort()).toEqual(["late show", "showcase"]);
    // "show" as a whole term does not match "showcase".
    expect(bodies(collect(db, searchQuery("show early"))).sort()).toEqual(["early brunch", "late show"]);
    expect(bodies(collect(db, searchQuery("early")))).toEqual(["early brunch"]);
    db.startTransaction();
    db.delete("items", early._id);
    db.patch("items", collect(db, searchQuery("late"))[0]._id, { kind: "b" }); // text unchanged
    db.commit(ts++);
    expect(collect(db, searchQuery("early"))).toEqual([]);
    expect(collect(db, searchQuery("brunch"))).toEqual([]);
    expect(collect(db, searchQuery("late", { kind: "b" }))).toHaveLength(1);
    expect(collect(db, searchQuery("late", { kind: "a" }))).toHaveLength(0);
  });

  test("pages follow the ranked order without repeats or gaps", () => {
    const docs: string[] = [];
    for (let i = 0; i < 90; i++)
      docs.push(["comedy club", "comedy", "club night", "comedy club comedy", "open mic"][i % 5] + ` ${i}`);
    const db = fresh(docs);
    const all = collect(db, searchQuery("comedy club"));
    expect(all).toHaveLength(72);
    for (const pageSize of [1, 7, 25, 72, 100]) {
      const { docs: paged } = allPages(db, searchQuery("comedy club"), pageSize);
      expect(paged.map((d) => d._id)).toEqual(all.map((d) => d._id));
    }
    // An end cursor bounds a page inclusively, as for index queries.
    const first = db.paginate({ query: searchQuery("comedy club"), cursor: null, pageSize: 10 });
    const again = db.paginate({
      query: searchQuery("comedy club"),
      cursor: null,
      endCursor: first.continueCursor,
      pageSize: 10,
    });
    expect(again.page.map((d: any) => d._id)).toEqual(first.page.map((d: any) => d._id));
    expect(() => db.paginate({ query: searchQuery("comedy"), cursor: "[1,2]", pageSize: 5 })).toThrow(
      /Invalid search cursor/,
    );
  });
});

describe("search against a brute-force model", () => {
  test("random documents and queries: the same matches, ranked by terms matched", () => {
    const words = ["laugh", "laughs", "la", "factory", "fact", "chicago", "chi", "open", "mic", "night", "club", "o"];
    let s = 12345;
    const rand = (n: number) => {
      s = (s * 1103515245 + 12345) % 2147483648;
      return s % n;
    };
    const pickWords = (k: number) => Array.from({ length: k }, () => words[rand(words.length)]);
    const docs: [string, string][] = [];
    for (let i = 0; i < 300; i++) docs.push([pickWords(1 + rand(5)).join(rand(2) ? " " : "-"), rand(2) ? "a" : "b"]);
    const db = fresh(docs);
    for (let q = 0; q < 200; q++) {
      const text = pickWords(1 + rand(3)).join(" ");
      const kind = rand(3) === 0 ? "a" : undefined;
      const { whole, prefix } = parseSearchQuery(text);
      const expected = new Map<string, number>();
      for (const doc of collect(db, {
        source: { type: "FullTableScan", tableName: "items", order: "asc" },
        operators: [],
      })) {
        if (kind !== undefined && doc.kind !== kind) continue;
        const tokens = tokenize(doc.body);
        const m = whole.filter((t) => tokens.includes(t)).length + (tokens.some((t) => t.startsWith(prefix!)) ? 1 : 0);
        if (m > 0) expected.set(doc._id, m);
      }
      const results = collect(db, searchQuery(text, { kind }));
      expect(new Set(results.map((d) => d._id))).toEqual(new Set(expected.keys()));
      const matched = results.map((d) => expected.get(d._id)!);
      expect(matched).toEqual([...matched].sort((a, b) => b - a));
    }
  });
});
