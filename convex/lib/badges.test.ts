import { describe, expect, it } from "vitest";
import {
  BADGES,
  BADGE_ICON_LABELS,
  RARITY_LABELS,
  badgeByCode,
  badgeCollectionPercent,
  badgeProgress,
  earnedBadgeCodes,
  nextMilestone,
  type BadgeInputs,
} from "./badges";

const zero: BadgeInputs = {
  sets: 0,
  minutes: 0,
  uniqueVenues: 0,
  venuesAdded: 0,
  monthCheckIns: 0,
  currentStreak: 0,
  longestStreak: 0,
  weekStreak: 0,
};

describe("BADGES", () => {
  it("holds the 8 badges of the spec and the 3 week streak badges", () => {
    expect(BADGES.map((b) => [b.code, b.name, b.requirement, b.category, b.rarity])).toEqual([
      ["first_set", "First Timer", 1, "performance", "common"],
      ["century_club", "Century Club", 100, "performance", "rare"],
      ["scene_regular", "Scene Regular", 10, "venue", "epic"],
      ["venue_pioneer", "Venue Pioneer", 1, "venue", "common"],
      ["community_builder", "Community Builder", 5, "community", "rare"],
      ["streak_3", "Getting Started", 3, "streak", "common"],
      ["streak_master", "Streak Master", 7, "streak", "epic"],
      ["streak_legend", "Streak Legend", 30, "streak", "legendary"],
      ["week_streak_4", "Steady Month", 4, "streak", "common"],
      ["week_streak_12", "Road Dog", 12, "streak", "epic"],
      ["week_streak_52", "Year on Stage", 52, "streak", "legendary"],
    ]);
    for (const b of BADGES) {
      expect(b.description.length).toBeGreaterThan(0);
      expect(b.icon.length).toBeGreaterThan(0);
      // A named SVG icon, not an emoji (which needs an emoji font to render).
      expect(Object.keys(BADGE_ICON_LABELS)).toContain(b.icon);
      expect(b.icon).not.toMatch(/\p{Extended_Pictographic}/u);
    }
    expect(badgeByCode("streak_master")?.name).toBe("Streak Master");
    expect(badgeByCode("nope")).toBeUndefined();
    expect(RARITY_LABELS.common).toBeNull();
    expect(RARITY_LABELS.legendary).toBe("Legendary");
  });
});

describe("earning each badge at its threshold and not one below", () => {
  it.each<[string, Partial<BadgeInputs>, Partial<BadgeInputs>]>([
    ["first_set", { sets: 1 }, { sets: 0 }],
    ["century_club", { minutes: 100 }, { minutes: 99 }],
    ["scene_regular", { uniqueVenues: 10 }, { uniqueVenues: 9 }],
    ["venue_pioneer", { venuesAdded: 1 }, { venuesAdded: 0 }],
    ["community_builder", { monthCheckIns: 5 }, { monthCheckIns: 4 }],
    ["streak_3", { currentStreak: 3 }, { currentStreak: 2, longestStreak: 2 }],
    ["streak_3", { longestStreak: 3 }, { longestStreak: 2 }],
    ["streak_master", { currentStreak: 7, longestStreak: 7 }, { currentStreak: 6, longestStreak: 6 }],
    ["streak_master", { currentStreak: 1, longestStreak: 7 }, { currentStreak: 1, longestStreak: 6 }],
    ["streak_legend", { currentStreak: 30 }, { currentStreak: 29, longestStreak: 29 }],
    ["week_streak_4", { weekStreak: 4 }, { weekStreak: 3 }],
    ["week_streak_12", { weekStreak: 12 }, { weekStreak: 11 }],
    ["week_streak_52", { weekStreak: 52 }, { weekStreak: 51 }],
  ])("%s: %o earns it, %o does not", (code, at, below) => {
    expect(earnedBadgeCodes({ ...zero, ...at })).toContain(code);
    expect(earnedBadgeCodes({ ...zero, ...below })).not.toContain(code);
  });

  it("earns nothing from zero and everything from a full history", () => {
    expect(earnedBadgeCodes(zero)).toEqual([]);
    const all = {
      sets: 50,
      minutes: 400,
      uniqueVenues: 12,
      venuesAdded: 2,
      monthCheckIns: 6,
      currentStreak: 0,
      longestStreak: 31,
      weekStreak: 52,
    };
    expect(earnedBadgeCodes(all)).toEqual(BADGES.map((b) => b.code));
  });
});

describe("badgeProgress", () => {
  it("reports current over required, capped at 100 and rounded down", () => {
    const progress = badgeProgress({
      ...zero,
      sets: 3,
      minutes: 67,
      uniqueVenues: 9,
      currentStreak: 2,
      longestStreak: 5,
    });
    const byCode = Object.fromEntries(progress.map((p) => [p.code, p]));
    expect(byCode.first_set).toEqual({ code: "first_set", current: 3, required: 1, percentage: 100, met: true });
    expect(byCode.century_club).toEqual({
      code: "century_club",
      current: 67,
      required: 100,
      percentage: 67,
      met: false,
    });
    expect(byCode.scene_regular.percentage).toBe(90);
    expect(byCode.streak_3).toEqual({ code: "streak_3", current: 5, required: 3, percentage: 100, met: true });
    expect(byCode.streak_master).toEqual({
      code: "streak_master",
      current: 5,
      required: 7,
      percentage: 71,
      met: false,
    });
    // 5 of 30 is 16.7%: rounded, not cut down.
    expect(byCode.streak_legend.percentage).toBe(17);
    expect(byCode.venue_pioneer.percentage).toBe(0);
    expect(badgeProgress({ ...zero, minutes: 99.9 })[1].percentage).toBe(99);
    // "2 of 3 · 67%", never 66%.
    const twoOfThree = badgeProgress({ ...zero, currentStreak: 2, longestStreak: 2 }).find(
      (p) => p.code === "streak_3",
    );
    expect(twoOfThree).toMatchObject({ current: 2, required: 3, percentage: 67 });
  });
});

describe("nextMilestone", () => {
  it.each<[string, Partial<BadgeInputs>, string[], string | null]>([
    ["nothing started", {}, [], null],
    ["closest unearned", { sets: 1, minutes: 40, uniqueVenues: 1 }, ["first_set"], "century_club"],
    [
      "skips earned badges even when met",
      { sets: 1, minutes: 5, monthCheckIns: 4 },
      ["first_set"],
      "community_builder",
    ],
    ["streak progress counts", { sets: 2, currentStreak: 2 }, ["first_set"], "streak_3"],
    ["ties go to the first in definition order", { minutes: 50, uniqueVenues: 5 }, [], "century_club"],
    [
      "all earned",
      { sets: 50, minutes: 400, uniqueVenues: 12, venuesAdded: 2, monthCheckIns: 6, longestStreak: 31, weekStreak: 52 },
      BADGES.map((b) => b.code),
      null,
    ],
  ])("%s", (_name, inputs, earned, expected) => {
    expect(nextMilestone(badgeProgress({ ...zero, ...inputs }), earned)).toBe(expected);
  });
});

describe("badgeCollectionPercent", () => {
  it.each([
    [0, 0],
    [1, 9],
    [3, 27],
    [4, 36],
    [11, 100],
  ])("%d of 11 -> %d%%", (n, pct) => {
    expect(badgeCollectionPercent(n)).toBe(pct);
  });
});
