import { describe, expect, it } from "vitest";
import type { Id } from "@convex/_generated/dataModel";
import { initialEventChoice, otherMatches } from "./eventChoice";

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

  it("offers as similar only the events that are not the venue's own", () => {
    expect(otherMatches([item("a"), item("b")], [item("b"), item("c")]).map((m) => m._id)).toEqual(["c"]);
  });
});
