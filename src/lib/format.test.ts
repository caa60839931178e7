import { describe, expect, test } from "vitest";
import { formatCompact } from "./format";

describe("formatCompact", () => {
  test.each([
    [0, "0"],
    [-5, "0"],
    [Number.NaN, "0"],
    [7, "7"],
    [7.9, "7"],
    [999, "999"],
    [1000, "1k"],
    [1049, "1k"],
    [1234, "1.2k"],
    [1299, "1.2k"],
    [2500, "2.5k"],
    [15_300, "15.3k"],
    [123_456, "123k"],
    [999_999, "999k"],
    [1_000_000, "1M"],
    [1_290_000, "1.2M"],
    [3_000_000_000, "3B"],
  ])("%d → %s", (value, expected) => {
    expect(formatCompact(value)).toBe(expected);
  });
});
