/**
 * Per-comedian totals (kept by ../statsTriggers) against their sets: `userStats` sums, one day row
 * and venue visit each, streaks (lib/streaks; the stored current streak is the run ending at the
 * last set day, or 0). Every row points at an existing mic and user; performances also add up all
 * minutes (./community).
 */
import { daysBetweenDates } from "../../lib/time";
import { checkLinks, checkRows, type DaySegment, type Finisher, type PageCheck } from "./page";

/** Day segments of consecutive rows of the same comedian (rows sorted by user, then date). */
function segmentsOf(rows: Array<{ userId: string; date: string }>): DaySegment[] {
  const out: DaySegment[] = [];
  let seg: DaySegment | null = null;
  let run = 0;
  for (const { userId, date } of rows) {
    if (seg !== null && seg.userId === userId) {
      if (date === seg.last) continue; // a duplicate row (reported by itself)
      const gap = daysBetweenDates(seg.last, date);
      run = gap === 1 ? run + 1 : 1;
      if (seg.head === seg.days && gap === 1) seg.head++;
      seg.days++;
      seg.last = date;
      seg.tail = run;
      seg.longest = Math.max(seg.longest, run);
    } else {
      if (seg !== null) out.push(seg);
      run = 1;
      seg = { userId, first: date, last: date, head: 1, tail: 1, longest: 1, days: 1 };
    }
  }
  if (seg !== null) out.push(seg);
  return out;
}

/** Joins two segments of one comedian, `b` after `a` (its dates are later). */
export function joinSegments(a: DaySegment, b: DaySegment): DaySegment {
  const gap = daysBetweenDates(a.last, b.first);
  // gap 0: the same day at the end of one page and the start of the next.
  const overlap = gap === 0 ? 1 : 0;
  const joins = gap <= 1;
  const bridge = joins ? a.tail + b.head - overlap : 0;
  return {
    userId: a.userId,
    first: a.first,
    last: b.last,
    head: joins && a.head === a.days ? a.days + b.head - overlap : a.head,
    tail: joins && b.tail === b.days ? b.days + a.tail - overlap : b.tail,
    longest: Math.max(a.longest, b.longest, bridge),
    days: a.days + b.days - overlap,
  };
}

const performances: PageCheck = (p) => {
  const { ctx, counters } = p;
  const dayRow = new Map<string, Promise<boolean>>();
  return checkRows(p, "performances", async (s) => {
    await checkLinks(p, "performances", { _id: s._id, userId: s.userId, itemId: s.sceneItemId });
    counters.add("setMinutes", s.userId, s.minutes);
    counters.add("setCount", s.userId);
    counters.add("siteMinutes", "", s.minutes);
    if (s.sceneItemId !== undefined) counters.add("setsAtMic", `${s.userId}|${s.sceneItemId}`);
    const key = `${s.userId}|${s.performanceDate}`;
    counters.add("setsOnDay", key);
    let has = dayRow.get(key);
    if (!has) {
      has = ctx.db
        .query("performanceDays")
        .withIndex("by_user_and_date", (q) => q.eq("userId", s.userId).eq("date", s.performanceDate))
        .first()
        .then((d) => d !== null);
      dayRow.set(key, has);
    }
    if (!(await has)) counters.add("setsWithoutDayRow", key);
  });
};

const performanceDays: PageCheck = async (p) => {
  const { ctx, opts, problems, tally, counters } = p;
  // In user and date order, so each page yields runs of days per comedian.
  const page = await ctx.db.query("performanceDays").withIndex("by_user_and_date").paginate(opts);
  await Promise.all(
    page.page.map(async (d) => {
      await checkLinks(p, "performanceDays", { _id: d._id, userId: d.userId });
      const rows = await ctx.db
        .query("performanceDays")
        .withIndex("by_user_and_date", (q) => q.eq("userId", d.userId).eq("date", d.date))
        .take(2);
      if (rows[0]._id !== d._id) problems.push(`performanceDays: two rows for user ${d.userId} on ${d.date}`);
      // The sets are counted per day by the performances part (a busy day can
      // hold more sets than one page may read): compared in finishStats.
      else counters.add("dayRowSets", `${d.userId}|${d.date}`, d.sets);
    }),
  );
  tally.daySegments = segmentsOf(page.page);
  return page;
};

const venueVisits: PageCheck = (p) =>
  checkRows(p, "venueVisits", async (vv) => {
    await checkLinks(p, "venueVisits", { _id: vv._id, userId: vv.userId, itemId: vv.sceneItemId });
    const rows = await p.ctx.db
      .query("venueVisits")
      .withIndex("by_user_and_item", (q) => q.eq("userId", vv.userId).eq("sceneItemId", vv.sceneItemId))
      .take(2);
    if (rows[0]._id !== vv._id) p.problems.push(`venueVisits: two rows for user ${vv.userId} at mic ${vv.sceneItemId}`);
    else p.counters.add("visitRow", `${vv.userId}|${vv.sceneItemId}`, vv.sets);
  });

const userStats: PageCheck = (p) =>
  checkRows(p, "userStats", async (row) => {
    await checkLinks(p, "userStats", { _id: row._id, userId: row.userId });
    const rows = await p.ctx.db
      .query("userStats")
      .withIndex("by_userId", (q) => q.eq("userId", row.userId))
      .take(2);
    if (rows[0]._id !== row._id) {
      p.problems.push(`userStats: two rows for user ${row.userId}`);
      return;
    }
    const { _id, _creationTime, ...fields } = row;
    p.tally.stats.push({ ...fields, userExists: await p.exists.user(row.userId) });
  });

export const statsPages = { performances, performanceDays, venueVisits, userStats };

/** Day rows, venue visits and stats rows against the sets. */
export const finishStats: Finisher = (totals, problems) => {
  // Sets on a day without a day row.
  for (const [key, n] of totals.counter("setsWithoutDayRow")) {
    const [userId, date] = key.split("|");
    problems.push(`performanceDays: user ${userId} on ${date} has no row but ${n} set(s)`);
  }
  // Day rows against the sets counted on their day.
  const setsOnDay = totals.counter("setsOnDay");
  for (const [key, row] of totals.counter("dayRowSets")) {
    const [userId, date] = key.split("|");
    const n = setsOnDay.get(key) ?? 0;
    if (n === 0) problems.push(`performanceDays: user ${userId} on ${date} has ${row} but no sets`);
    else if (row !== n) problems.push(`performanceDays: user ${userId} on ${date} has ${row} but ${n} set(s)`);
  }

  // Venue visits against the sets per comedian and mic.
  const setsAtMic = totals.counter("setsAtMic");
  const visitRows = totals.counter("visitRow");
  const micsPerUser = new Map<string, number>();
  for (const [key, n] of setsAtMic) {
    const [userId, itemId] = key.split("|");
    micsPerUser.set(userId, (micsPerUser.get(userId) ?? 0) + 1);
    const row = visitRows.get(key);
    if (row !== n) problems.push(`venueVisits: user ${userId} at mic ${itemId} has ${row ?? "no row"} but ${n} set(s)`);
  }
  for (const [key, row] of visitRows) {
    if (setsAtMic.has(key)) continue;
    const [userId, itemId] = key.split("|");
    problems.push(`venueVisits: user ${userId} at mic ${itemId} has ${row} but no sets`);
  }

  // Stats rows against the sets and day rows.
  const minutes = totals.counter("setMinutes");
  const setCount = totals.counter("setCount");
  const statsByUser = new Map(totals.stats.map((s) => [s.userId as string, s]));
  for (const [userId, n] of setCount) {
    if (!statsByUser.has(userId)) problems.push(`userStats: user ${userId} has ${n} set(s) but no stats row`);
  }
  for (const row of totals.stats) {
    const userId = row.userId as string;
    const sets = setCount.get(userId) ?? 0;
    const mins = minutes.get(userId) ?? 0;
    const mics = micsPerUser.get(userId) ?? 0;
    if (row.totalMinutes !== mins)
      problems.push(`userStats ${userId}: totalMinutes ${row.totalMinutes} but sets sum to ${mins}`);
    if (row.totalSets !== sets) problems.push(`userStats ${userId}: totalSets ${row.totalSets} but ${sets} set(s)`);
    if (row.uniqueVenues !== mics)
      problems.push(`userStats ${userId}: uniqueVenues ${row.uniqueVenues} but sets at ${mics} mic(s)`);
    const seg = totals.segments.get(userId);
    const lastDate = seg?.last;
    if (row.lastSetDate !== lastDate && !(lastDate === undefined && sets === 0 && row.lastSetDate === undefined)) {
      problems.push(
        `userStats ${userId}: lastSetDate ${row.lastSetDate ?? "none"} but the last set day is ${lastDate ?? "none"}`,
      );
    }
    const longest = seg?.longest ?? 0;
    const current = seg?.tail ?? 0;
    if (row.longestStreak !== longest) {
      problems.push(`userStats ${userId}: longestStreak ${row.longestStreak} but the day rows give ${longest}`);
    }
    if (row.currentStreak !== 0 && row.currentStreak !== current) {
      problems.push(
        `userStats ${userId}: currentStreak ${row.currentStreak} but the run ending at the last set day is ${current}`,
      );
    }
  }
};
