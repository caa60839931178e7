import { describe, expect, it } from "vitest";
import type { Id } from "../../../convex/_generated/dataModel";
import { initialEventChoice, mergeMatches } from "./eventChoice";

const item = (id: string, title = id) => ({ _id: id as Id<"sceneItems">, title });

describe("event step choice", () => {
  it("preselects the only match", () => {
    expect(initialEventChoice([item("a", "Monday Mic")])).toEqual({
      kind: "existing",
      sceneItemId: "a",
      title: "Monday Mic",
    });
  });

  it("preselects 'none' without matches and nothing with several", () => {
    expect(initialEventChoice([])).toEqual({ kind: "none" });
    expect(initialEventChoice([item("a"), item("b")])).toBeNull();
  });

  it("lists the venue's events first and each event once", () => {
    expect(mergeMatches([item("a"), item("b")], [item("b"), item("c")]).map((m) => m._id)).toEqual(["a", "b", "c"]);
  });
});
