import { describe, expect, it } from "vitest";
import { SIMILARITY_THRESHOLD, bestMatches, wordOverlapScore, wordSet } from "./similarity";

describe("wordOverlapScore", () => {
  it.each([
    ["Monday Night Mic", "monday night mic", 1],
    ["Monday Night Mic", "Tuesday Night Mic", 0.5],
    ["Monday Night Mic", "Monday Mic", 2 / 3],
    ["Open Mic", "Comedy Open Mic Night", 0.5],
    ["The Stand", "Joe's Pub", 0],
    ["Joe's Pub!", "joes pub", 1],
    ["Mic, Mic, mic", "mic", 1],
    ["", "anything", 0],
    ["!!!", "...", 0],
    ["Café Wha?", "cafe wha", 1],
  ])("%j vs %j = %d", (a, b, score) => {
    expect(wordOverlapScore(a, b)).toBeCloseTo(score, 10);
    expect(wordOverlapScore(b, a)).toBeCloseTo(score, 10);
  });

  it("word sets are lower-cased without punctuation", () => {
    expect([...wordSet("The Comedy-Cellar: LATE show!")]).toEqual(["the", "comedy", "cellar", "late", "show"]);
  });
});

describe("bestMatches", () => {
  const events = [
    { title: "Tuesday Open Mic" },
    { title: "Monday Night Mic" },
    { title: "Saturday Showcase" },
    { title: "Monday Night Mic Late" },
    { title: "Night Owls Mic" },
    { title: "Monday Mic" },
  ];
  const title = (e: { title: string }) => e.title;

  it("keeps scores above 0.2, best first, at most 3", () => {
    expect(bestMatches({ query: "Monday Night Mic", candidates: events, getText: title }).map(title)).toEqual([
      "Monday Night Mic",
      "Monday Night Mic Late",
      "Monday Mic",
    ]);
  });

  it("honours the limit and the threshold (exactly 0.2 is out)", () => {
    expect(bestMatches({ query: "Monday Night Mic", candidates: events, getText: title, limit: 1 }).map(title)).toEqual(
      ["Monday Night Mic"],
    );
    // {a, b, c} vs {a, d, e}: Jaccard 1/5 = 0.2 exactly.
    expect(wordOverlapScore("a b c", "a d e")).toBeCloseTo(SIMILARITY_THRESHOLD, 10);
    expect(bestMatches({ query: "a b c", candidates: [{ title: "a d e" }], getText: title })).toEqual([]);
    expect(bestMatches({ query: "a b", candidates: [{ title: "a c d" }], getText: title })).toEqual([
      { title: "a c d" },
    ]);
  });

  it("keeps input order on ties", () => {
    const tied = [{ title: "Mic One" }, { title: "Mic Two" }];
    expect(bestMatches({ query: "mic", candidates: tied, getText: title }).map(title)).toEqual(["Mic One", "Mic Two"]);
  });

  it("only looks at the first 20 candidates", () => {
    const many = [
      ...Array.from({ length: 20 }, (_, i) => ({ title: `Unrelated ${i}` })),
      { title: "Monday Night Mic" },
    ];
    expect(bestMatches({ query: "Monday Night Mic", candidates: many, getText: title })).toEqual([]);
    expect(bestMatches({ query: "Monday Night Mic", candidates: many.slice(1), getText: title }).map(title)).toEqual([
      "Monday Night Mic",
    ]);
  });
});
