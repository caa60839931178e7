import { describe, expect, test } from "vitest";
import { editPerformanceSchema, parseNotes, parseTags } from "./editPerformance";

describe("edit performance parsing", () => {
  const values = { date: "2026-03-04", time: "21:15", tags: "", notes: "" };
  test.each([
    ["7", 7],
    [" 12 ", 12],
    ["1", 1],
    ["600", 600],
  ])("minutes %j -> %d", (text, minutes) => {
    expect(editPerformanceSchema.parse({ ...values, minutes: text }).minutes).toBe(minutes);
  });

  test.each(["abc", "", "-3", "0", "5.9", "601"])("minutes %j are refused with the server's message", (text) => {
    const parsed = editPerformanceSchema.safeParse({ ...values, minutes: text });
    expect(parsed.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["minutes", "Minutes must be a whole number from 1 to 600"],
    ]);
  });

  test("notes past 2,000 characters are refused with the server's message", () => {
    const parsed = editPerformanceSchema.safeParse({ ...values, minutes: "5", notes: "x".repeat(2001) });
    expect(parsed.error?.issues.map((i) => i.message)).toEqual(["Notes must be 2000 characters or fewer"]);
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
      minutes: "8",
      date: "2026-03-04",
      time: "21:15",
      tags: "",
      notes: "",
    });
    expect(parsed).toEqual({
      minutes: 8,
      performedAt: new Date("2026-03-04T21:15").getTime(),
      tags: null,
      notes: null,
    });
    expect(
      editPerformanceSchema.safeParse({ minutes: "5", date: "", time: "21:15", tags: "", notes: "" }).success,
    ).toBe(false);
  });
});
