/**
 * A comedian with years of history for account.limits.test.ts: 2,000 sets, 1,500 check-ins over 400 mics (4 busy),
 * favourites, schedule, claims, reports, added mics, live-list spots, a photo, sessions and the badges all that earns.
 * Sets and check-ins are written raw with the figures the triggers would keep; the invariant checker confirms them.
 */
import { vi } from "vitest";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
// Load @date-fns/tz before fake timers replace Date (see test.checkIns.ts).
import { localDateString } from "../lib/time";
import { computeStreaks } from "../lib/streaks";
import { awardEarnedBadges } from "../model/badges";
import { VERIFICATION_PERIOD_MS, VERIFY_MIN_COMEDIANS } from "../model/micTriggers";
import { addToCommunityTotal } from "../model/stats";
import { createSceneItem, createUser, type TestBackend, type TestUser } from "./test.setup";

const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;
/** The tests' "now": Friday 20 November 2026, 20:00 UTC. */
export const NOW = Date.UTC(2026, 10, 20, 20);
const ZONE = "America/New_York";
export const TODAY = localDateString(NOW, ZONE);

export const SIZES = {
  sets: 2000,
  setDays: 200,
  mics: 400,
  busyMics: 4,
  busyComedians: 300,
  checkIns: 1500,
  addedMics: 30,
  favorites: 300,
  schedule: 200,
  claims: 20,
  reports: 20,
  closedLists: 40,
  sessions: 3,
  tokensPerSession: 10,
};

type NewCheckIn = Omit<Doc<"checkIns">, "_id" | "_creationTime">;

export type HeavyWorld = {
  comic: TestUser;
  mics: Id<"sceneItems">[];
  /** The mics the comedian added (the last {@link SIZES.addedMics}). */
  added: Id<"sceneItems">[];
  /** The other comedians' check-ins (they stay). */
  theirs: NewCheckIn[];
};

async function insertUsers(t: TestBackend, n: number, prefix: string): Promise<Id<"users">[]> {
  return await t.run(async (ctx) => {
    const ids: Id<"users">[] = [];
    for (let i = 0; i < n; i++) ids.push(await ctx.db.insert("users", { name: `${prefix} ${i}` }));
    return ids;
  });
}

/** Rows written raw, a few thousand per transaction. */
async function insertRaw<R>(t: TestBackend, rows: R[], write: (ctx: MutationCtx, row: R) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += 2000) {
    await t.run(async (ctx) => {
      for (const row of rows.slice(i, i + 2000)) await write(ctx, row);
    });
  }
}

const checkIn = (userId: Id<"users">, sceneItemId: Id<"sceneItems">, checkedInAt: number): NewCheckIn => ({
  userId,
  sceneItemId,
  checkedInAt,
  localDate: localDateString(checkedInAt, ZONE),
});

/**
 * What the check-in trigger leaves on a mic whose check-ins are `rows`
 * (the latest one last to arrive): count, latest, and verification over the
 * 30 days up to the latest, by comedians other than the creator.
 */
export function micFigures(rows: NewCheckIn[], creator: Id<"users"> | undefined) {
  if (rows.length === 0) return { checkInCount: 0, lastCheckInAt: undefined, verifiedCheckIns30d: 0 };
  const at = Math.max(...rows.map((c) => c.checkedInAt));
  const verifiers = new Set(
    rows.filter((c) => c.checkedInAt > at - VERIFICATION_PERIOD_MS && c.userId !== creator).map((c) => c.userId),
  ).size;
  return { checkInCount: rows.length, lastCheckInAt: at, verifiedCheckIns30d: verifiers };
}

/** Builds the world described above; the clock is left at {@link NOW} (fake timers on). */
export async function heavyAccount(t: TestBackend): Promise<HeavyWorld> {
  vi.useFakeTimers();
  // Accounts a year old: every comedian's check-ins verify.
  vi.setSystemTime(NOW - 400 * DAY);
  const comic = await createUser(t, { withStats: true, profile: { timeZone: ZONE } });
  const busy = await insertUsers(t, SIZES.busyComedians, "Regular");
  const locals = await insertUsers(t, 200, "Local");
  const mics: Id<"sceneItems">[] = [];
  for (let i = 0; i < SIZES.mics; i++) {
    const createdBy = i >= SIZES.mics - SIZES.addedMics ? comic.userId : undefined;
    mics.push(await createSceneItem(t, { title: `Mic ${i}`, venueName: `Room ${i}`, createdBy }));
  }
  vi.setSystemTime(NOW);

  // The comedian's check-ins: 4 a mic at the first 300 mics, 3 at the rest, a week apart, the latest yesterday.
  const mine: NewCheckIn[] = [];
  mics.forEach((mic, i) => {
    const visits = i < SIZES.checkIns - 3 * SIZES.mics ? 4 : 3;
    for (let k = 0; k < visits; k++) mine.push(checkIn(comic.userId, mic, NOW - DAY - 7 * k * DAY + i * MINUTE));
  });
  // Others, in the period: everyone at the busy mics; two locals at most mics, one at the last 200
  // (so those lose their Verified with the comedian). Nobody else reaches 5 check-ins in a month (no badge due).
  const theirs: NewCheckIn[] = [];
  mics.forEach((mic, i) => {
    if (i < SIZES.busyMics) busy.forEach((u, j) => theirs.push(checkIn(u, mic, NOW - 2 * DAY + j * 1000)));
    else {
      theirs.push(checkIn(locals[i % 200], mic, NOW - 3 * DAY));
      if (i < 200) theirs.push(checkIn(locals[(i + 100) % 200], mic, NOW - 4 * DAY));
    }
  });
  await insertRaw(t, [...mine, ...theirs], (ctx, row) => ctx.db.insert("checkIns", row));
  const byMic = new Map<Id<"sceneItems">, NewCheckIn[]>(mics.map((mic) => [mic, []]));
  for (const row of [...mine, ...theirs]) byMic.get(row.sceneItemId)!.push(row);
  await t.run(async (ctx) => {
    for (const [i, mic] of mics.entries()) {
      const creator = i >= SIZES.mics - SIZES.addedMics ? comic.userId : undefined;
      const f = micFigures(byMic.get(mic)!, creator);
      const verified = f.verifiedCheckIns30d >= VERIFY_MIN_COMEDIANS;
      await ctx.db.patch("sceneItems", mic, {
        checkInCount: f.checkInCount,
        lastCheckInAt: f.lastCheckInAt,
        verifiedCheckIns30d: verified ? f.verifiedCheckIns30d : 0,
        lastVerifiedAt: verified ? f.lastCheckInAt : undefined,
        verificationExpiresAt: verified ? f.lastCheckInAt! + VERIFICATION_PERIOD_MS : undefined,
      });
    }
  });

  await logSets(t, comic.userId, mics);
  await liveLists(t, comic, mics, busy);
  await t.run(async (ctx) => {
    const userId = comic.userId;
    for (const mic of mics.slice(0, SIZES.favorites)) await ctx.db.insert("favorites", { userId, sceneItemId: mic });
    for (const mic of mics.slice(0, SIZES.schedule)) {
      await ctx.db.insert("scheduleEntries", { userId, sceneItemId: mic, addedAt: NOW - DAY });
    }
    for (const micId of mics.slice(0, SIZES.claims)) {
      await ctx.db.insert("micClaims", { micId, claimantId: userId, status: "pending", message: "I host this" });
    }
    for (const micId of mics.slice(SIZES.claims, SIZES.claims + SIZES.reports)) {
      await ctx.db.insert("problemReports", { micId, reporterId: userId, kind: "wrong_time", status: "open" });
    }
    for (let s = 0; s < SIZES.sessions; s++) {
      const sessionId = await ctx.db.insert("authSessions", { userId, expirationTime: NOW + 30 * DAY });
      for (let k = 0; k < SIZES.tokensPerSession; k++) {
        await ctx.db.insert("authRefreshTokens", { sessionId, expirationTime: NOW + 30 * DAY });
      }
    }
    await ctx.db.insert("authAccounts", { userId, provider: "password", providerAccountId: `${userId}@example.com` });
    const photo = await ctx.storage.store(new Blob([new Uint8Array(64)], { type: "image/png" }));
    const profile = await ctx.db
      .query("profiles")
      .withIndex("by_userId", (q) => q.eq("userId", userId))
      .unique();
    await ctx.db.patch("profiles", profile!._id, { photoStorageId: photo });
    await awardEarnedBadges(ctx, userId, NOW);
  });
  return { comic, mics, added: mics.slice(SIZES.mics - SIZES.addedMics), theirs };
}

/**
 * The sets (5 minutes each, 10 a day over 200 days, most at a mic), written
 * raw with the rows and totals the set trigger would keep: per day, per mic,
 * the comedian's stats and the community's minutes. (Through the trigger,
 * each set would read all the comedian's days again for the streaks.)
 */
async function logSets(t: TestBackend, userId: Id<"users">, mics: Id<"sceneItems">[]) {
  const sets = Array.from({ length: SIZES.sets }, (_, k): Omit<Doc<"performances">, "_id" | "_creationTime"> => {
    const performedAt = NOW - ((k % SIZES.setDays) + 1) * DAY - (k % 7) * MINUTE;
    return {
      userId,
      minutes: 5,
      performedAt,
      performanceDate: localDateString(performedAt, ZONE),
      tags: [],
      ...(k < 1600 ? { sceneItemId: mics[k % SIZES.mics] } : { venueName: "Basement Show" }),
    };
  });
  await insertRaw(t, sets, (ctx, set) => ctx.db.insert("performances", set));
  const count = <K>(keys: K[]) => {
    const out = new Map<K, number>();
    for (const key of keys) out.set(key, (out.get(key) ?? 0) + 1);
    return out;
  };
  const days = count(sets.map((s) => s.performanceDate));
  const visits = count(sets.flatMap((s) => (s.sceneItemId ? [s.sceneItemId] : [])));
  const dates = [...days.keys()].sort();
  const streaks = computeStreaks(dates, TODAY);
  const minutes = sets.reduce((sum, s) => sum + s.minutes, 0);
  await t.run(async (ctx) => {
    for (const [date, n] of days) await ctx.db.insert("performanceDays", { userId, date, sets: n });
    for (const [sceneItemId, n] of visits) await ctx.db.insert("venueVisits", { userId, sceneItemId, sets: n });
    const stats = await ctx.db
      .query("userStats")
      .withIndex("by_userId", (q) => q.eq("userId", userId))
      .unique();
    await ctx.db.patch("userStats", stats!._id, {
      totalMinutes: minutes,
      totalSets: sets.length,
      uniqueVenues: visits.size,
      currentStreak: streaks.current,
      longestStreak: streaks.longest,
      lastSetDate: dates.at(-1),
    });
    await addToCommunityTotal(ctx, "minutesLogged", minutes);
  });
}

/** Tonight's open list at mics[0] (3 places, the comedian in the middle, one waiting) and past closed lists at mics[1]. */
async function liveLists(t: TestBackend, comic: TestUser, mics: Id<"sceneItems">[], others: Id<"users">[]) {
  return await t.run(async (ctx) => {
    const list = (micId: Id<"sceneItems">, date: string, status: "open" | "closed") =>
      ctx.db.insert("nightLists", {
        micId,
        date,
        status,
        ...(status === "closed" ? { closedReason: "ended" as const } : {}),
        openedBy: others[0],
        spots: 3,
        waitlistSpots: 2,
        setMinutes: 5,
        lightMinutes: 1,
        mode: "first_come",
        bucket: false,
        signupOpensAt: NOW - DAY,
        version: 1,
      });
    const spot = (
      listId: Id<"nightLists">,
      micId: Id<"sceneItems">,
      [userId, name]: [Id<"users">, string],
      rank: number,
      more: Partial<Doc<"listSpots">> = {},
    ) =>
      ctx.db.insert("listSpots", {
        listId,
        micId,
        userId,
        name,
        section: "list",
        rank,
        state: "waiting",
        priority: false,
        bumped: false,
        ...more,
      });
    const me: [Id<"users">, string] = [comic.userId, "Heavy Comic"];
    const listId = await list(mics[0], TODAY, "open");
    const [ahead, behind, waiting] = others;
    await spot(listId, mics[0], [ahead, "Ahead"], 0);
    await spot(listId, mics[0], me, 1);
    await spot(listId, mics[0], [behind, "Behind"], 2);
    await spot(listId, mics[0], [waiting, "Waiting"], 0, { section: "waitlist" });
    for (let d = 1; d <= SIZES.closedLists; d++) {
      const past = await list(mics[1], localDateString(NOW - 7 * d * DAY, ZONE), "closed");
      await spot(past, mics[1], me, 0, { state: "done" });
    }
  });
}
