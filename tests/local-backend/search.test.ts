/**
 * Full-text search in the local backend's IndexedDatabase (in process), against
 * Convex's rules (crates/search in convex-backend, Tantivy underneath):
 * tokens (32-byte words dropped, 16 query terms), BM25 relevance with newest
 * first on ties, the last term a prefix weighted half and reaching at most 64
 * words, filter fields and their cap of 8, the 1,024-candidate limit and its
 * error, read-your-own-writes, pages that narrow the candidates, the read set
 * a search leaves, and a random comparison with a plain BM25 model.
 */
import { defineSchema, defineTable } from "convex/server";
import { convexToJson, v } from "convex/values";
import { beforeAll, describe, expect, test } from "vitest";
import { loadConvexTest } from "../../local-backend/src/runtime/convexTestLoader";
import { indexedDatabaseClass } from "../../local-backend/src/database/indexedDatabase";
import {
  fieldNormId,
  fieldNormLength,
  parseSearchQuery,
  SCANNED_TOO_MANY_MESSAGE,
  tokenize,
} from "../../local-backend/src/database/indexes/searchIndex";

const tagFields = ["t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9"] as const;
const schema = defineSchema({
  items: defineTable({ body: v.string(), kind: v.string(), n: v.number() })
    .index("by_n", ["n"])
    .searchIndex("search_body", { searchField: "body", filterFields: ["kind"] }),
  tagged: defineTable({
    body: v.string(),
    t1: v.number(),
    t2: v.number(),
    t3: v.number(),
    t4: v.number(),
    t5: v.number(),
    t6: v.number(),
    t7: v.number(),
    t8: v.number(),
    t9: v.number(),
  }).searchIndex("search_body", { searchField: "body", filterFields: [...tagFields] }),
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

function searchQuery(text: string, opts: { kind?: string; limit?: number; filter?: unknown } = {}): any {
  const filters: any[] = [{ type: "Search", fieldPath: "body", value: text }];
  if (opts.kind !== undefined) filters.push({ type: "Eq", fieldPath: "kind", value: convexToJson(opts.kind) });
  const operators: any[] = [];
  if (opts.filter !== undefined) operators.push({ filter: opts.filter });
  if (opts.limit !== undefined) operators.push({ limit: opts.limit });
  return { source: { type: "Search", indexName: "items.search_body", filters }, operators };
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
  test("split on non-alphanumerics, lower-cased; words of 32 bytes or more dropped", () => {
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
    const w31 = "a".repeat(31);
    expect(tokenize(`x ${w31} ${"b".repeat(32)} y`)).toEqual(["x", w31, "y"]);
    // Bytes, not characters: 15 two-byte letters stay, 16 go.
    expect(tokenize(`${"é".repeat(15)} ${"é".repeat(16)}`)).toEqual(["é".repeat(15)]);
    // Per-character lower-casing: a final capital sigma is σ, as Tantivy's LowerCaser.
    expect(tokenize("ΟΔΟΣ")).toEqual(["οδοσ"]);
  });

  test("a query's first 16 tokens count, each exact, the last also a prefix", () => {
    expect(parseSearchQuery("Laugh  FACTORY chi")).toEqual({ exact: ["laugh", "factory", "chi"], prefix: "chi" });
    expect(parseSearchQuery("fun fun")).toEqual({ exact: ["fun"], prefix: "fun" });
    expect(parseSearchQuery("  ...  ")).toEqual({ exact: [], prefix: null });
    const words = Array.from({ length: 20 }, (_, i) => `w${i}`);
    expect(parseSearchQuery(words.join(" "))).toEqual({ exact: words.slice(0, 16), prefix: "w15" });
  });

  test("Tantivy's field-norm buckets", () => {
    expect([0, 1, 39, 40, 41, 42, 59, 60, 2840, 2013265944].map(fieldNormId)).toEqual([
      0, 1, 39, 40, 40, 41, 48, 49, 99, 255,
    ]);
    expect([40, 41, 49, 99, 255].map(fieldNormLength)).toEqual([40, 42, 60, 2840, 2013265944]);
  });
});

describe("relevance (BM25) and ties", () => {
  test("a better match outranks newer documents; equal scores go newest first", () => {
    // Oldest first: the one document with both words, then ten newer with one.
    const db = fresh(["comedy cellar", ...Array.from({ length: 10 }, () => "comedy night")]);
    const results = collect(db, searchQuery("cellar comedy"));
    expect(bodies(results)).toEqual(["comedy cellar", ...Array.from({ length: 10 }, () => "comedy night")]);
    // The ten equal "comedy night" documents: newest first.
    const ns = results.slice(1).map((d) => d.n);
    expect(ns).toEqual([...ns].sort((a, b) => b - a));
    expect(ns[0]).toBe(10);
  });

  test("a rare word outranks a common one, whatever the order of insertion or the number of words matched", () => {
    const db = fresh([
      "cellar",
      "open mic night",
      "open mic showcase",
      "open mic late",
      "open mic early",
      "open mic sunday",
    ]);
    // "cellar" is in 1 of 6 documents, "open" and "mic" in 5: the oldest document,
    // matching one word, outranks the newer ones matching two.
    expect(bodies(collect(db, searchQuery("open mic cellar")))[0]).toBe("cellar");
    // Terms matched is not a rank key of its own (the old local rule ranked them first).
  });

  test("a shorter text ranks above a longer one with the same words", () => {
    const db = fresh(["laugh track with a very long tail of other words here", "laugh track"]);
    db.startTransaction();
    db.insert("items", { body: "laugh track and more", kind: "a", n: 9 });
    db.commit(ts++);
    expect(bodies(collect(db, searchQuery("laugh")))).toEqual([
      "laugh track",
      "laugh track and more",
      "laugh track with a very long tail of other words here",
    ]);
  });

  test("the last term is a prefix, the others whole words; a prefix match weighs half", () => {
    const db = fresh(["laughing matter", "factory floor", "lau"]);
    expect(bodies(collect(db, searchQuery("lau"))).sort()).toEqual(["lau", "laughing matter"]);
    expect(bodies(collect(db, searchQuery("lau fac"))).sort()).toEqual(["factory floor", "lau"]);
    expect(bodies(collect(db, searchQuery("laughing")))).toEqual(["laughing matter"]);
    expect(collect(db, searchQuery("aughing"))).toEqual([]);
    expect(collect(db, searchQuery(""))).toEqual([]);
    // "lau" exactly (weight 1) beats "laughing" (a prefix match, weight 0.5), both 2-word texts.
    const two = fresh(["lau bar", "laughing bar"]);
    expect(bodies(collect(two, searchQuery("lau")))).toEqual(["lau bar", "laughing bar"]);
    // Two expansions in one text add up.
    const sum = fresh(["laugh laughs", "laugh xx"]);
    expect(bodies(collect(sum, searchQuery("la")))).toEqual(["laugh laughs", "laugh xx"]);
  });

  test("a prefix reaches at most 64 words, the first in term order", () => {
    const words = Array.from({ length: 100 }, (_, i) => `w${String(i).padStart(3, "0")}`);
    const db = fresh(words.map((w) => `${w} filler`));
    const results = bodies(collect(db, searchQuery("w")));
    expect(results.map((b) => b.split(" ")[0]).sort()).toEqual(words.slice(0, 64));
    // An exact query word present in the index takes one of the 64.
    expect(collect(db, searchQuery("filler w")).length).toBe(100); // "filler" matches all
    const exactFirst = fresh([...words.map((w) => `${w}`), "zebra"]);
    expect(bodies(collect(exactFirst, searchQuery("zebra w"))).length).toBe(1 + 63);
  });

  test("words past the 16th of a query are ignored", () => {
    const db = fresh(["alpha", "omega"]);
    const filler = Array.from({ length: 16 }, (_, i) => `nothing${i}`).join(" ");
    expect(collect(db, searchQuery(`${filler} omega`))).toEqual([]);
    expect(bodies(collect(db, searchQuery(`${filler.split(" ").slice(1).join(" ")} omeg`)))).toEqual(["omega"]);
  });
});

describe("filter fields", () => {
  test("equal documents only, before the candidate limit", () => {
    const docs: [string, string][] = [];
    for (let i = 0; i < 30; i++) docs.push([`open mic ${i}`, i % 3 === 0 ? "mic" : "show"]);
    const db = fresh(docs);
    const mics = collect(db, searchQuery("open", { kind: "mic" }));
    expect(mics).toHaveLength(10);
    expect(mics.every((d) => d.kind === "mic")).toBe(true);
    expect(collect(db, searchQuery("open", { kind: "mic", limit: 4 })).every((d) => d.kind === "mic")).toBe(true);
    expect(collect(db, searchQuery("open", { kind: "mic", limit: 4 }))).toHaveLength(4);
    expect(collect(db, searchQuery("open", { kind: "nothing" }))).toEqual([]);
  });

  test("Convex's errors: a field not filtered on, another search field, two searches, more than 8 filters", () => {
    const db = fresh(["open mic"]);
    const bad = searchQuery("open");
    bad.source.filters.push({ type: "Eq", fieldPath: "n", value: 1 });
    expect(() => collect(db, bad)).toThrow(
      'Search query against items.search_body contains an equality filter on "n" but that field isn\'t indexed for filtering in `filterFields`.',
    );
    const wrongField = searchQuery("open");
    wrongField.source.filters[0].fieldPath = "kind";
    expect(() => collect(db, wrongField)).toThrow(
      'Search query against items.search_body contains a search filter against "kind", which doesn\'t match the indexed `searchField` "body".',
    );
    const twice = searchQuery("open");
    twice.source.filters.push({ type: "Search", fieldPath: "body", value: "mic" });
    expect(() => collect(db, twice)).toThrow(
      'Search query against items.search_body contains multiple search filters against "body". Only one is allowed.',
    );

    db.startTransaction();
    db.insert("tagged", { body: "tagged row", ...Object.fromEntries(tagFields.map((f) => [f, 1])) });
    db.commit(ts++);
    const tagged = (count: number) => ({
      source: {
        type: "Search",
        indexName: "tagged.search_body",
        filters: [
          { type: "Search", fieldPath: "body", value: "tagged" },
          ...tagFields.slice(0, count).map((f) => ({ type: "Eq", fieldPath: f, value: 1 })),
        ],
      },
      operators: [],
    });
    expect(collect(db, tagged(8))).toHaveLength(1);
    expect(() => collect(db, tagged(9))).toThrow(
      "Search query against tagged.search_body has too many filter conditions. Max: 8 Actual: 9",
    );
  });
});

describe("the 1,024-candidate limit", () => {
  const many = (count: number) => fresh(Array.from({ length: count }, (_, i) => `show number ${i}`));

  test(".collect() of 1,024 or more results throws Convex's error; fewer, .take and .first do not", () => {
    expect(collect(many(1023), searchQuery("show"))).toHaveLength(1023);
    const db = many(1024);
    expect(() => collect(db, searchQuery("show"))).toThrow(SCANNED_TOO_MANY_MESSAGE);
    expect(SCANNED_TOO_MANY_MESSAGE).toBe(
      "Search query scanned too many documents (fetched 1024). Consider using a smaller limit, paginating the query, or using a filter field to limit the number of documents pulled from the search index.",
    );
    expect(collect(db, searchQuery("show", { limit: 1024 }))).toHaveLength(1024);
    expect(collect(db, searchQuery("show", { limit: 5 }))).toHaveLength(5);
    expect(() => collect(db, searchQuery("show", { limit: 1025 }))).toThrow(SCANNED_TOO_MANY_MESSAGE);
    // A .filter that drops rows reads past the limit too.
    const none = { $eq: [{ $field: "kind" }, { $literal: "nothing" }] };
    expect(() => collect(db, searchQuery("show", { filter: none, limit: 1 }))).toThrow(SCANNED_TOO_MANY_MESSAGE);
    // A filter field narrows before the limit: no error.
    expect(collect(db, searchQuery("show", { kind: "nothing" }))).toEqual([]);
  });

  test("an unbounded stream throws only when read past its 1,024th document", () => {
    const db = many(1100);
    const id = db.startQuery(searchQuery("show"));
    for (let i = 0; i < 1024; i++) expect(db.queryNext(id).done).toBe(false);
    expect(() => db.queryNext(id)).toThrow(SCANNED_TOO_MANY_MESSAGE);
  });

  test("pages go through the best 1,024 and end there; a page larger than that throws", () => {
    const db = many(1100);
    const { docs } = allPages(db, searchQuery("show"), 100);
    expect(docs).toHaveLength(1024);
    expect(new Set(docs.map((d) => d._id)).size).toBe(1024);
    expect(() => db.paginate({ query: searchQuery("show"), cursor: null, pageSize: 2000 })).toThrow(
      SCANNED_TOO_MANY_MESSAGE,
    );
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

  test("pending writes count in the statistics, as committed ones would", () => {
    const base = ["comedy cellar", "comedy night", "comedy night"];
    const committed = fresh([...base, "cellar door", "cellar door", "cellar door"]);
    const pending = fresh(base);
    pending.startTransaction();
    for (let i = 0; i < 3; i++) pending.insert("items", { body: "cellar door", kind: "a", n: 10 + i });
    // Made common by the pending inserts, "cellar" now weighs less than "night" in both.
    const order = (db: any) => bodies(collect(db, searchQuery("night cellar", { limit: 3 })));
    expect(order(pending)).toEqual(order(committed));
    expect(order(pending)[0]).toBe("comedy night");
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

  test("pages follow the ranked order without repeats; isDone comes on the page after the last row", () => {
    const docs: string[] = [];
    for (let i = 0; i < 90; i++)
      docs.push(["comedy club", "comedy", "club night", "comedy club comedy", "open mic"][i % 5] + ` ${i}`);
    const db = fresh(docs);
    const all = collect(db, searchQuery("comedy club"));
    expect(all).toHaveLength(72);
    for (const pageSize of [1, 7, 25, 72, 100]) {
      const { docs: paged, pages } = allPages(db, searchQuery("comedy club"), pageSize);
      expect(paged.map((d) => d._id)).toEqual(all.map((d) => d._id));
      // A full last page does not know it is the last (Convex does not read ahead).
      expect(pages).toBe(Math.floor(72 / pageSize) + 1);
    }
    // An end cursor bounds a page inclusively.
    const first = db.paginate({ query: searchQuery("comedy club"), cursor: null, pageSize: 10 });
    const again = db.paginate({
      query: searchQuery("comedy club"),
      cursor: null,
      endCursor: first.continueCursor,
      pageSize: 10,
    });
    expect(again.page.map((d: any) => d._id)).toEqual(first.page.map((d: any) => d._id));
    // maximumRowsRead does not split a search page (Convex ignores it for search).
    const capped = db.paginate({ query: searchQuery("comedy club"), cursor: null, pageSize: 20, maximumRowsRead: 5 });
    expect(capped.page).toHaveLength(20);
    expect(capped.pageStatus).toBeNull();
    expect(() => db.paginate({ query: searchQuery("comedy"), cursor: "[1,2]", pageSize: 5 })).toThrow(
      /Invalid search cursor/,
    );
  });
});

describe("read set", () => {
  test("a write conflicts with a search when it matches its filter fields and a query word (before or after)", () => {
    const db = fresh([["open mic night", "mic"]]);
    const ranges: ((doc: any) => boolean)[] = [];
    const ids: string[] = [];
    db.onRead = () => {
      throw new Error("a search reads no whole table");
    };
    db.onReadRange = (_table: string, contains: (doc: any) => boolean) => ranges.push(contains);
    db.onReadId = (_table: string, id: string) => ids.push(id);
    const [found] = collect(db, searchQuery("late ope", { kind: "mic" }));
    expect(ids).toEqual([found._id]);
    expect(ranges).toHaveLength(1);
    const overlaps = (body: string, kind = "mic") => ranges[0]({ _id: "x", body, kind });
    expect(overlaps("late show")).toBe(true); // whole word "late"
    expect(overlaps("opera house")).toBe(true); // prefix "ope"
    expect(overlaps("lately")).toBe(false); // "late" is not the last word
    expect(overlaps("the open")).toBe(true);
    expect(overlaps("open mic", "show")).toBe(false); // other filter value
    expect(overlaps("nothing here")).toBe(false);
  });
});

describe("search against a plain BM25 model", () => {
  // An independent reading of the rules: Tantivy's BM25 with lengths in Lucene's byte4 buckets, in f64.
  const bucketLength = (i: number) => {
    if (i < 24) return i;
    const shift = ((i - 24) >>> 3) - 1;
    return 24 + (shift < 0 ? (i - 24) & 7 : (((i - 24) & 7) | 8) * 2 ** shift);
  };
  const bucket = (len: number) => {
    let i = 0;
    while (i < 255 && bucketLength(i + 1) <= len) i++;
    return bucketLength(i);
  };

  test("random documents and queries: the same matches, in BM25 order", () => {
    const words = ["laugh", "laughs", "la", "factory", "fact", "chicago", "chi", "open", "mic", "night", "club", "o"];
    let s = 12345;
    const rand = (n: number) => {
      s = (s * 1103515245 + 12345) % 2147483648;
      return s % n;
    };
    const pickWords = (k: number) => Array.from({ length: k }, () => words[rand(words.length)]);
    const docs: [string, string][] = [];
    for (let i = 0; i < 300; i++) docs.push([pickWords(1 + rand(50)).join(rand(2) ? " " : "-"), rand(2) ? "a" : "b"]);
    const db = fresh(docs);
    const all = collect(db, { source: { type: "FullTableScan", tableName: "items", order: "asc" }, operators: [] });
    const tokensOf = new Map(all.map((d) => [d._id, tokenize(d.body)]));
    const N = all.length;
    const avg = all.reduce((sum, d) => sum + tokensOf.get(d._id)!.length, 0) / N;
    const df = (w: string) => all.filter((d) => tokensOf.get(d._id)!.includes(w)).length;
    for (let q = 0; q < 80; q++) {
      const text = pickWords(1 + rand(3)).join(" ");
      const kind = rand(3) === 0 ? "a" : undefined;
      const tokens = tokenize(text);
      const last = tokens[tokens.length - 1];
      const weights = new Map<string, number>();
      for (const t of tokens) if (df(t) > 0) weights.set(t, 1);
      for (const w of [...new Set(words)].sort()) if (w.startsWith(last) && !weights.has(w)) weights.set(w, 0.5);
      const expected = new Map<string, number>();
      for (const doc of all) {
        if (kind !== undefined && doc.kind !== kind) continue;
        const toks = tokensOf.get(doc._id)!;
        let score = 0;
        for (const [w, boost] of weights) {
          const tf = toks.filter((t) => t === w).length;
          if (tf === 0) continue;
          const n = df(w);
          const idf = Math.log(1 + (N - n + 0.5) / (n + 0.5));
          score += boost * idf * 2.2 * (tf / (tf + 1.2 * (0.25 + (0.75 * bucket(toks.length)) / avg)));
        }
        if (score > 0) expected.set(doc._id, score);
      }
      const results = collect(db, searchQuery(text, { kind }));
      expect(new Set(results.map((d) => d._id))).toEqual(new Set(expected.keys()));
      const scores = results.map((d) => expected.get(d._id)!);
      for (let i = 1; i < scores.length; i++) expect(scores[i]).toBeLessThanOrEqual(scores[i - 1] * (1 + 1e-5));
    }
  });
});
