/**
 * Full-text search through a real backend process and the official clients
 * (fixture tests/local-backend/indexFixture/convex, table `acts`): relevance
 * order, whole terms and a prefix last term, filter fields, `.take` / `.first`
 * / `.collect` / `.paginate`, a mutation searching its own writes, patches and
 * deletes updating the index, and the same answers after a restart; Convex's
 * BM25 order (newest first on ties), its 16-term cap, its 1,024-candidate
 * error, and a search's read set (concurrent matching inserts conflict, a
 * subscription re-runs only for writes its words and filters match).
 */
import path from "node:path";
import { anyApi } from "convex/server";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Backend, repoRoot, startBackend, waitFor } from "./harness";
import { backendStats, RawClient } from "./rawClient";

const api = anyApi as any;

const SCANNED_TOO_MANY =
  "Search query scanned too many documents (fetched 1024). Consider using a smaller limit, paginating the query, or using a filter field to limit the number of documents pulled from the search index.";
const functionsDir = path.join(repoRoot, "tests/local-backend/indexFixture/convex");

let backend: Backend;
const ids = new Map<string, string>();

async function insert(acts: { text: string; kind: string }[]): Promise<void> {
  const inserted: string[] = await backend.httpClient().mutation(api.acts.insertMany, { acts });
  acts.forEach((act, i) => ids.set(act.text, inserted[i]));
}

async function pageThrough(text: string, numItems: number, kind?: string): Promise<string[]> {
  const http = backend.httpClient();
  const out: string[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 500; i++) {
    const result: any = await http.query(api.acts.page, { text, kind, paginationOpts: { numItems, cursor } });
    out.push(...result.page);
    if (result.isDone) return out;
    cursor = result.continueCursor;
  }
  throw new Error("no end");
}

beforeAll(async () => {
  backend = await startBackend({ functionsDir });
  // Many acts matching one of "laugh" / "factory" first, the two matching both last.
  const acts: { text: string; kind: string }[] = [];
  for (let i = 0; i < 60; i++)
    acts.push({ text: i % 2 ? `laugh track ${i}` : `factory floor ${i}`, kind: i % 3 ? "show" : "mic" });
  acts.push({ text: "Laugh Factory Chicago", kind: "show" }, { text: "the laugh-factory mic", kind: "mic" });
  for (let start = 0; start < acts.length; start += 20) await insert(acts.slice(start, start + 20));
});

afterAll(async () => {
  await backend?.dispose();
});

describe("search on the local backend", () => {
  test("documents matching every term rank first; .take, .first, .collect", async () => {
    const http = backend.httpClient();
    const all: string[] = await http.query(api.acts.texts, { text: "laugh factory" });
    expect(all).toHaveLength(62);
    expect(all.slice(0, 2).sort()).toEqual(["Laugh Factory Chicago", "the laugh-factory mic"]);
    expect((await http.query(api.acts.texts, { text: "laugh factory", take: 2 })).sort()).toEqual(
      all.slice(0, 2).sort(),
    );
    expect(await http.query(api.acts.first, { text: "laugh factory" })).toBe(all[0]);
    // The first page of 24 (scene.listPage's size) holds both.
    const first: any = await http.query(api.acts.page, {
      text: "laugh factory",
      paginationOpts: { numItems: 24, cursor: null },
    });
    expect(first.page.slice(0, 2).sort()).toEqual(["Laugh Factory Chicago", "the laugh-factory mic"]);
  });

  test("the last term is a prefix, the others whole words; filter fields", async () => {
    const http = backend.httpClient();
    expect(await http.query(api.acts.texts, { text: "chic" })).toEqual(["Laugh Factory Chicago"]);
    expect(await http.query(api.acts.texts, { text: "chic laugh", take: 1 })).toEqual(["Laugh Factory Chicago"]);
    expect(await http.query(api.acts.texts, { text: "chic zzz" })).toEqual([]);
    const mics: string[] = await http.query(api.acts.texts, { text: "laugh factory", kind: "mic" });
    expect(mics[0]).toBe("the laugh-factory mic");
    expect(mics).toHaveLength(21);
  });

  test("paging goes through every result once, in the ranked order", async () => {
    const http = backend.httpClient();
    const all: string[] = await http.query(api.acts.texts, { text: "laugh factory" });
    for (const size of [1, 5, 24]) expect(await pageThrough("laugh factory", size)).toEqual(all);
    expect(await pageThrough("laugh factory", 4, "mic")).toEqual(
      await http.query(api.acts.texts, { text: "laugh factory", kind: "mic" }),
    );
  });

  test("a mutation searches its own writes; patches and deletes update the index", async () => {
    const http = backend.httpClient();
    await insert([
      { text: "late night riot", kind: "x" },
      { text: "riot act", kind: "x" },
      { text: "quiet riot", kind: "x" },
    ]);
    const seen = await http.mutation(api.acts.writeThenSearch, {
      text: "riot",
      insert: "riot grrrl",
      patch: ids.get("riot act")!,
      patchText: "calm act",
      remove: ids.get("quiet riot")!,
    });
    expect(seen.map((texts: string[]) => [...texts].sort())).toEqual([
      ["late night riot", "quiet riot", "riot act"],
      ["late night riot", "quiet riot", "riot act", "riot grrrl"],
      ["late night riot", "quiet riot", "riot grrrl"],
      ["late night riot", "riot grrrl"],
      [seen[4][0]],
    ]);
    expect((await http.query(api.acts.texts, { text: "riot" })).sort()).toEqual(["late night riot", "riot grrrl"]);
    expect(await http.query(api.acts.texts, { text: "calm" })).toEqual(["calm act"]);
    await http.mutation(api.acts.setText, { id: ids.get("late night riot")!, text: "early show" });
    await http.mutation(api.acts.remove, { id: ids.get("Laugh Factory Chicago")! });
    expect(await http.query(api.acts.texts, { text: "riot" })).toEqual(["riot grrrl"]);
    expect(await http.query(api.acts.texts, { text: "chicago" })).toEqual([]);
    expect(await http.query(api.acts.texts, { text: "early" })).toEqual(["early show"]);
  });

  test("a restart gives the same answers and keeps the index current", async () => {
    const http = backend.httpClient();
    const queries = [{ text: "laugh factory" }, { text: "riot" }, { text: "fact", kind: "mic" }, { text: "early" }];
    const before = await Promise.all(queries.map((q) => http.query(api.acts.texts, q)));
    await backend.restart();
    const after = backend.httpClient();
    expect(await Promise.all(queries.map((q) => after.query(api.acts.texts, q)))).toEqual(before);
    await after.mutation(api.acts.insertMany, { acts: [{ text: "laugh factory reopened", kind: "show" }] });
    const now: string[] = await after.query(api.acts.texts, { text: "laugh factory" });
    expect(now[0]).toBe("laugh factory reopened");
    expect(now.slice(1, 2)).toEqual(["the laugh-factory mic"]);
    expect(await pageThrough("laugh factory", 7)).toEqual(now);
  });
});

describe("Convex's ranking, caps and limit on the local backend", () => {
  test("BM25 beats newest; equal scores go newest first; only the last term is a prefix", async () => {
    const http = backend.httpClient();
    await insert([{ text: "cellar comedy", kind: "rel" }]);
    await insert(Array.from({ length: 6 }, () => ({ text: "comedy night", kind: "rel" })));
    const both: string[] = await http.query(api.acts.texts, { text: "cellar comedy", kind: "rel" });
    expect(both[0]).toBe("cellar comedy"); // the oldest, matching both words
    // "comedy" alone: seven equal scores, so newest first, the oldest last.
    const one: string[] = await http.query(api.acts.texts, { text: "comedy", kind: "rel" });
    expect(one).toEqual([...Array.from({ length: 6 }, () => "comedy night"), "cellar comedy"]);
    expect(await http.query(api.acts.texts, { text: "comed cellar", kind: "rel" })).toEqual(["cellar comedy"]);
    expect(await http.query(api.acts.texts, { text: "cellar comed", kind: "rel" })).toEqual(both);
    // Words past the 16th are ignored.
    const filler = Array.from({ length: 16 }, (_, i) => `zz${i}`).join(" ");
    expect(await http.query(api.acts.texts, { text: `${filler} cellar`, kind: "rel" })).toEqual([]);
  });

  test("1,024 candidates: .collect() and a .filter past them throw Convex's error; .take and pages stop there", async () => {
    const http = backend.httpClient();
    for (let from = 0; from < 1100; from += 550) {
      await http.mutation(api.acts.insertMany, {
        acts: Array.from({ length: 550 }, (_, i) => ({ text: `encore ${from + i}`, kind: "bulk" })),
      });
    }
    await expect(http.query(api.acts.texts, { text: "encore" })).rejects.toThrow(SCANNED_TOO_MANY);
    await expect(http.query(api.acts.filteredNone, { text: "encore" })).rejects.toThrow(SCANNED_TOO_MANY);
    expect(await http.query(api.acts.texts, { text: "encore", take: 1024 })).toHaveLength(1024);
    expect(await http.query(api.acts.texts, { text: "encore", kind: "elsewhere" })).toEqual([]);
    const paged = await pageThrough("encore", 200, "bulk");
    expect(paged).toHaveLength(1024);
    expect(new Set(paged).size).toBe(1024);
  });

  test("concurrent inserts a search would find conflict and retry; disjoint searches never do", async () => {
    const clients = Array.from({ length: 6 }, () => backend.httpClient());
    const before = (await backendStats(backend)).occ;
    const numbers = await Promise.all(
      clients.map((c) => c.mutation(api.acts.numberedInsert, { word: "claim", kind: "occ", awaits: 30 })),
    );
    const after = (await backendStats(backend)).occ;
    // Serialisable: each call saw every insert committed before it.
    expect([...numbers].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(after.conflicts - before.conflicts).toBeGreaterThan(0);

    const disjoint = await Promise.all(
      clients.map((c, i) => c.mutation(api.acts.numberedInsert, { word: `solo${i}`, kind: "occ", awaits: 30 })),
    );
    expect(disjoint).toEqual([0, 0, 0, 0, 0, 0]);
    expect((await backendStats(backend)).occ.conflicts).toBe(after.conflicts);
  });

  test("a search subscription re-runs for a write its words and filter match, not for others in the table", async () => {
    const reader = await RawClient.open(backend);
    try {
      reader.subscribe([{ queryId: 1, udfPath: "acts:texts", args: { text: "watch", kind: "sub" } }]);
      await reader.waitForMessage((m) => m.type === "Transition" && m.modifications.length === 1, "first result");
      const runsAfter = async (acts: { text: string; kind: string }[]) => {
        const before = (await backendStats(backend)).queryRuns as number;
        await backend.httpClient().mutation(api.acts.insertMany, { acts });
        await new Promise((r) => setTimeout(r, 300));
        return ((await backendStats(backend)).queryRuns as number) - before;
      };
      expect(await runsAfter([{ text: "nothing to see", kind: "sub" }])).toBe(0);
      expect(await runsAfter([{ text: "watchers", kind: "other" }])).toBe(0);
      expect(await runsAfter([{ text: "watchers welcome", kind: "sub" }])).toBe(1);
      await waitFor(() =>
        reader
          .transitions()
          .some((t) =>
            t.modifications.some((m: any) => m.type === "QueryUpdated" && m.value?.[0] === "watchers welcome"),
          ),
      );
    } finally {
      await reader.close();
    }
  });
});
