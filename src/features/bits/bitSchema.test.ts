import { describe, expect, test } from "vitest";
import { BIT_SECONDS_MESSAGE, BIT_TAG_TOO_LONG, BIT_TITLE_REQUIRED, MAX_BIT_TAG_LENGTH } from "@convex/lib/bitRules";
import { bitDefaults, bitSchema, parseBitLength, parseBitTags } from "./bitSchema";

describe("bit form", () => {
  test.each([
    ["", undefined],
    ["90", 90],
    ["1:30", 90],
    [" 12:05 ", 725],
    ["1:75", Number.NaN],
    ["abc", Number.NaN],
  ])("length %j is %s seconds", (text, seconds) => {
    expect(parseBitLength(text)).toEqual(seconds);
  });

  test("tags are split on commas, trimmed, without repeats", () => {
    expect(parseBitTags(" travel, Travel ,, crowd ")).toEqual(["travel", "crowd"]);
  });

  test("parses what the server takes and refuses what it refuses", () => {
    const ok = bitSchema.safeParse({ ...bitDefaults(), title: " Dentist ", length: "2:00", tags: "a, b" });
    expect(ok.success && ok.data).toEqual({
      title: "Dentist",
      notes: undefined,
      tags: ["a", "b"],
      seconds: 120,
      status: "new",
    });
    const bad = bitSchema.safeParse({ ...bitDefaults(), title: " ", length: "3600" });
    expect(bad.success).toBe(false);
    const messages = bad.error?.issues.map((i) => i.message);
    expect(messages).toContain(BIT_TITLE_REQUIRED);
  });

  test("a length past half an hour is refused with the server's message", () => {
    const bad = bitSchema.safeParse({ ...bitDefaults(), title: "Long", length: "31:00" });
    expect(bad.error?.issues.map((i) => i.message)).toEqual([BIT_SECONDS_MESSAGE]);
  });

  test("every field's problem shows at once, not one after another", () => {
    const bad = bitSchema.safeParse({
      ...bitDefaults(),
      title: " ",
      length: "99:99",
      tags: `ok, ${"t".repeat(MAX_BIT_TAG_LENGTH + 1)}`,
    });
    expect(bad.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["title", BIT_TITLE_REQUIRED],
      ["tags", BIT_TAG_TOO_LONG],
      ["length", BIT_SECONDS_MESSAGE],
    ]);
  });
});
