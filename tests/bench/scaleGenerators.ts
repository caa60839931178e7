/**
 * The generators of the national-size data (tests/bench/scaleData.ts writes
 * them as a snapshot): mics spread over US metro areas in proportion to their
 * size, and comedians whose set counts follow a long tail (most log a few sets,
 * a handful log thousands). Deterministic for a given seed.
 */
import { earnedBadgeCodes } from "@convex/lib/badges";
import { computeStreaks } from "@convex/lib/streaks";
import { micGeoFields, micSearchText } from "@convex/model/micTriggers";

/** [city, lat, lng, relative weight (~metro population in millions), IANA zone] */
export const METROS: Array<[string, number, number, number, string]> = [
  ["New York", 40.7128, -74.006, 19.5, "America/New_York"],
  ["Los Angeles", 34.0522, -118.2437, 13.0, "America/Los_Angeles"],
  ["Chicago", 41.8781, -87.6298, 9.4, "America/Chicago"],
  ["Dallas", 32.7767, -96.797, 7.6, "America/Chicago"],
  ["Houston", 29.7604, -95.3698, 7.1, "America/Chicago"],
  ["Washington", 38.9072, -77.0369, 6.3, "America/New_York"],
  ["Philadelphia", 39.9526, -75.1652, 6.2, "America/New_York"],
  ["Miami", 25.7617, -80.1918, 6.1, "America/New_York"],
  ["Atlanta", 33.749, -84.388, 6.1, "America/New_York"],
  ["Boston", 42.3601, -71.0589, 4.9, "America/New_York"],
  ["Phoenix", 33.4484, -112.074, 4.9, "America/Phoenix"],
  ["San Francisco", 37.7749, -122.4194, 4.7, "America/Los_Angeles"],
  ["Riverside", 33.9806, -117.3755, 4.6, "America/Los_Angeles"],
  ["Detroit", 42.3314, -83.0458, 4.3, "America/Detroit"],
  ["Seattle", 47.6062, -122.3321, 4.0, "America/Los_Angeles"],
  ["Minneapolis", 44.9778, -93.265, 3.7, "America/Chicago"],
  ["San Diego", 32.7157, -117.1611, 3.3, "America/Los_Angeles"],
  ["Tampa", 27.9506, -82.4572, 3.2, "America/New_York"],
  ["Denver", 39.7392, -104.9903, 3.0, "America/Denver"],
  ["Baltimore", 39.2904, -76.6122, 2.8, "America/New_York"],
  ["St. Louis", 38.627, -90.1994, 2.8, "America/Chicago"],
  ["Orlando", 28.5383, -81.3792, 2.7, "America/New_York"],
  ["Charlotte", 35.2271, -80.8431, 2.7, "America/New_York"],
  ["San Antonio", 29.4241, -98.4936, 2.6, "America/Chicago"],
  ["Portland", 45.5152, -122.6784, 2.5, "America/Los_Angeles"],
  ["Sacramento", 38.5816, -121.4944, 2.4, "America/Los_Angeles"],
  ["Pittsburgh", 40.4406, -79.9959, 2.4, "America/New_York"],
  ["Austin", 30.2672, -97.7431, 2.4, "America/Chicago"],
  ["Las Vegas", 36.1699, -115.1398, 2.3, "America/Los_Angeles"],
  ["Cincinnati", 39.1031, -84.512, 2.3, "America/New_York"],
  ["Kansas City", 39.0997, -94.5786, 2.2, "America/Chicago"],
  ["Columbus", 39.9612, -82.9988, 2.1, "America/New_York"],
  ["Indianapolis", 39.7684, -86.1581, 2.1, "America/Indiana/Indianapolis"],
  ["Cleveland", 41.4993, -81.6944, 2.1, "America/New_York"],
  ["Nashville", 36.1627, -86.7816, 2.0, "America/Chicago"],
  ["San Jose", 37.3382, -121.8863, 2.0, "America/Los_Angeles"],
  ["Virginia Beach", 36.8529, -75.978, 1.8, "America/New_York"],
  ["Jacksonville", 30.3322, -81.6557, 1.6, "America/New_York"],
  ["Providence", 41.824, -71.4128, 1.6, "America/New_York"],
  ["Milwaukee", 43.0389, -87.9065, 1.6, "America/Chicago"],
  ["Raleigh", 35.7796, -78.6382, 1.4, "America/New_York"],
  ["Oklahoma City", 35.4676, -97.5164, 1.4, "America/Chicago"],
  ["Memphis", 35.1495, -90.049, 1.3, "America/Chicago"],
  ["Louisville", 38.2527, -85.7585, 1.3, "America/New_York"],
  ["Salt Lake City", 40.7608, -111.891, 1.3, "America/Denver"],
  ["New Orleans", 29.9511, -90.0715, 1.3, "America/Chicago"],
  ["Richmond", 37.5407, -77.436, 1.3, "America/New_York"],
  ["Buffalo", 42.8864, -78.8784, 1.1, "America/New_York"],
  ["Birmingham", 33.5186, -86.8104, 1.1, "America/Chicago"],
  ["Albuquerque", 35.0844, -106.6504, 0.9, "America/Denver"],
  ["Omaha", 41.2565, -95.9345, 0.97, "America/Chicago"],
  ["Boise", 43.615, -116.2023, 0.8, "America/Boise"],
  ["Anchorage", 61.2181, -149.9003, 0.4, "America/Anchorage"],
  ["Honolulu", 21.3069, -157.8583, 1.0, "Pacific/Honolulu"],
];

/** A small, fast, seedable PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function gaussian(random: () => number): number {
  const u = Math.max(random(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

function pickMetro(random: () => number) {
  const total = METROS.reduce((sum, m) => sum + m[3], 0);
  let x = random() * total;
  for (const metro of METROS) {
    x -= metro[3];
    if (x <= 0) return metro;
  }
  return METROS[METROS.length - 1];
}

const NAMES_A = ["Laugh", "Punch", "Open", "Late", "Brick", "Velvet", "Basement", "Corner", "Neon", "Back"];
const NAMES_B = ["Factory", "Line", "Room", "Lounge", "Cellar", "Stage", "Tap", "Club", "House", "Bar"];
const START_TIMES = ["18:00", "18:30", "19:00", "19:30", "20:00", "20:30", "21:00", "21:30", "22:00", "23:00"];

/** The stored fields of a generated mic (a `sceneItems` document without system fields). */
export type GeneratedMic = {
  title: string;
  venueName: string;
  city: string;
  type: "open_mic" | "show";
  latitude: number;
  longitude: number;
  dayOfWeek: number;
  startTimeLocal: string;
  recurrence: "weekly";
  signupMethod: "in_person" | "online";
  costInfo: { type: "free" } | { type: "cover"; coverAmount: number };
  performanceMinutes: number;
  timeZone: string;
  status: "active";
  checkInCount: number;
  verifiedCheckIns30d: number;
  geohash: string | undefined;
  areaCell: string | undefined;
  searchText: string;
};

/**
 * Mic number `index` of a national scene: a metro chosen by size, a point with
 * a normal spread of ~0.12° (about 8 miles) around its centre. `near` pins
 * every mic to one metro (the browser benchmark's "1,000 mics in the area").
 */
export function generateMic(index: number, seed = 1, near?: string): GeneratedMic {
  const random = rng(seed * 1_000_003 + index);
  const metro = near ? (METROS.find((m) => m[0] === near) ?? METROS[0]) : pickMetro(random);
  const [city, lat0, lng0, , timeZone] = metro;
  const latitude = Math.round((lat0 + gaussian(random) * 0.12) * 1e6) / 1e6;
  const longitude = Math.round((lng0 + gaussian(random) * 0.12) * 1e6) / 1e6;
  const venueName = `${NAMES_A[Math.floor(random() * NAMES_A.length)]} ${NAMES_B[Math.floor(random() * NAMES_B.length)]} #${index}`;
  const type = random() < 0.8 ? "open_mic" : "show";
  const title = `${type === "open_mic" ? "Open Mic" : "Showcase"} at ${venueName}`;
  return {
    title,
    venueName,
    city,
    type,
    latitude,
    longitude,
    dayOfWeek: Math.floor(random() * 7),
    startTimeLocal: START_TIMES[Math.floor(random() * START_TIMES.length)],
    recurrence: "weekly",
    signupMethod: random() < 0.7 ? "in_person" : "online",
    costInfo: random() < 0.6 ? { type: "free" } : { type: "cover", coverAmount: 5 + Math.floor(random() * 4) * 5 },
    performanceMinutes: [3, 5, 5, 7, 10][Math.floor(random() * 5)],
    timeZone,
    status: "active",
    checkInCount: 0,
    verifiedCheckIns30d: 0,
    ...micGeoFields({ latitude, longitude }),
    searchText: micSearchText({ title, venueName, city }),
  };
}

/**
 * How many sets comedian `index` has logged: comedian 0 has exactly `maxSets`
 * (the benchmark's heavy user); the others follow a long tail,
 * `maxSets^(u^3)` for uniform u, so most have a handful and a few thousands.
 */
export function setCountFor(index: number, maxSets: number, seed = 1): number {
  if (index === 0) return maxSets;
  const u = rng(seed * 7919 + index)();
  return Math.max(1, Math.min(maxSets, Math.floor(maxSets ** (u ** 3))));
}

export const DAY_MS = 24 * 60 * 60 * 1000;

export type GeneratedSet = {
  minutes: number;
  performedAt: number;
  performanceDate: string;
  micIndex: number;
  tags: string[];
};

/**
 * `count` sets for one comedian, newest first, at up to 3 a night, going back
 * from `nowMs` over as many nights as needed; each at one of `homeMics`
 * (indexes of mics). Dates are in UTC (the generated comedians' zone).
 */
export function generateSets(count: number, homeMics: number[], nowMs: number, seed: number): GeneratedSet[] {
  const random = rng(seed);
  const sets: GeneratedSet[] = [];
  let night = 0;
  while (sets.length < count) {
    // Skip some nights: a working comic is out 4-6 nights a week.
    if (random() < 0.25) {
      night++;
      continue;
    }
    const perNight = 1 + Math.floor(random() * 3);
    for (let k = 0; k < perNight && sets.length < count; k++) {
      const performedAt = nowMs - night * DAY_MS - (2 + k) * 60 * 60 * 1000;
      sets.push({
        minutes: [3, 5, 5, 5, 7, 10, 15][Math.floor(random() * 7)],
        performedAt,
        performanceDate: new Date(performedAt).toISOString().slice(0, 10),
        micIndex: homeMics[Math.floor(random() * homeMics.length)],
        tags: random() < 0.2 ? ["new material"] : [],
      });
    }
    night++;
  }
  return sets;
}

/** The stats row, day rows, venue visits and earned badge codes that match a comedian's sets. */
export function summarizeSets(sets: GeneratedSet[], todayDate: string) {
  const days = new Map<string, number>();
  const venues = new Map<number, number>();
  let totalMinutes = 0;
  for (const set of sets) {
    totalMinutes += set.minutes;
    days.set(set.performanceDate, (days.get(set.performanceDate) ?? 0) + 1);
    venues.set(set.micIndex, (venues.get(set.micIndex) ?? 0) + 1);
  }
  const dates = [...days.keys()].sort();
  const streaks = computeStreaks(dates, todayDate);
  const badges = earnedBadgeCodes({
    sets: sets.length,
    minutes: totalMinutes,
    uniqueVenues: venues.size,
    venuesAdded: 0,
    monthCheckIns: 0,
    currentStreak: streaks.current,
    longestStreak: streaks.longest,
    // No week rows are generated, so no week streak.
    weekStreak: 0,
  });
  return {
    badges,
    stats: {
      totalMinutes,
      totalSets: sets.length,
      uniqueVenues: venues.size,
      currentStreak: streaks.current,
      longestStreak: streaks.longest,
      lastSetDate: dates[dates.length - 1],
      venuesAdded: 0,
    },
    days,
    venues,
  };
}
