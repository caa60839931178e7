import type { Id } from "../../convex/_generated/dataModel";
import type { MutationCtx } from "../../convex/_generated/server";
import { earnedBadgeCodes } from "../../convex/lib/badges";
import {
  addDaysToDate,
  daysBetweenDates,
  dayOfWeekOfDate,
  localDateString,
  MINUTE_MS,
  zonedEpoch,
} from "../../convex/lib/time";
import { createProfileIfMissing } from "../../convex/model/profiles";
import { ADMIN_NAME, DEMO_NAME, DEMO_NOTES, DEMO_SET_DAYS_AGO, DEMO_TAGS, SEED_ITEMS } from "./seedData";
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

/** The demo comedian's sets: on each listed day, a weekly mic or show of her home scene on that weekday. */
function planDemoSets(today: string): PlannedSet[] {
  const candidates = SEED_ITEMS.map((item, itemIndex) => ({ item, itemIndex })).filter(
    ({ item }) =>
      HOME_CITIES.has(item.city) &&
      item.recurrence === "weekly" &&
      (item.type === "open_mic" || item.type === "show") &&
      item.startTimeLocal !== undefined,
  );
  const seenOnDate = new Map<string, number>();
  return DEMO_SET_DAYS_AGO.map((daysAgo) => {
    const date = addDaysToDate(today, -daysAgo);
    const weekday = dayOfWeekOfDate(date);
    const options = candidates.filter(({ item }) => item.dayOfWeek === weekday);
    const nthToday = seenOnDate.get(date) ?? 0;
    seenOnDate.set(date, nthToday + 1);
    const { item, itemIndex } = options[(daysAgo + nthToday) % options.length];
    const startsAt = zonedEpoch(date, item.startTimeLocal!, item.timeZone);
    const minutes = item.performanceMinutes ?? 5;
    // Comics go up somewhere in the first hour of a mic; a second set that day is later.
    return { itemIndex, date, minutes, startsAt, performedAt: startsAt + (25 + 10 * nthToday) * MINUTE_MS };
  });
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

  // The scene.
  const itemIds: Id<"sceneItems">[] = [];
  for (const { addedByDemo, ...fields } of SEED_ITEMS) {
    itemIds.push(await insertSceneItem(ctx, fields, { createdBy: addedByDemo ? demoUserId : undefined }));
  }
  const venuesAdded = SEED_ITEMS.filter((i) => i.addedByDemo).length;

  // The demo comedian's sets, oldest first.
  const sets = planDemoSets(today);
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
    // Each badge is awarded at the set that first met its rule (her added mics predate her sets).
    const earned = earnedBadgeCodes({
      sets: i + 1,
      minutes: totalMinutes,
      uniqueVenues: perItem.size,
      venuesAdded,
      monthCheckIns: 0,
      currentStreak: run,
      longestStreak: longestRun,
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
    needsOnboarding: false,
    onboardingCompleted: true,
    weeklyGoalMinutes: 30,
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
