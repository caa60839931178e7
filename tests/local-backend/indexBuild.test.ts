/**
 * The bulk index build (local-backend/src/database/indexes/indexBuild.ts) orders documents
 * exactly as sorting them with compareKeys field by field does (convex's
 * compareValues order, ties in input order), whatever the fields hold: strings
 * (surrogate pairs and characters past them included), numbers (NaN, -0,
 * infinities), undefined, null, booleans, bigints, bytes, arrays and objects,
 * mixed within one field.
 */
import { describe, expect, test } from "vitest";
import { sortByKeys } from "../../local-backend/src/database/indexes/indexBuild";
import { compareKeys } from "../../local-backend/src/database/indexes/indexKeys";

/** A small seeded PRNG (mulberry32), so a failure can be replayed by its seed. */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Row = { id: number; f: unknown[] };

function reference(rows: Row[], fields: number): Row[] {
  return rows.slice().sort((a, b) => {
    for (let i = 0; i < fields; i++) {
      const c = compareKeys(a.f[i], b.f[i]);
      if (c !== 0) return c;
    }
    return 0;
  });
}

const STRINGS = ["", "a", "ab", "b", "B", "é", "\u{1F600}", "\uffff", "\ue000", "a\u{1F600}", "a\uffff", "zz"];
const NUMBERS = [0, 1, -1, 0.5, 2 ** 53, -Infinity, Infinity, 1e-300, 3];

/** A value of the kind `kind` names. */
function value(kind: string, random: () => number): unknown {
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
  switch (kind) {
    case "string":
      return pick(STRINGS);
    case "number":
      return pick(NUMBERS);
    case "optionalString":
      return random() < 0.3 ? pick([undefined, null]) : pick(STRINGS);
    case "optionalNumber":
      return random() < 0.3 ? pick([undefined, null]) : pick(NUMBERS);
    case "unique":
      return random();
    default:
      return pick([
        undefined,
        null,
        true,
        false,
        1n,
        -2n,
        ...NUMBERS,
        NaN,
        -0,
        ...STRINGS,
        new Uint8Array([1, 2]).buffer,
        [1, "a"],
        [1],
        { x: 1 },
        { x: 1 },
        { y: [null] },
      ]);
  }
}

describe("sortByKeys", () => {
  const kinds = ["string", "number", "optionalString", "optionalNumber", "unique", "any"];
  for (let seed = 1; seed <= 40; seed++) {
    test(`random fields, seed ${seed}`, () => {
      const random = prng(seed);
      const fields = 1 + Math.floor(random() * 4);
      const fieldKinds = Array.from({ length: fields }, () => kinds[Math.floor(random() * kinds.length)]);
      const rows: Row[] = Array.from({ length: Math.floor(random() * 400) }, (_, id) => ({
        id,
        f: fieldKinds.map((kind) => value(kind, random)),
      }));
      const getters = fieldKinds.map((_, i) => (row: Row) => row.f[i]);
      const ids = (list: Row[]) => list.map((row) => row.id);
      expect(ids(sortByKeys(rows, getters)), fieldKinds.join(",")).toEqual(ids(reference(rows, fields)));
    });
  }

  test("strings the engine's sort orders differently from UTF-8 (past the surrogates) are in compareKeys order", () => {
    const rows: Row[] = ["\uffff", "\u{1F600}", "\ue000", "a", "\u{10000}"].map((s, id) => ({ id, f: [s] }));
    const sorted = sortByKeys(rows, [(row) => row.f[0]]);
    expect(sorted.map((row) => row.f[0])).toEqual(["a", "\ue000", "\uffff", "\u{10000}", "\u{1F600}"]);
  });

  test("-0 before 0, NaN apart, and equal objects keep their input order", () => {
    const values = [0, -0, { x: 1 }, NaN, -1, { x: 1 }, 0];
    const rows: Row[] = values.map((v, id) => ({ id, f: [v] }));
    const sorted = sortByKeys(rows, [(row) => row.f[0]]).map((row) => row.id);
    expect(sorted).toEqual(reference(rows, 1).map((row) => row.id));
    expect(sorted.indexOf(1)).toBeLessThan(sorted.indexOf(0));
    expect(sorted.indexOf(2)).toBeLessThan(sorted.indexOf(5));
  });

  test("fields after one whose values are all distinct do not change the order", () => {
    const rows: Row[] = [3, 1, 2].map((v, id) => ({ id, f: [v, -v] }));
    expect(sortByKeys(rows, [(row) => row.f[0], (row) => row.f[1]]).map((row) => row.f[0])).toEqual([1, 2, 3]);
  });
});
