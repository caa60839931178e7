import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";
import { loadConvexTest } from "../../../local-backend/src/runtime/convexTestLoader";
import { indexedDatabaseClass } from "../../../local-backend/src/database/indexedDatabase";

/** Median of `runs` timings of `fn`, in ms. */
function timeMs(fn: () => void, runs = 9): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)];
}

export async function indexRead(): Promise<void> {
  const ct = await loadConvexTest();
  const Indexed = indexedDatabaseClass(ct);
  const schema = defineSchema({
    items: defineTable({ area: v.string(), n: v.number(), body: v.string() })
      .index("by_area_and_n", ["area", "n"])
      .searchIndex("search_body", { searchField: "body", filterFields: ["area"] }),
  });
  // Search text shaped like sceneItems.searchText (title, venue, city): a city
  // is 1 in 200 documents, "laugh factory" venues 1 in 300.
  const titleWords = [
    "open",
    "mic",
    "comedy",
    "night",
    "showcase",
    "late",
    "show",
    "stand",
    "up",
    "roast",
    "hour",
    "jokes",
  ];
  const venueA = [
    "laugh",
    "comedy",
    "funny",
    "punchline",
    "improv",
    "gotham",
    "chuckle",
    "giggle",
    "the",
    "blue",
    "red",
    "brick",
    "old",
    "new",
    "main",
    "corner",
    "lucky",
    "golden",
    "silver",
    "velvet",
  ];
  const venueB = [
    "factory",
    "cellar",
    "club",
    "bar",
    "lounge",
    "room",
    "house",
    "theater",
    "tavern",
    "pub",
    "cafe",
    "stage",
    "hall",
    "attic",
    "garage",
  ];
  const cities = Array.from({ length: 200 }, (_, i) => (i === 7 ? "chicago" : i === 8 ? "chico" : `city${i}`));
  const bodyOf = (i: number) =>
    `${titleWords[i % 12]} ${titleWords[(i >> 3) % 12]} ${venueA[(i * 7) % 20]} ${venueB[(i * 11) % 15]} ${cities[(i * 13) % 200]}`;
  const withStock = process.argv.includes("--stock");
  const drain = (db: any, query: unknown) => {
    const id = db.startQuery(query);
    let count = 0;
    while (!db.queryNext(id).done) count++;
    return count;
  };
  for (const size of [100_000, 1_000_000]) {
    const areas = size / 50;
    const docs: [string, any][] = [];
    for (let i = 0; i < size; i++) {
      const _id = `${String(10000 + i).padStart(27, "0")}items`;
      docs.push([_id, { _id, _creationTime: 1_700_000_000_000 + i, area: `a${i % areas}`, n: i, body: bodyOf(i) }]);
    }
    const query = (area: string) => ({
      source: {
        type: "IndexRange" as const,
        indexName: "items.by_area_and_n",
        range: [{ type: "Eq", fieldPath: "area", value: area }],
        order: "asc" as const,
      },
      operators: [],
    });
    const fmt = (ms: number) => `${ms < 10 ? ms.toFixed(3) : ms.toFixed(0)} ms`;
    const db = new Indexed(schema, "");
    db.loadDocuments(docs);
    let start = performance.now();
    drain(db, query("a0"));
    const build = performance.now() - start;
    let k = 0;
    const read = timeMs(() => {
      if (drain(db, query(`a${(k++ * 7919) % areas}`)) !== 50) throw new Error("expected 50 documents");
    }, 101);
    const page = timeMs(() => {
      const first = db.paginate({ query: query(`a${k % areas}`), cursor: null, pageSize: 25 });
      const second = db.paginate({ query: query(`a${k++ % areas}`), cursor: first.continueCursor, pageSize: 25 });
      if (second.page.length !== 25) throw new Error("expected a second page of 25");
    }, 101);
    const search = (text: string, take: number | null) => ({
      source: {
        type: "Search" as const,
        indexName: "items.search_body",
        filters: [{ type: "Search" as const, fieldPath: "body", value: text }],
      },
      operators: take === null ? [] : [{ limit: take }],
    });
    start = performance.now();
    drain(db, search("chicago", 24));
    const searchBuild = performance.now() - start;
    const searchFigures: string[] = [];
    for (const text of ["chicago", "laugh factory", "chi", "laugh factory chicago"]) {
      const take = timeMs(() => drain(db, search(text, 24)), 21);
      // A .collect() past 1,024 candidates throws, as on Convex: the most a search yields is a take(1024).
      const collectAll = timeMs(() => drain(db, search(text, 1024)), 11);
      const pages = timeMs(() => {
        const first = db.paginate({ query: search(text, null), cursor: null, pageSize: 24 });
        db.paginate({ query: search(text, null), cursor: first.continueCursor, pageSize: 24 });
      }, 11);
      searchFigures.push(
        `"${text}": take(24) ${fmt(take)}, take(1024) ${fmt(collectAll)}, two pages of 24 ${fmt(pages)}`,
      );
    }
    console.log(
      `IndexedDatabase search, ${size.toLocaleString("en")} documents: first use (build) ${fmt(searchBuild)}; ` +
        searchFigures.join("; "),
    );
    start = performance.now();
    const commits = 1000;
    for (let i = 0; i < commits; i++) {
      db.startTransaction();
      db.insert("items", { area: `a${i % areas}`, n: size + i, body: "new" });
      db.commit(BigInt(i + 1));
    }
    const perCommit = (performance.now() - start) / commits;
    console.log(
      `IndexedDatabase, ${size.toLocaleString("en")} documents: range read of 50 ${fmt(read)} (median), ` +
        `two pages of 25 ${fmt(page)}, first use of the index (build) ${fmt(build)}, insert+commit ${fmt(perCommit)}`,
    );
    if (withStock) {
      const stock = new ct.DatabaseFake(schema, "");
      for (const [id, doc] of docs) stock._documents[id] = doc;
      const stockRead = timeMs(() => {
        if (drain(stock, query(`a${(k++ * 7919) % areas}`)) !== 50) throw new Error("expected 50 documents");
      }, 3);
      console.log(
        `stock convex-test DatabaseFake, ${size.toLocaleString("en")} documents: range read of 50 ${fmt(stockRead)} (median of 3)`,
      );
      const stockSearch = ["chicago", "laugh factory"].map(
        (text) => `"${text}" take(24) ${fmt(timeMs(() => drain(stock, search(text, 24)), 3))}`,
      );
      console.log(
        `stock convex-test DatabaseFake search, ${size.toLocaleString("en")} documents: ${stockSearch.join(", ")} (median of 3)`,
      );
    }
  }
}
