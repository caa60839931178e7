import { describe, expect, it } from "vitest";
import { badgeToast, newBadgeCodes } from "./newBadges";

const list = (...codes: string[]) => codes.map((code, i) => ({ code, awardedAt: i }));

describe("badge toasts", () => {
  it("announces nothing on the first load", () => {
    expect(newBadgeCodes(null, list("first_set", "venue_pioneer"))).toEqual([]);
  });

  it("announces each code that appears after the first load", () => {
    expect(newBadgeCodes(new Set(["first_set"]), list("first_set", "streak_3", "century_club"))).toEqual([
      "streak_3",
      "century_club",
    ]);
    expect(newBadgeCodes(new Set(["first_set"]), list("first_set"))).toEqual([]);
  });

  it("says 'Badge earned: {name}' with the icon and description", () => {
    expect(badgeToast("first_set")).toEqual({
      title: "Badge earned: First Timer",
      description: "Log your first set",
      icon: "mic",
    });
    expect(badgeToast("nope").icon).toBe("star");
  });
});
