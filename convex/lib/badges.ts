/**
 * The fixed badges and the rules that decide them. Used by the
 * server (awarding in the same transaction as the change that earns a badge)
 * and by the showcase (progress, next milestone).
 */

export type BadgeMetric =
  "sets" | "minutes" | "uniqueVenues" | "venuesAdded" | "monthCheckIns" | "streak" | "weekStreak";
export type BadgeCategory = "performance" | "venue" | "community" | "streak";
export type BadgeRarity = "common" | "rare" | "epic" | "legendary";

/** The badge icons, drawn as SVG by the client (src/components/badges/BadgeIcon):
 * never emoji, which render as empty boxes where no emoji font is installed. */
export type BadgeIconName = "mic" | "stopwatch" | "pin" | "globe" | "people" | "flame" | "lightning" | "crown" | "star";

/** Each icon's accessible name: what it shows. */
export const BADGE_ICON_LABELS: Record<BadgeIconName, string> = {
  mic: "Microphone",
  stopwatch: "Stopwatch",
  pin: "Map pin",
  globe: "Globe",
  people: "People",
  flame: "Flame",
  lightning: "Lightning bolt",
  crown: "Crown",
  star: "Star",
};

export type BadgeDefinition = {
  code: string;
  name: string;
  description: string;
  icon: BadgeIconName;
  requirement: number;
  metric: BadgeMetric;
  category: BadgeCategory;
  rarity: BadgeRarity;
};

export const BADGES: readonly BadgeDefinition[] = [
  {
    code: "first_set",
    name: "First Timer",
    description: "Log your first set",
    icon: "mic",
    requirement: 1,
    metric: "sets",
    category: "performance",
    rarity: "common",
  },
  {
    code: "century_club",
    name: "Century Club",
    description: "Perform 100 lifetime minutes",
    icon: "stopwatch",
    requirement: 100,
    metric: "minutes",
    category: "performance",
    rarity: "rare",
  },
  {
    code: "scene_regular",
    name: "Scene Regular",
    description: "Perform at 10 different venues",
    icon: "pin",
    requirement: 10,
    metric: "uniqueVenues",
    category: "venue",
    rarity: "epic",
  },
  {
    code: "venue_pioneer",
    name: "Venue Pioneer",
    description: "Add your first venue to the scene",
    icon: "globe",
    requirement: 1,
    metric: "venuesAdded",
    category: "venue",
    rarity: "common",
  },
  {
    code: "community_builder",
    name: "Community Builder",
    description: "Check in 5 times in one calendar month",
    icon: "people",
    requirement: 5,
    metric: "monthCheckIns",
    category: "community",
    rarity: "rare",
  },
  {
    code: "streak_3",
    name: "Getting Started",
    description: "Perform 3 days in a row",
    icon: "flame",
    requirement: 3,
    metric: "streak",
    category: "streak",
    rarity: "common",
  },
  {
    code: "streak_master",
    name: "Streak Master",
    description: "Perform 7 days in a row",
    icon: "lightning",
    requirement: 7,
    metric: "streak",
    category: "streak",
    rarity: "epic",
  },
  {
    code: "streak_legend",
    name: "Streak Legend",
    description: "Perform 30 days in a row",
    icon: "crown",
    requirement: 30,
    metric: "streak",
    category: "streak",
    rarity: "legendary",
  },
  {
    code: "week_streak_4",
    name: "Steady Month",
    description: "Meet your weekly goal 4 weeks in a row",
    icon: "star",
    requirement: 4,
    metric: "weekStreak",
    category: "streak",
    rarity: "common",
  },
  {
    code: "week_streak_12",
    name: "Road Dog",
    description: "Meet your weekly goal 12 weeks in a row",
    icon: "lightning",
    requirement: 12,
    metric: "weekStreak",
    category: "streak",
    rarity: "epic",
  },
  {
    code: "week_streak_52",
    name: "Year on Stage",
    description: "Meet your weekly goal 52 weeks in a row",
    icon: "crown",
    requirement: 52,
    metric: "weekStreak",
    category: "streak",
    rarity: "legendary",
  },
];

/** How many earned badges the dashboard showcase shows. */
export const BADGE_SHOWCASE_COUNT = 3;

/** Labels for rarities other than common (the showcase shows no label for common). */
export const RARITY_LABELS: Record<BadgeRarity, string | null> = {
  common: null,
  rare: "Rare",
  epic: "Epic",
  legendary: "Legendary",
};

export type BadgeInputs = {
  sets: number;
  minutes: number;
  uniqueVenues: number;
  venuesAdded: number;
  /** Check-ins since the first day of the current calendar month. */
  monthCheckIns: number;
  currentStreak: number;
  longestStreak: number;
  /** The longest week streak (weeks in a row with the weekly goal met). */
  weekStreak: number;
};

export type BadgeProgress = {
  code: string;
  current: number;
  required: number;
  /** current / required as a whole percentage, rounded, 100 only once met. */
  percentage: number;
  met: boolean;
};

/** The definition of a code, or undefined for an unknown code. */
export function badgeByCode(code: string): BadgeDefinition | undefined {
  return BADGES.find((b) => b.code === code);
}

/** Streak badges count the better of the current and longest streak. */
function metricValue(metric: BadgeMetric, inputs: BadgeInputs): number {
  switch (metric) {
    case "streak":
      return Math.max(inputs.currentStreak, inputs.longestStreak);
    default:
      return inputs[metric];
  }
}

/**
 * Progress towards every badge, in definition order: percentages rounded to
 * the nearest, and 99 at most until the badge is met.
 */
export function badgeProgress(inputs: BadgeInputs): BadgeProgress[] {
  return BADGES.map((b) => {
    const current = metricValue(b.metric, inputs);
    return {
      code: b.code,
      current,
      required: b.requirement,
      // Rounded to the nearest ("2 of 3" is 67%), but never 100% before it is met.
      percentage:
        current >= b.requirement ? 100 : Math.max(0, Math.min(99, Math.round((current / b.requirement) * 100))),
      met: current >= b.requirement,
    };
  });
}

/** Codes of every badge whose requirement the inputs meet, in definition order. */
export function earnedBadgeCodes(inputs: BadgeInputs): string[] {
  return badgeProgress(inputs)
    .filter((p) => p.met)
    .map((p) => p.code);
}

/**
 * The showcase's Next Milestone: the unearned badge with the highest progress
 * above 0% (the first in definition order on a tie), or null.
 */
export function nextMilestone(progress: BadgeProgress[], earnedCodes: readonly string[]): string | null {
  let best: BadgeProgress | null = null;
  for (const p of progress) {
    if (earnedCodes.includes(p.code) || p.percentage <= 0) continue;
    if (best === null || p.percentage > best.percentage) best = p;
  }
  return best?.code ?? null;
}

/** The showcase's percent complete: earned badges over all badges, rounded. */
export function badgeCollectionPercent(earnedCount: number): number {
  return Math.min(100, Math.round((earnedCount / BADGES.length) * 100));
}
