import { describe, expect, it } from "vitest";
import { addTags, MAX_TAGS, QUICK_TAGS, remainingSuggestions, removeTag, splitTypedTags } from "./tags";

describe("tags", () => {
  it("adds trimmed tags and ignores empties and duplicates (any case)", () => {
    expect(addTags([], "  crowd work  ")).toEqual(["crowd work"]);
    expect(addTags(["riff"], "Riff, new bits,, ,new bits")).toEqual(["riff", "new bits"]);
  });

  it("caps the number of tags", () => {
    const many = Array.from({ length: MAX_TAGS }, (_, i) => `t${i}`);
    expect(addTags(many, "one more")).toHaveLength(MAX_TAGS);
  });

  it("turns text before a comma into tags while typing", () => {
    expect(splitTypedTags([], "hosted, bo")).toEqual({ tags: ["hosted"], rest: "bo" });
    expect(splitTypedTags(["a"], "no comma yet")).toEqual({ tags: ["a"], rest: "no comma yet" });
  });

  it("removes a tag", () => {
    expect(removeTag(["a", "b"], "a")).toEqual(["b"]);
  });

  it("suggests the quick-add tags not yet on the set", () => {
    expect(QUICK_TAGS).toEqual(["crowd work", "new bits", "riff", "hosted", "booked", "open mic"]);
    expect(remainingSuggestions(["Riff", "booked"])).toEqual(["crowd work", "new bits", "hosted", "open mic"]);
  });
});
