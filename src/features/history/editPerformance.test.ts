import { describe, expect, test } from "vitest";
import { editPerformanceSchema, parseMinutes, parseNotes, parseTags } from "./editPerformance";

describe("edit performance parsing (spec part 2 §5)", () => {
  test.each([
    ["7", 7],
    [" 12 ", 12],
    ["5.9", 5],
    ["abc", 0],
    ["", 0],
    ["-3", 0],
  ])("minutes %j -> %d", (text, minutes) => {
    expect(parseMinutes(text)).toBe(minutes);
  });

  test.each([
    ["crowd work, new bits", ["crowd work", "new bits"]],
    [" riff ,, ,hosted ", ["riff", "hosted"]],
    ["", null],
    [" , ", null],
  ])("tags %j -> %j", (text, tags) => {
    expect(parseTags(text)).toEqual(tags);
  });

  test("empty notes are null", () => {
    expect(parseNotes("")).toBeNull();
    expect(parseNotes("   ")).toBeNull();
    expect(parseNotes("tight five")).toBe("tight five");
  });

  test("the form gives the mutation's arguments, and refuses a missing date", () => {
    const parsed = editPerformanceSchema.parse({
      minutes: "x",
      date: "2026-03-04",
      time: "21:15",
      tags: "",
      notes: "",
    });
    expect(parsed).toEqual({
      minutes: 0,
      performedAt: new Date("2026-03-04T21:15").getTime(),
      tags: null,
      notes: null,
    });
    expect(
      editPerformanceSchema.safeParse({ minutes: "5", date: "", time: "21:15", tags: "", notes: "" }).success,
    ).toBe(false);
  });
});
