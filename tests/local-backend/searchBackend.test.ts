/**
 * Full-text search through a real backend process and the official clients
 * (fixture tests/local-backend/indexFixture/convex, table `acts`): relevance
 * order, whole terms and a prefix last term, filter fields, `.take` / `.first`
 * / `.collect` / `.paginate`, a mutation searching its own writes, patches and
 * deletes updating the index, and the same answers after a restart.
 */
import path from "node:path";
import { anyApi } from "convex/server";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Backend, repoRoot, startBackend } from "./harness";

const api = anyApi as any;
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
