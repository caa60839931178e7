/**
 * Index conformance through a real backend process and the official clients:
 * eq / prefix / range / order / take / first / unique / paginate over a
 * compound index with many equal keys (so cursors land inside runs of equal
 * keys), patches that move a row between ranges, deletes between pages, a
 * mutation reading its own writes, and the indexes after a restart. The
 * expected order is computed from a model: (group, rank, insertion order).
 */
import path from "node:path";
import { anyApi } from "convex/server";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Backend, repoRoot, startBackend } from "./harness";

const api = anyApi as any;
const functionsDir = path.join(repoRoot, "tests/local-backend/indexFixture/convex");

type Row = { id: string; group: string; rank: number; label: string; seq: number };

let backend: Backend;
const model = new Map<string, Row>();
let seq = 0;

async function insert(rows: { group: string; rank: number; label: string }[]): Promise<Row[]> {
  const ids: string[] = await backend.httpClient().mutation(api.rows.insertMany, { rows });
  return rows.map((row, i) => {
    const full = { ...row, id: ids[i], seq: seq++ };
    model.set(full.id, full);
    return full;
  });
}

/** What the index range should return, from the model. */
function expected(group: string, opts: { order?: "asc" | "desc"; gte?: number; lt?: number } = {}): string[] {
  const rows = [...model.values()]
    .filter((r) => r.group === group)
    .filter((r) => (opts.gte === undefined || r.rank >= opts.gte) && (opts.lt === undefined || r.rank < opts.lt))
    .sort((a, b) => a.rank - b.rank || a.seq - b.seq)
    .map((r) => r.label);
  return opts.order === "desc" ? rows.reverse() : rows;
}

async function pageThrough(
  args: { group: string; order?: "asc" | "desc"; gte?: number; lt?: number },
  numItems: number,
  between?: (labelsSoFar: string[]) => Promise<void>,
): Promise<{ labels: string[]; pages: string[][] }> {
  const http = backend.httpClient();
  const pages: string[][] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 200; i++) {
    const result: any = await http.query(api.rows.page, { ...args, paginationOpts: { numItems, cursor } });
    pages.push(result.page);
    if (result.isDone) break;
    cursor = result.continueCursor;
    await between?.(pages.flat());
  }
  return { labels: pages.flat(), pages };
}

beforeAll(async () => {
  backend = await startBackend({ functionsDir });
  // 90 rows in group "g" with ranks 0..4 (about 18 equal keys each), inserted in
  // a shuffled rank order over several mutations, plus neighbouring groups.
  const rows: { group: string; rank: number; label: string }[] = [];
  for (let i = 0; i < 90; i++) rows.push({ group: "g", rank: (i * 7) % 5, label: `g${i}` });
  for (let i = 0; i < 20; i++) rows.push({ group: i % 2 ? "f" : "h", rank: i % 5, label: `n${i}` });
  for (let start = 0; start < rows.length; start += 25) await insert(rows.slice(start, start + 25));
});

afterAll(async () => {
  await backend?.dispose();
});

describe("index ranges on the local backend", () => {
  test("eq on a prefix, ranges on the next field, both orders", async () => {
    const http = backend.httpClient();
    expect(await http.query(api.rows.labels, { group: "g" })).toEqual(expected("g"));
    expect(await http.query(api.rows.labels, { group: "g", order: "desc" })).toEqual(expected("g", { order: "desc" }));
    for (const [gte, lt] of [
      [1, 3],
      [2, undefined],
      [undefined, 1],
      [4, 4],
      [-1, 10],
    ] as const) {
      for (const order of ["asc", "desc"] as const) {
        const args = { group: "g", order, gte, lt };
        expect(await http.query(api.rows.labels, args), JSON.stringify(args)).toEqual(expected("g", args));
      }
    }
    expect(await http.query(api.rows.labels, { group: "nobody" })).toEqual([]);
    // The single-field index across groups.
    const byRank = [...model.values()].filter((r) => r.rank >= 3).sort((a, b) => a.rank - b.rank || a.seq - b.seq);
    expect(await http.query(api.rows.byRank, { from: 3 })).toEqual(byRank.map((r) => r.label));
    expect(await http.query(api.rows.byRank, { from: 3, order: "desc" })).toEqual(byRank.map((r) => r.label).reverse());
  });

  test("take, first and unique stop where they should", async () => {
    const http = backend.httpClient();
    expect(await http.query(api.rows.labels, { group: "g", take: 7 })).toEqual(expected("g").slice(0, 7));
    expect(await http.query(api.rows.labels, { group: "g", order: "desc", gte: 1, lt: 3, take: 5 })).toEqual(
      expected("g", { order: "desc", gte: 1, lt: 3 }).slice(0, 5),
    );
    expect(await http.query(api.rows.labels, { group: "g", take: 0 })).toEqual([]);
    expect(await http.query(api.rows.first, { group: "g", order: "desc" })).toBe(expected("g", { order: "desc" })[0]);
    expect(await http.query(api.rows.first, { group: "nobody" })).toBeNull();
    await expect(http.query(api.rows.unique, { group: "g", gte: 2, lt: 3 })).rejects.toThrow(/unique/);
    const [lonely] = await insert([{ group: "solo", rank: 1, label: "solo" }]);
    expect(await http.query(api.rows.unique, { group: "solo" })).toBe(lonely.label);
  });

  test("pages with cursors inside runs of equal keys, in both orders", async () => {
    for (const order of ["asc", "desc"] as const) {
      for (const numItems of [1, 4, 7]) {
        const { labels, pages } = await pageThrough({ group: "g", order }, numItems);
        expect(labels).toEqual(expected("g", { order }));
        expect(pages.slice(0, -1).every((p) => p.length === numItems)).toBe(true);
      }
      const ranged = await pageThrough({ group: "g", order, gte: 1, lt: 4 }, 5);
      expect(ranged.labels).toEqual(expected("g", { order, gte: 1, lt: 4 }));
    }
  });

  test("deletes and patches between pages: the next page starts after the cursor", async () => {
    const http = backend.httpClient();
    const before = expected("g");
    const removed = new Set<string>();
    const moved = new Set<string>();
    const { labels } = await pageThrough({ group: "g" }, 6, async (soFar) => {
      const last = before.indexOf(soFar[soFar.length - 1]);
      const ahead = before.slice(last + 1).filter((label) => !removed.has(label) && !moved.has(label));
      if (ahead.length < 4) return;
      const row = (label: string) => [...model.values()].find((r) => r.label === label)!;
      // Delete the next row the cursor would reach, and move another one out
      // of the group (a patch that takes a row out of the range).
      const gone = row(ahead[0]);
      await http.mutation(api.rows.remove, { id: gone.id });
      model.delete(gone.id);
      removed.add(gone.label);
      const away = row(ahead[2]);
      await http.mutation(api.rows.patch, { id: away.id, group: "moved" });
      model.set(away.id, { ...away, group: "moved" });
      moved.add(away.label);
    });
    expect(removed.size).toBeGreaterThan(3);
    expect(labels).toEqual(before.filter((label) => !removed.has(label) && !moved.has(label)));
    expect(await http.query(api.rows.labels, { group: "moved" })).toEqual(expected("moved"));
  });

  test("a patch moves a row between ranges of the same index", async () => {
    const http = backend.httpClient();
    const row = [...model.values()].find((r) => r.group === "g" && r.rank === 0)!;
    const low = { group: "g", lt: 1 };
    const high = { group: "g", gte: 4 };
    expect(await http.query(api.rows.labels, low)).toContain(row.label);
    await http.mutation(api.rows.patch, { id: row.id, rank: 4 });
    model.set(row.id, { ...row, rank: 4 });
    expect(await http.query(api.rows.labels, low)).not.toContain(row.label);
    const highLabels = await http.query(api.rows.labels, high);
    expect(highLabels).toEqual(expected("g", high));
    // It keeps its creation time, so it sits among rank 4 by insertion order, not last.
    expect(highLabels[highLabels.length - 1]).not.toBe(row.label);
  });

  test("a mutation reads its own writes through the index", async () => {
    const http = backend.httpClient();
    await insert([
      { group: "rw", rank: 2, label: "rw-a" },
      { group: "rw", rank: 1, label: "rw-b" },
      { group: "rw", rank: 3, label: "rw-c" },
      { group: "rw", rank: 1, label: "rw-d" },
    ]);
    const byLabel = (label: string) => [...model.values()].find((r) => r.label === label)!;
    const seen = await http.mutation(api.rows.writeThenRead, {
      group: "rw",
      moveOut: byLabel("rw-a").id,
      remove: byLabel("rw-d").id,
      label: "rw-new",
      rank: 1,
    });
    expect(seen).toEqual([
      ["rw-b", "rw-d", "rw-a", "rw-c"],
      ["rw-b", "rw-d", "rw-new", "rw-a", "rw-c"],
      ["rw-b", "rw-d", "rw-new", "rw-c"],
      ["rw-b", "rw-new", "rw-c"],
      ["rw-c", "rw-new", "rw-b"],
      ["rw-b", "rw-new"],
    ]);
    // And they were committed.
    expect(await http.query(api.rows.labels, { group: "rw" })).toEqual(["rw-b", "rw-new", "rw-c"]);
    expect(await http.query(api.rows.labels, { group: "rw-elsewhere" })).toEqual(["rw-a"]);
    model.delete(byLabel("rw-d").id);
    model.set(byLabel("rw-a").id, { ...byLabel("rw-a"), group: "rw-elsewhere" });
    const rows = await http.query(api.rows.labels, { group: "rw" });
    expect(rows).toHaveLength(3);
  });

  test("a restart restores the indexes from the data directory", async () => {
    const http = backend.httpClient();
    const queries = [
      { group: "g" },
      { group: "g", order: "desc" as const },
      { group: "g", gte: 1, lt: 3 },
      { group: "moved" },
      { group: "f", order: "desc" as const },
    ];
    const beforeRestart = await Promise.all(queries.map((q) => http.query(api.rows.labels, q)));
    await backend.restart();
    const after = backend.httpClient();
    const afterRestart = await Promise.all(queries.map((q) => after.query(api.rows.labels, q)));
    expect(afterRestart).toEqual(beforeRestart);
    expect(afterRestart[0]).toEqual(expected("g"));
    // Writes after the restart land in their place.
    await insert([
      { group: "g", rank: 2, label: "late-2" },
      { group: "g", rank: 0, label: "late-0" },
    ]);
    expect(await after.query(api.rows.labels, { group: "g" })).toEqual(expected("g"));
    const { labels } = await pageThrough({ group: "g", order: "desc" }, 8);
    expect(labels).toEqual(expected("g", { order: "desc" }));
  });
});
