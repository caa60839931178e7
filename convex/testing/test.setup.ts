import rateLimiterTest from "@convex-dev/rate-limiter/test";
import shardedCounterTest from "@convex-dev/sharded-counter/test";
import { convexTest, type TestConvex } from "convex-test";
import type { Doc, Id } from "../_generated/dataModel";
import type { VenueInput } from "../model/events";
import { foldCheckIns } from "../model/micTriggers";
import { normalizeEmail } from "../model/profiles";
import { type CommunityTotals, readCommunityTotals } from "../model/stats";
import { type MyStats, NO_STATS } from "../model/userStats";
import schema from "../schema";
import { triggers } from "../triggers";

/**
 * Every module of `convex/`, as `convex deploy` would load them, and on top the dev tools of
 * `convex-dev/` (seeding, fixtures) under their own paths, as the local backend adds them.
 */
export const modules = {
  ...import.meta.glob("../**/*.ts"),
  ...Object.fromEntries(
    Object.entries(import.meta.glob("../../convex-dev/**/*.ts")).map(([key, load]) => [
      key.replace(/^\.\.\/\.\.\/convex-dev\//, "../"),
      load,
    ]),
  ),
};

/** A convex-test backend with our schema; Convex's per-transaction limits are enforced. */
export type TestBackend = TestConvex<typeof schema>;

/**
 * A fresh, empty backend for one test (schema validation and transaction limits
 * on), with the components `convex.config.ts` installs registered under the
 * same names (their own tables and functions, as on Convex).
 */
export function newTest(): TestBackend {
  const t = convexTest({ schema, modules, transactionLimits: true });
  registerComponents(t);
  return t;
}

/** Registers the app's components (see convex.config.ts) on a convex-test backend. */
export function registerComponents(t: TestBackend): void {
  rateLimiterTest.register(t, "rateLimiter");
  shardedCounterTest.register(t, "shardedCounter");
}

/**
 * The stored community totals (venues, cities, comedians, minutes logged) as
 * the `shardedCounter` component holds them: the exact figures behind
 * `community.stats` (which shows hours).
 */
export async function communityTotals(t: TestBackend): Promise<CommunityTotals> {
  return await t.run(async (ctx) => await readCommunityTotals(ctx));
}

/** A signed-in caller made by {@link createUser}. */
/** `userId`'s sets (by the time they were performed) and favourites, read straight from the tables. */
export async function setsAndFavoritesOf(t: TestBackend, userId: Id<"users">) {
  return await t.run(async (ctx) => ({
    sets: await ctx.db
      .query("performances")
      .withIndex("by_user_and_performedAt", (q) => q.eq("userId", userId))
      .collect(),
    favorites: await ctx.db
      .query("favorites")
      .withIndex("by_user_and_item", (q) => q.eq("userId", userId))
      .collect(),
  }));
}

export type TestUser = {
  userId: Id<"users">;
  sessionId: Id<"authSessions">;
  profileId: Id<"profiles">;
  /** The backend seen by this user: `asUser.query(api.x.y, ...)` runs as them. */
  asUser: ReturnType<TestBackend["withIdentity"]>;
};

let userCounter = 0;

/**
 * Inserts a comedian: a `users` row, a live `authSessions` row and a finished
 * profile (goal 15, onboarding done unless `needsOnboarding`), plus a zeroed
 * `userStats` row when `withStats` is set (or one with the given `stats`). Counts them in the community stats.
 * The identity's subject is `userId|sessionId`, the shape @convex-dev/auth's
 * `getAuthUserId` parses.
 */
export async function createUser(
  t: TestBackend,
  opts: {
    email?: string;
    name?: string;
    isAdmin?: boolean;
    needsOnboarding?: boolean;
    withStats?: boolean;
    /** A `userStats` row with these counts (the rest zero), as if the sets had been logged. */
    stats?: Partial<MyStats>;
    profile?: Partial<Omit<Doc<"profiles">, "_id" | "_creationTime" | "userId">>;
  } = {},
): Promise<TestUser> {
  userCounter += 1;
  const email = normalizeEmail(opts.email ?? `comic${userCounter}@example.com`);
  const name = opts.name ?? `Comic ${userCounter}`;
  const ids = await t.run(async (ctx) => {
    const userId = await ctx.db.insert("users", { email, name });
    const sessionId = await ctx.db.insert("authSessions", {
      userId,
      expirationTime: Date.now() + 30 * 24 * 60 * 60 * 1000,
    });
    const needsOnboarding = opts.needsOnboarding ?? false;
    // Through the app's triggers, as every mutation's write: the community counts the comedian.
    const profileId = await triggers.wrapDB(ctx).db.insert("profiles", {
      userId,
      displayName: name,
      weeklyGoalMinutes: 15,
      needsOnboarding,
      onboardingCompleted: !needsOnboarding,
      isAdmin: opts.isAdmin ?? false,
      ...opts.profile,
    });
    if (opts.withStats || opts.stats) {
      await ctx.db.insert("userStats", { userId, ...NO_STATS, ...opts.stats });
    }
    return { userId, sessionId, profileId };
  });
  return {
    ...ids,
    asUser: t.withIdentity({ subject: `${ids.userId}|${ids.sessionId}` }),
  };
}

/**
 * `t` signed in as a user inserted by hand (no profile, say): a new live
 * `authSessions` row and the identity Convex Auth's token would carry.
 */
export async function signedInAs(t: TestBackend, userId: Id<"users">) {
  const sessionId = await t.run(async (ctx) =>
    ctx.db.insert("authSessions", { userId, expirationTime: Date.now() + 30 * 24 * 60 * 60 * 1000 }),
  );
  return t.withIdentity({ subject: `${userId}|${sessionId}` });
}

/** Inserts an admin (see {@link createUser}). */
export async function createAdmin(t: TestBackend, opts: { email?: string; name?: string } = {}): Promise<TestUser> {
  return await createUser(t, { name: "Admin", ...opts, isAdmin: true });
}

/** The fields a test may override on a scene item. */
export type SceneItemOverrides = Partial<Omit<Doc<"sceneItems">, "_id" | "_creationTime">>;

/**
 * The fields every scene item row must hold (an active weekly open mic in New York, no
 * check-ins, empty search text), with any field overridden: for tests that write rows
 * straight to the table, past the triggers, so nothing derived follows.
 */
export function sceneItemRow(overrides: SceneItemOverrides = {}) {
  return {
    title: "Test Mic",
    venueName: "The Test Room",
    city: "New York",
    type: "open_mic" as const,
    recurrence: "weekly" as const,
    timeZone: "America/New_York",
    status: "active" as const,
    checkInCount: 0,
    verifiedCheckIns30d: 0,
    searchText: "",
    ...overrides,
  };
}

/**
 * Inserts an active weekly open mic in New York (Mondays 19:30, list 19:00,
 * free, 5-minute sets, coordinates in Manhattan) with any field overridden.
 * The insert goes through the app's triggers (model/micTriggers), as every
 * mutation's does: `searchText`, `geohash` and `areaCell` follow the final
 * title, venue, city and coordinates unless given (a test pinning one, e.g.
 * data from before a field existed, gets it written raw afterwards), and the
 * community stats count it. Returns its id.
 */
export async function createSceneItem(t: TestBackend, overrides: SceneItemOverrides = {}): Promise<Id<"sceneItems">> {
  const base = sceneItemRow({
    address: "123 Test St, New York, NY 10001",
    latitude: 40.7411,
    longitude: -73.9897,
    dayOfWeek: 1,
    startTimeLocal: "19:30",
    listTimeLocal: "19:00",
    signupMethod: "in_person" as const,
    costInfo: { type: "free" as const },
    performanceMinutes: 5,
    ...overrides,
  });
  const pinned = Object.fromEntries(
    (["searchText", "geohash", "areaCell"] as const)
      .filter((key) => key in overrides)
      .map((key) => [key, overrides[key]]),
  );
  return await t.run(async (ctx) => {
    const id = await triggers.wrapDB(ctx).db.insert("sceneItems", base);
    if (Object.keys(pinned).length > 0) await ctx.db.patch("sceneItems", id, pinned);
    return id;
  });
}

/** A fresh backend with one comedian and then one mic (createSceneItem's defaults): where most one-comedian tests start. */
export async function newComicAndMic(): Promise<{ t: TestBackend; comic: TestUser; mic: Id<"sceneItems"> }> {
  const t = newTest();
  const comic = await createUser(t);
  const mic = await createSceneItem(t);
  return { t, comic, mic };
}

/** A venue found on Google (place id and coordinates), as the venue step hands it to `events.create`. */
export const CREEK_VENUE: VenueInput = {
  venueName: "The Creek and the Cave",
  address: "10-93 Jackson Ave, Long Island City, NY 11101",
  googlePlaceId: "place-creek",
  latitude: 40.7425,
  longitude: -73.9526,
};

/**
 * Folds every mic's queued check-ins into its row now, as the folds the
 * check-ins scheduled for the next second will (whatever the frozen clock says).
 */
export async function foldQueuedCheckIns(t: TestBackend): Promise<void> {
  const mics = await t.run(async (ctx) => (await ctx.db.query("micCheckInQueue").collect()).map((r) => r.micId));
  for (const micId of new Set(mics)) {
    await t.run(async (ctx) => await foldCheckIns(ctx, { micId, nowMs: Number.MAX_VALUE }));
  }
}
