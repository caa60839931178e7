import { describe, expect, test } from "vitest";
import { elapsedText, setLight } from "./setLight";

describe("the set light", () => {
  const minute = 60_000;
  test("green, then the light for the last minute of a 5-minute set, then red", () => {
    expect(setLight(0, 5, 1)).toBe("green");
    expect(setLight(4 * minute - 1, 5, 1)).toBe("green");
    expect(setLight(4 * minute, 5, 1)).toBe("light");
    expect(setLight(5 * minute - 1, 5, 1)).toBe("light");
    expect(setLight(5 * minute, 5, 1)).toBe("red");
    expect(elapsedText(4 * minute + 5_000)).toBe("4:05");
  });
});
