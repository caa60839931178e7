/**
 * Badge invariants: every badge row has a known code, one row per code, and
 * every badge whose rule the comedian's stored totals meet is awarded
 * (community_builder: any calendar month, in the comedian's time zone, with
 * 5+ check-ins, counted by the checkIns part in ./mics). A badge whose rule is
 * no longer met is allowed: badges are never taken back when a set is edited
 * or deleted. Badge rows point at an existing user.
 */
import { BADGES, earnedBadgeCodes } from "../../lib/badges";
import { checkLinks, checkRows, type Finisher, type PageCheck } from "./page";

const userBadges: PageCheck = (p) => {
  const known = new Set(BADGES.map((b) => b.code));
  return checkRows(p, "userBadges", async (b) => {
    await checkLinks(p, "userBadges", { _id: b._id, userId: b.userId });
    if (!known.has(b.badgeCode)) p.problems.push(`userBadges ${b._id}: unknown badge ${b.badgeCode}`);
    const rows = await p.ctx.db
      .query("userBadges")
      .withIndex("by_user_and_code", (q) => q.eq("userId", b.userId).eq("badgeCode", b.badgeCode))
      .take(2);
    if (rows[0]._id !== b._id) p.problems.push(`userBadges: user ${b.userId} holds ${b.badgeCode} twice`);
    else p.counters.add("badgeHeld", `${b.userId}|${b.badgeCode}`);
  });
};

export const badgePages = { userBadges };

/** Every met rule awarded (for comedians who exist). */
export const finishBadges: Finisher = (totals, problems) => {
  const bestMonth = new Map<string, number>();
  for (const [key, n] of totals.counter("monthCheckIns")) {
    const userId = key.split("|")[0];
    bestMonth.set(userId, Math.max(bestMonth.get(userId) ?? 0, n));
  }
  const held = totals.counter("badgeHeld");
  const statsByUser = new Map(totals.stats.map((s) => [s.userId as string, s]));
  const existing = new Set(totals.stats.filter((s) => s.userExists).map((s) => s.userId as string));
  for (const userId of new Set<string>([...existing, ...bestMonth.keys()])) {
    const row = statsByUser.get(userId);
    if (row !== undefined && !row.userExists) continue;
    const earned = earnedBadgeCodes({
      sets: row?.totalSets ?? 0,
      minutes: row?.totalMinutes ?? 0,
      uniqueVenues: row?.uniqueVenues ?? 0,
      venuesAdded: row?.venuesAdded ?? 0,
      monthCheckIns: bestMonth.get(userId) ?? 0,
      currentStreak: row?.currentStreak ?? 0,
      longestStreak: row?.longestStreak ?? 0,
      weekStreak: row?.longestWeekStreak ?? 0,
    });
    for (const code of earned) {
      if (!held.has(`${userId}|${code}`))
        problems.push(`userBadges: user ${userId} meets the rule of ${code} but does not hold it`);
    }
  }
};
