import type { Id } from "../../convex/_generated/dataModel";
import type { MutationCtx } from "../../convex/_generated/server";
import { earnedBadgeCodes } from "../../convex/lib/badges";
import {
  emptyWeekStreak,
  goalWeekStartOf,
  walkWeeks,
  weekStreakAsOf,
  type GoalWeek,
} from "../../convex/lib/weekStreaks";
import {
  addDaysToDate,
  DAY_MS,
  daysBetweenDates,
  dayOfWeekOfDate,
  HOUR_MS,
  localDateString,
  MINUTE_MS,
  zonedEpoch,
} from "../../convex/lib/time";
import { foldCheckIns } from "../../convex/model/micTriggers";
import { createProfileIfMissing } from "../../convex/model/profiles";
import {
  ADMIN_NAME,
  COMMUNITY_NAMES,
  DEMO_NAME,
  DEMO_NOTES,
  DEMO_SET_DAYS_AGO,
  DEMO_TAGS,
  SEED_ITEMS,
} from "./seedData";
import { insertSceneItem } from "../../convex/model/scene";
import { readCommunityStats, type CommunityStats } from "../../convex/model/stats";

const DEMO_TIME_ZONE = "America/New_York";
/** Cities the demo comedian performs in (her home scene). */
const HOME_CITIES = new Set(["New York", "Brooklyn"]);

/** Whether the database already has a scene (then seeding does nothing). */
export async function hasScene(ctx: MutationCtx): Promise<boolean> {
  return (await ctx.db.query("sceneItems").withIndex("by_creation_time").first()) !== null;
}

type PlannedSet = {
  itemIndex: number;
  date: string;
  minutes: number;
  performedAt: number;
  startsAt: number;
};

/** How much longer or shorter than the mic's set length each of her sets ran (by set, cycling). */
const SET_LENGTH_DRIFT = [0, 2, -1, 3, 0, 1, -2, 5];

/** The demo comedian's sets: on each listed day, a weekly evening mic or show of her home scene on that weekday. */
function planDemoSets(today: string): PlannedSet[] {
  const candidates = SEED_ITEMS.map((item, itemIndex) => ({ item, itemIndex })).filter(
    ({ item }) =>
      HOME_CITIES.has(item.city) &&
      item.recurrence === "weekly" &&
      (item.type === "open_mic" || item.type === "show") &&
      item.startTimeLocal !== undefined &&
      item.startTimeLocal >= "18:00",
  );
  const seenOnDate = new Map<string, number>();
  return DEMO_SET_DAYS_AGO.map((daysAgo, i) => {
    const date = addDaysToDate(today, -daysAgo);
    const weekday = dayOfWeekOfDate(date);
    const options = candidates.filter(({ item }) => item.dayOfWeek === weekday);
    const nthToday = seenOnDate.get(date) ?? 0;
    seenOnDate.set(date, nthToday + 1);
    const { item, itemIndex } = options[(daysAgo + nthToday) % options.length];
    const startsAt = zonedEpoch(date, item.startTimeLocal!, item.timeZone);
    const minutes = Math.max(3, (item.performanceMinutes ?? 5) + SET_LENGTH_DRIFT[i % SET_LENGTH_DRIFT.length]);
    // Somewhere in the mic's first hour or so; a second set that day comes from a later mic.
    const upAfter = 8 + ((i * 17) % 53);
    return { itemIndex, date, minutes, startsAt, performedAt: startsAt + upAfter * MINUTE_MS };
  });
}

/**
 * Days before the seed's day each listing was last confirmed (a check-in, its host, an
 * admin): most within the last ten days, a few weeks ago for some, long ago for one in 16.
 */
export function lastConfirmedDaysAgo(itemIndex: number): number {
  const k = itemIndex % 16;
  if (k < 13) return (itemIndex * 5) % 11;
  if (k < 15) return 20 + (itemIndex % 20);
  return 60;
}

/** One planned check-in by a community comedian (by index in COMMUNITY_NAMES). */
type PlannedCheckIn = { itemIndex: number; comedian: number; checkedInAt: number; localDate: string };

/**
 * The community's check-ins: at each weekly listing confirmed in the last ten days, one comedian at
 * its last night on or before that confirmation, and one or two more five and six weeks earlier, so
 * cards show recent check-ins without two comedians within 30 days (which would verify the mic).
 */
export function planCommunityCheckIns(today: string, nowMs: number): PlannedCheckIn[] {
  const planned: PlannedCheckIn[] = [];
  for (const [itemIndex, item] of SEED_ITEMS.entries()) {
    const confirmedDaysAgo = lastConfirmedDaysAgo(itemIndex);
    if (item.recurrence !== "weekly" || item.dayOfWeek === undefined || !item.startTimeLocal) continue;
    if (confirmedDaysAgo > 10) continue;
    let night = addDaysToDate(today, -confirmedDaysAgo);
    while (dayOfWeekOfDate(night) !== item.dayOfWeek) night = addDaysToDate(night, -1);
    const at = (date: string) => zonedEpoch(date, item.startTimeLocal!, item.timeZone) - 10 * MINUTE_MS;
    if (at(night) > nowMs) night = addDaysToDate(night, -7);
    const weeksBack = itemIndex % 3 === 0 ? [0, 5, 6] : itemIndex % 3 === 1 ? [0, 5] : [0, 6];
    weeksBack.forEach((weeks, k) => {
      const date = addDaysToDate(night, -7 * weeks);
      const comedian = (itemIndex + k) % COMMUNITY_NAMES.length;
      planned.push({ itemIndex, comedian, checkedInAt: at(date), localDate: date });
    });
  }
  return planned;
}

/**
 * Writes the demo scene, the demo comedian's history (sets, per-day and
 * per-venue rows, stats, badges, check-ins, favourites, schedule) and both
 * demo profiles, keeping the community figures in step. One transaction.
 */
export async function populate(
  ctx: MutationCtx,
  args: { demoUserId: Id<"users">; adminUserId: Id<"users">; now: number },
): Promise<CommunityStats & { mics: number }> {
  const { demoUserId, adminUserId, now } = args;
  const today = localDateString(now, DEMO_TIME_ZONE);

  // The scene, confirmed relative to today; a third of tonight's weekly nights by their host.
  const itemIds: Id<"sceneItems">[] = [];
  for (const [index, { addedByDemo, ...fields }] of SEED_ITEMS.entries()) {
    const id = await insertSceneItem(ctx, fields, { createdBy: addedByDemo ? demoUserId : undefined });
    itemIds.push(id);
    const localToday = localDateString(now, fields.timeZone);
    const hostConfirmsTonight =
      index % 3 === 0 && fields.recurrence === "weekly" && fields.dayOfWeek === dayOfWeekOfDate(localToday);
    const confirmedDaysAgo = lastConfirmedDaysAgo(index);
    await ctx.db.patch("sceneItems", id, {
      lastConfirmedAt: hostConfirmsTonight ? now - 2 * HOUR_MS : now - confirmedDaysAgo * DAY_MS - 3 * HOUR_MS,
      ...(hostConfirmsTonight ? { confirmedDates: [localToday] } : {}),
    });
  }
  const venuesAdded = SEED_ITEMS.filter((i) => i.addedByDemo).length;

  // Her weekly goal before her sets, so every goal week of her history has it.
  const DEMO_GOAL = 30;
  await ctx.db.patch("profiles", (await createProfileIfMissing(ctx, demoUserId))._id, { weeklyGoalMinutes: DEMO_GOAL });

  // The demo comedian's sets, oldest first.
  const sets = planDemoSets(today);
  const weeks = new Map<string, GoalWeek>();
  let bestWeekStreak = 0;
  const perItem = new Map<number, number>();
  const awarded = new Map<string, number>();
  let totalMinutes = 0;
  let run = 0;
  let longestRun = 0;
  let lastDate: string | undefined;
  for (const [i, set] of sets.entries()) {
    await ctx.db.insert("performances", {
      userId: demoUserId,
      minutes: set.minutes,
      performedAt: set.performedAt,
      performanceDate: set.date,
      sceneItemId: itemIds[set.itemIndex],
      tags: DEMO_TAGS[i % DEMO_TAGS.length],
      ...(DEMO_NOTES[i % DEMO_NOTES.length] ? { notes: DEMO_NOTES[i % DEMO_NOTES.length] } : {}),
    });
    totalMinutes += set.minutes;
    perItem.set(set.itemIndex, (perItem.get(set.itemIndex) ?? 0) + 1);
    if (set.date !== lastDate) {
      run = lastDate !== undefined && daysBetweenDates(lastDate, set.date) === 1 ? run + 1 : 1;
      lastDate = set.date;
    }
    longestRun = Math.max(longestRun, run);
    // Her week streak as it stood when this set was logged (lib/weekStreaks, as the triggers walk it).
    const weekStart = goalWeekStartOf(set.date);
    const week = weeks.get(weekStart) ?? { weekStart, minutes: 0, goal: DEMO_GOAL };
    weeks.set(weekStart, { ...week, minutes: week.minutes + set.minutes });
    const firstWeek = goalWeekStartOf(sets[0].date);
    const walked = walkWeeks(emptyWeekStreak(firstWeek), [...weeks.values()], weekStart);
    bestWeekStreak = Math.max(bestWeekStreak, weekStreakAsOf(walked, weeks.get(weekStart), set.date).longest);
    // Each badge is awarded at the set that first met its rule (her added mics predate her sets).
    const earned = earnedBadgeCodes({
      sets: i + 1,
      minutes: totalMinutes,
      uniqueVenues: perItem.size,
      venuesAdded,
      monthCheckIns: 0,
      currentStreak: run,
      longestStreak: longestRun,
      weekStreak: bestWeekStreak,
    });
    for (const code of earned) {
      if (!awarded.has(code)) awarded.set(code, set.performedAt);
    }
  }
  // Her totals, day and venue rows, the community minutes (each set) and the
  // venues she added (each mic) followed by themselves (model/statsTriggers).
  for (const [badgeCode, awardedAt] of awarded) {
    await ctx.db.insert("userBadges", { userId: demoUserId, badgeCode, awardedAt });
  }

  // She checked in at her three most recent sets (the mics' counters follow, model/micTriggers).
  for (const set of sets.slice(-3)) {
    const checkedInAt = set.startsAt - 15 * MINUTE_MS;
    const item = SEED_ITEMS[set.itemIndex];
    await ctx.db.insert("checkIns", {
      userId: demoUserId,
      sceneItemId: itemIds[set.itemIndex],
      checkedInAt,
      localDate: localDateString(checkedInAt, item.timeZone),
    });
  }
  // The community's check-ins (none at a mic where she checked in, so no mic has two verifiers).
  const hers = new Set(sets.slice(-3).map((set) => set.itemIndex));
  const community: Id<"users">[] = [];
  for (const name of COMMUNITY_NAMES) {
    const userId = await ctx.db.insert("users", { name });
    await ctx.db.patch("profiles", (await createProfileIfMissing(ctx, userId))._id, {
      displayName: name,
      memberSince: now - 90 * DAY_MS,
      needsOnboarding: false,
      onboardingCompleted: true,
    });
    community.push(userId);
  }
  const theirs = planCommunityCheckIns(today, now).filter((c) => !hers.has(c.itemIndex));
  for (const c of theirs) {
    await ctx.db.insert("checkIns", {
      userId: community[c.comedian],
      sceneItemId: itemIds[c.itemIndex],
      checkedInAt: c.checkedInAt,
      localDate: c.localDate,
    });
  }
  // Their badges, each at the check-in that first met its rule (a month's check-ins, by the mic's local date).
  for (const [comedian, userId] of community.entries()) {
    const months = new Map<string, number>();
    const held = new Set<string>();
    const mine = theirs.filter((c) => c.comedian === comedian).sort((a, b) => a.checkedInAt - b.checkedInAt);
    for (const c of mine) {
      const month = c.localDate.slice(0, 7);
      months.set(month, (months.get(month) ?? 0) + 1);
      const earned = earnedBadgeCodes({
        sets: 0,
        minutes: 0,
        uniqueVenues: 0,
        venuesAdded: 0,
        monthCheckIns: Math.max(...months.values()),
        currentStreak: 0,
        longestStreak: 0,
        weekStreak: 0,
      });
      for (const code of earned.filter((code) => !held.has(code))) {
        held.add(code);
        await ctx.db.insert("userBadges", { userId, badgeCode: code, awardedAt: c.checkedInAt });
      }
    }
  }
  // Check-ins reach the mic rows through a scheduled fold; the seed folds them now (its queue rows
  // may be stamped a moment past the clock) so the seeded scene is whole at once.
  for (const itemIndex of new Set([...hers, ...theirs.map((c) => c.itemIndex)])) {
    const micId = itemIds[itemIndex];
    while ((await foldCheckIns(ctx, { micId, nowMs: Date.now() + MINUTE_MS })).more);
  }

  // Favourites and a schedule for the coming week.
  const byTitle = (title: string) => {
    const index = SEED_ITEMS.findIndex((item) => item.title === title);
    if (index < 0) throw new Error(`No seeded item titled ${title}`);
    return itemIds[index];
  };
  for (const title of ["Basement Bombs Open Mic", "Stand-Up Showcase at the Velvet Room", "Williamsburg Wednesday"]) {
    await ctx.db.insert("favorites", { userId: demoUserId, sceneItemId: byTitle(title) });
  }
  const schedule: Array<[string, number]> = [
    ["Early Birds Mic", 3],
    ["Lower East Side Laughs", 10],
    ["Crown Heights Comedy Hour", 1],
  ];
  for (const [title, daysAgo] of schedule) {
    await ctx.db.insert("scheduleEntries", {
      userId: demoUserId,
      sceneItemId: byTitle(title),
      addedAt: now - daysAgo * 24 * 60 * MINUTE_MS,
    });
  }

  // Profiles: both exist already (created at sign-up); finish them.
  const [demoProfile, adminProfile] = [
    await createProfileIfMissing(ctx, demoUserId),
    await createProfileIfMissing(ctx, adminUserId),
  ];
  await ctx.db.patch("profiles", demoProfile._id, {
    displayName: DEMO_NAME,
    // She joined the day before her first set, so her history and badges follow it.
    memberSince: zonedEpoch(addDaysToDate(today, -(DEMO_SET_DAYS_AGO[0] + 1)), "12:00", DEMO_TIME_ZONE),
    needsOnboarding: false,
    onboardingCompleted: true,
    weeklyGoalMinutes: DEMO_GOAL,
    defaultCity: "New York",
    timeZone: DEMO_TIME_ZONE,
  });
  await ctx.db.patch("profiles", adminProfile._id, {
    displayName: ADMIN_NAME,
    needsOnboarding: false,
    onboardingCompleted: true,
    isAdmin: true,
    defaultCity: "Chicago",
    timeZone: "America/Chicago",
  });

  return { mics: itemIds.length, ...(await readCommunityStats(ctx)) };
}
