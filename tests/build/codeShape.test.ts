import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without types
import { measure } from "../../scripts/codeMeasures.mjs";

type Measures = {
  convexCycles: string[][];
  srcCycles: string[][];
  docRefs: string[];
  deepConvexImports: string[];
  longComments: string[];
};

describe("code shape", () => {
  const m = measure() as Measures;

  it("has no import cycles in convex/ or src/", () => {
    expect(m.convexCycles).toEqual([]);
    expect(m.srcCycles).toEqual([]);
  });

  it("has no comment pointing at the spec documents, which are not in the repository", () => {
    expect(m.docRefs).toEqual([]);
  });

  // Only the modules vite.config.ts loads before its aliases apply (src/) keep them.
  it("imports convex/ through the @convex alias from outside it", () => {
    expect(m.deepConvexImports.length).toBeLessThanOrEqual(6);
  });

  it("keeps comments beside what they explain: few blocks of ten lines or more", () => {
    expect(m.longComments.length).toBeLessThanOrEqual(0);
  });
});
