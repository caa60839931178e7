/**
 * The search index's loops stay off the global `Math`: in the backend's
 * functions (and under convex-test) `Math` is a global read through an
 * AsyncLocalStorage getter, so a read per posting or per document term costs
 * more than the arithmetic it does. Here a counting getter stands in for that
 * one: loading, searching (with pending documents) and applying writes read
 * `Math` a few times at most, however many postings they walk.
 */
import { describe, expect, test } from "vitest";
import { InvertedIndex, parseSearchQuery } from "../../local-backend/src/database/indexes/searchIndex";

type Doc = { _id: string; _creationTime: number; body: string };

const WORDS = ["comedy", "night", "open", "mic", "laugh", "factory", "club", "cellar", "late", "show"];
const doc = (i: number, body = `${WORDS[i % 10]} ${WORDS[(i * 3) % 10]} ${WORDS[(i * 7) % 10]} comedy`): Doc => ({
  _id: `doc${i}`,
  _creationTime: 1_700_000_000_000 + i,
  body,
});

/** Runs `fn` with `globalThis.Math` behind a getter that counts its reads. */
function countMathReads(fn: () => void): number {
  const original = Object.getOwnPropertyDescriptor(globalThis, "Math")!;
  const real: Math = Math;
  let reads = 0;
  Object.defineProperty(globalThis, "Math", {
    configurable: true,
    get: () => {
      reads++;
      return real;
    },
  });
  try {
    fn();
  } finally {
    Object.defineProperty(globalThis, "Math", original);
  }
  return reads;
}

describe("the search index reads Math a bounded number of times", () => {
  test("load, search with pending documents and writes over 2,000 documents", () => {
    const docs = Array.from({ length: 2000 }, (_, i) => doc(i));
    const index = new InvertedIndex((d) => d.body);
    expect(countMathReads(() => index.load(docs))).toBe(0);

    const pending = new Map(Array.from({ length: 50 }, (_, i) => [`new${i}`, doc(5000 + i)] as const));
    const keep = () => true;
    let results: ReturnType<InvertedIndex["search"]> = [];
    const searchReads = countMathReads(() => {
      results = index.search(parseSearchQuery("comedy night c"), keep, new Map());
      index.search(parseSearchQuery("laugh factory"), keep, pending);
    });
    // The result is unchanged by the counting getter, and each search read Math
    // at most for its buffers (once, when they grow), not per posting.
    // Every document holds "comedy": the best 1,024 of the 2,000.
    expect(results).toHaveLength(1024);
    expect(results[0].doc.body).toMatch(/night/);
    expect(searchReads).toBeLessThanOrEqual(4);

    const writeReads = countMathReads(() => {
      for (let i = 0; i < 200; i++) index.apply(docs[i], doc(i, `late show ${i}`));
    });
    expect(writeReads).toBe(0);
  });
});
