/**
 * The authorization matrix's world and entries (convex/authz.test.ts): the
 * owner's real data, the other callers, and for every public function valid
 * arguments and what each caller may do with it. The hostile-input test
 * (convex/fuzzHostile.test.ts) reuses the same valid arguments.
 */
import { api } from "./_generated/api";
import type { Id, TableNames } from "./_generated/dataModel";
import schema from "./schema";
import { createAdmin, createSceneItem, createUser, newTest, type TestBackend, type TestUser } from "./test.setup";

export type Access = "read" | "own" | "change" | "nothing";
export type Role = "anon" | "other" | "admin" | "owner";

/** The owner's data every entry works against, and the other callers. */
export type World = {
  t: TestBackend;
  owner: TestUser;
  other: TestUser;
  admin: TestUser;
  /**
   * A third comedian, a bystander nobody's call is about: sets, favourites and
   * schedule entries on the owner's mic and the claimed one, a check-in, a
   * pending and an approved claim, reports, her own mic with its own list, and
   * spots on the owner's lists. Her rows must stay as they were after every call
   * (see `changesBystander`).
   */
  third: TestUser;
  thirdMic: Id<"sceneItems">;
  thirdSet: Id<"performances">;
  thirdEntry: Id<"scheduleEntries">;
  thirdClaim: Id<"micClaims">;
  thirdReport: Id<"problemReports">;
  thirdList: Id<"nightLists">;
  /** A Wednesday 20:00 mic in Manhattan the owner created, favourited, scheduled and logged a set at. */
  ownerMic: Id<"sceneItems">;
  /** A mic nobody created, the owner claimed (pending), reported and checked in at. */
  claimMic: Id<"sceneItems">;
  /** The owner's mic without coordinates (for the geocoder). */
  noCoordsMic: Id<"sceneItems">;
  ownerSet: Id<"performances">;
  ownerEntry: Id<"scheduleEntries">;
  ownerClaim: Id<"micClaims">;
  /** The owner's approved claim on a mic nobody created. */
  approvedClaim: Id<"micClaims">;
  ownerReport: Id<"problemReports">;
  photo: Id<"_storage">;
  /** Tonight's first-come list on the owner's mic: the owner, the other comedian and a walk-in. */
  ownerList: Id<"nightLists">;
  ownerSpot: Id<"listSpots">;
  /** An undrawn lottery on the owner's mic without coordinates: the owner and the other comedian in the pool. */
  lotteryList: Id<"nightLists">;
  /** A list on another mic of the owner's where the owner is up now. */
  runningList: Id<"nightLists">;
  runningSpot: Id<"listSpots">;
  /** Tonight's empty list on the mic the owner only claimed (opened by the admin). */
  claimList: Id<"nightLists">;
};

export const NOW = Date.parse("2026-11-25T19:45:00-05:00");
export const DAY = 24 * 60 * 60 * 1000;
export const VENUE = { latitude: 40.7411, longitude: -73.9897 };
export const OWNER_NAME = "Owner Olive";
export const OWNER_EMAIL = "olive.owner@example.com";
export const THIRD_NAME = "Third Thea";
export const THIRD_EMAIL = "thea.third@example.com";

export async function buildWorld(): Promise<World> {
  const t = newTest();
  const owner = await createUser(t, {
    name: OWNER_NAME,
    email: OWNER_EMAIL,
    withStats: true,
    profile: { weeklyGoalMinutes: 45 },
  });
  const other = await createUser(t, { withStats: true });
  const admin = await createAdmin(t);
  const third = await createUser(t, { name: THIRD_NAME, email: THIRD_EMAIL, withStats: true });
  const wednesday = { dayOfWeek: 3, startTimeLocal: "20:00", ...VENUE };
  const ownerMic = await createSceneItem(t, { ...wednesday, title: "Olive's Mic", createdBy: owner.userId });
  const claimMic = await createSceneItem(t, { ...wednesday, title: "Claimed Mic", venueName: "Claim Room" });
  const noCoordsMic = await createSceneItem(t, {
    title: "Lost Mic",
    venueName: "Lost Room",
    latitude: undefined,
    longitude: undefined,
    createdBy: owner.userId,
  });
  const { performanceId: ownerSet } = await owner.asUser.mutation(api.performances.log, {
    minutes: 7,
    performedAt: NOW - DAY,
    sceneItemId: ownerMic,
    tags: ["olive-private-tag"],
    notes: "olive's private notes",
  });
  await owner.asUser.mutation(api.favorites.add, { sceneItemId: ownerMic });
  const { entryId: ownerEntry } = await owner.asUser.mutation(api.schedule.add, { sceneItemId: ownerMic });
  await owner.asUser.mutation(api.checkIns.checkIn, { sceneItemId: claimMic, ...VENUE });
  const { ownerClaim, ownerReport, photo } = await t.run(async (ctx) => ({
    ownerClaim: await ctx.db.insert("micClaims", { micId: claimMic, claimantId: owner.userId, status: "pending" }),
    ownerReport: await ctx.db.insert("problemReports", {
      micId: claimMic,
      reporterId: owner.userId,
      kind: "wrong_time",
      status: "open",
    }),
    photo: await ctx.storage.store(new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: "image/png" })),
  }));
  // convex-test leaves the content type off; Convex records the upload's Content-Type.
  await t.run(async (ctx) => {
    const db = ctx.db as unknown as { patch: (table: string, id: string, value: object) => Promise<void> };
    await db.patch("_storage", photo, { contentType: "image/png" });
  });
  const runningMic = await createSceneItem(t, { ...wednesday, title: "Olive's Late Mic", createdBy: owner.userId });
  // The bystander's own rows: on the owner's mic, on the claimed one and on a mic of her own.
  const thirdMic = await createSceneItem(t, {
    ...wednesday,
    title: "Thea's Mic",
    venueName: "Thea Room",
    createdBy: third.userId,
  });
  const { performanceId: thirdSet } = await third.asUser.mutation(api.performances.log, {
    minutes: 5,
    performedAt: NOW - 2 * DAY,
    sceneItemId: ownerMic,
    tags: ["thea-private-tag"],
    notes: "thea's private notes",
  });
  await third.asUser.mutation(api.performances.log, {
    minutes: 4,
    performedAt: NOW - 3 * DAY,
    sceneItemId: thirdMic,
    tags: [],
  });
  await third.asUser.mutation(api.favorites.add, { sceneItemId: ownerMic });
  await third.asUser.mutation(api.favorites.add, { sceneItemId: claimMic });
  const { entryId: thirdEntry } = await third.asUser.mutation(api.schedule.add, { sceneItemId: ownerMic });
  await third.asUser.mutation(api.schedule.add, { sceneItemId: claimMic });
  await third.asUser.mutation(api.checkIns.checkIn, { sceneItemId: claimMic, ...VENUE });
  const { thirdClaim, thirdReport } = await t.run(async (ctx) => ({
    thirdClaim: await ctx.db.insert("micClaims", { micId: claimMic, claimantId: third.userId, status: "pending" }),
    thirdReport: await ctx.db.insert("problemReports", {
      micId: claimMic,
      reporterId: third.userId,
      kind: "wrong_time",
      status: "open",
    }),
    ownerMicReport: await ctx.db.insert("problemReports", {
      micId: ownerMic,
      reporterId: third.userId,
      kind: "other",
      status: "open",
    }),
  }));
  const lists = await t.run(async (ctx) => {
    const base = {
      date: "2026-11-25",
      status: "open" as const,
      spots: 5,
      waitlistSpots: 5,
      setMinutes: 5,
      lightMinutes: 1,
      mode: "first_come" as const,
      bucket: false,
      signupOpensAt: NOW - 60 * 60 * 1000,
      version: 1,
    };
    const spot = { state: "waiting" as const, priority: false, bumped: false };
    const ownerList = await ctx.db.insert("nightLists", { ...base, micId: ownerMic, openedBy: owner.userId });
    const ownerSpot = await ctx.db.insert("listSpots", {
      ...spot,
      listId: ownerList,
      micId: ownerMic,
      userId: owner.userId,
      name: OWNER_NAME,
      section: "list",
      rank: 0,
    });
    await ctx.db.insert("listSpots", {
      ...spot,
      listId: ownerList,
      micId: ownerMic,
      userId: other.userId,
      name: "Other Otto",
      section: "list",
      rank: 1,
    });
    await ctx.db.insert("listSpots", {
      ...spot,
      listId: ownerList,
      micId: ownerMic,
      name: "Walk-in Wally",
      section: "list",
      rank: 2,
    });
    await ctx.db.insert("listSpots", {
      ...spot,
      listId: ownerList,
      micId: ownerMic,
      userId: third.userId,
      name: THIRD_NAME,
      section: "list",
      rank: 3,
    });
    const thirdList = await ctx.db.insert("nightLists", { ...base, micId: thirdMic, openedBy: third.userId });
    await ctx.db.insert("listSpots", {
      ...spot,
      listId: thirdList,
      micId: thirdMic,
      userId: third.userId,
      name: THIRD_NAME,
      section: "list",
      rank: 0,
    });
    await ctx.db.insert("listSpots", {
      ...spot,
      listId: thirdList,
      micId: thirdMic,
      name: "Walk-in Wanda",
      section: "list",
      rank: 1,
    });
    const lotteryList = await ctx.db.insert("nightLists", {
      ...base,
      micId: noCoordsMic,
      openedBy: owner.userId,
      mode: "lottery",
      drawAt: NOW + 60 * 60 * 1000,
    });
    await ctx.db.insert("listSpots", {
      ...spot,
      listId: lotteryList,
      micId: noCoordsMic,
      userId: owner.userId,
      name: OWNER_NAME,
      section: "pool",
      rank: 0,
    });
    // The bystander ahead of the other comedian, so that his dropping out leaves her rank as it was.
    await ctx.db.insert("listSpots", {
      ...spot,
      listId: lotteryList,
      micId: noCoordsMic,
      userId: third.userId,
      name: THIRD_NAME,
      section: "pool",
      rank: 1,
    });
    await ctx.db.insert("listSpots", {
      ...spot,
      listId: lotteryList,
      micId: noCoordsMic,
      userId: other.userId,
      name: "Other Otto",
      section: "pool",
      rank: 2,
    });
    const runningList = await ctx.db.insert("nightLists", { ...base, micId: runningMic, openedBy: owner.userId });
    const runningSpot = await ctx.db.insert("listSpots", {
      ...spot,
      listId: runningList,
      micId: runningMic,
      userId: owner.userId,
      name: OWNER_NAME,
      section: "list",
      rank: 0,
      state: "up",
      startedAt: NOW - 5 * 60 * 1000,
    });
    await ctx.db.insert("listSpots", {
      ...spot,
      listId: runningList,
      micId: runningMic,
      userId: third.userId,
      name: THIRD_NAME,
      section: "list",
      rank: 1,
    });
    const claimList = await ctx.db.insert("nightLists", { ...base, micId: claimMic, openedBy: admin.userId });
    return { ownerList, ownerSpot, lotteryList, runningList, runningSpot, claimList, thirdList };
  });
  const hostedMic = await createSceneItem(t, { title: "Co-hosted Mic", venueName: "Cohost Room" });
  const approvedClaim = await t.run(async (ctx) => {
    const approved = { micId: hostedMic, status: "approved" as const, reviewedAt: NOW - DAY, reviewedBy: admin.userId };
    // The bystander co-hosts it: revoking the owner's claim leaves hers approved.
    await ctx.db.insert("micClaims", { ...approved, claimantId: third.userId });
    return await ctx.db.insert("micClaims", { ...approved, claimantId: owner.userId });
  });
  return {
    t,
    owner,
    other,
    admin,
    third,
    thirdMic,
    thirdSet,
    thirdEntry,
    thirdClaim,
    thirdReport,
    approvedClaim,
    ownerMic,
    claimMic,
    noCoordsMic,
    ownerSet,
    ownerEntry,
    ownerClaim,
    ownerReport,
    photo,
    ...lists,
  };
}

/** Things only the owner's own answers may contain. */
export function privateMarkers(w: World): string[] {
  return [
    w.owner.userId,
    w.owner.profileId,
    w.ownerSet,
    w.ownerEntry,
    w.ownerClaim,
    w.ownerReport,
    OWNER_NAME,
    OWNER_EMAIL,
    "olive-private-tag",
  ];
}

/** The bystander's private things: no answer to anyone but an admin may contain them. */
export function bystanderMarkers(w: World): string[] {
  return [
    w.thirdSet,
    w.thirdEntry,
    w.thirdClaim,
    w.thirdReport,
    THIRD_EMAIL,
    "thea-private-tag",
    "thea's private notes",
  ];
}

export const APP_TABLES = Object.keys(schema.tables).filter((name) => !name.startsWith("auth")) as TableNames[];

/** Every application row (auth bookkeeping such as sign-in rate limits left out). */
export async function snapshotAll(t: TestBackend): Promise<Record<string, unknown[]>> {
  return await t.run(async (ctx) => {
    const out: Record<string, unknown[]> = {};
    for (const table of APP_TABLES) out[table] = await ctx.db.query(table).take(10_000);
    return out;
  });
}

/** The rows the owner owns; mic counters that other comedians move are left out. */
export async function snapshotOwner(w: World): Promise<unknown[]> {
  return ownerRows(await snapshotAll(w.t), w.owner.userId);
}

/** The rows one comedian owns in a snapshot of every application table; counters others move are left out. */
export function ownerRows(all: Record<string, unknown[]>, userId: Id<"users">): unknown[] {
  const owner = userId as string;
  const rows: unknown[] = [];
  const ownerMics = new Set(
    (all.sceneItems as Array<Record<string, unknown>>).filter((d) => d.createdBy === owner).map((d) => d._id as string),
  );
  for (const [table, docs] of Object.entries(all)) {
    for (const doc of docs as Array<Record<string, unknown>>) {
      if (table === "sceneItems") {
        if (doc.createdBy !== owner) continue;
        const {
          checkInCount: _a,
          verifiedCheckIns30d: _b,
          lastCheckInAt: _c,
          lastVerifiedAt: _d,
          verificationExpiresAt: _e,
          ...rest
        } = doc;
        rows.push({ table, ...rest });
      } else if (table === "nightLists") {
        // The owner's lists as their host; the version moves with every sign-up.
        if (!ownerMics.has(doc.micId as string)) continue;
        const { version: _v, ...rest } = doc;
        rows.push({ table, ...rest });
      } else if (table === "listSpots" && doc.userId === undefined) {
        // Walk-ins are the host's entries.
        if (ownerMics.has(doc.micId as string)) rows.push({ table, ...doc });
      } else if (doc.userId === owner || doc.claimantId === owner || doc.reporterId === owner) {
        rows.push({ table, ...doc });
      }
    }
  }
  return rows;
}

/**
 * Every row of the bystander, whole (no call in the matrix is about her mic,
 * so even its counters and her list's version must hold): her account and
 * sign-in rows, her profile, sets and their derived rows, favourites, schedule,
 * check-ins, claims, reports, her mic, its list and walk-ins, and her spots on
 * other hosts' lists. Each row is tagged with its table.
 */
export function bystanderRows(
  all: Record<string, unknown[]>,
  auth: Record<string, unknown[]>,
  userId: Id<"users">,
): Array<Record<string, unknown>> {
  const me = userId as string;
  const rows: Array<Record<string, unknown>> = [];
  const myMics = new Set(
    (all.sceneItems as Array<Record<string, unknown>>).filter((d) => d.createdBy === me).map((d) => d._id as string),
  );
  for (const [table, docs] of [...Object.entries(all), ...Object.entries(auth)]) {
    for (const doc of docs as Array<Record<string, unknown>>) {
      const mine =
        (table === "users" && doc._id === me) ||
        (table === "sceneItems" && doc.createdBy === me) ||
        ((table === "nightLists" || table === "listSpots") && myMics.has(doc.micId as string)) ||
        doc.userId === me ||
        doc.claimantId === me ||
        doc.reporterId === me;
      if (mine) rows.push({ table, ...doc });
    }
  }
  const sessions = new Set(rows.filter((r) => r.table === "authSessions").map((r) => r._id as string));
  for (const doc of auth.authRefreshTokens as Array<Record<string, unknown>>) {
    if (sessions.has(doc.sessionId as string)) rows.push({ table: "authRefreshTokens", ...doc });
  }
  return rows;
}

/** One read of every application row, the owner's rows and the bystander's. */
export async function snapshotWorld(w: World): Promise<{
  all: Record<string, unknown[]>;
  owner: unknown[];
  third: Array<Record<string, unknown>>;
}> {
  const { all, auth } = await w.t.run(async (ctx) => {
    const all: Record<string, unknown[]> = {};
    for (const table of APP_TABLES) all[table] = await ctx.db.query(table).take(10_000);
    const auth: Record<string, unknown[]> = {};
    for (const table of ["authAccounts", "authSessions", "authRefreshTokens"] as const) {
      auth[table] = await ctx.db.query(table).take(10_000);
    }
    return { all, auth };
  });
  return { all, owner: ownerRows(all, w.owner.userId), third: bystanderRows(all, auth, w.third.userId) };
}

export type Entry = {
  args: (w: World) => Record<string, unknown>;
  /** False for answers made only of figures (totals, progress), which name nobody. */
  ownerAnswerShows?: false;
  /**
   * The few functions whose legitimate change also changes the bystander's rows
   * (deleting a mic she favourited, re-ranking a list she is on). Only in its
   * "change" cells, and only her rows that were about `mic` (whose `micId` or
   * `sceneItemId` named it before the call) and her rows in the `derived`
   * tables (totals recomputed from those) may change; every other row of hers,
   * and every other cell, must hold.
   */
  changesBystander?: { why: string; mic: (w: World) => Id<"sceneItems">; derived?: string[] };
} & Record<Role, Access>;

const both = { title: "Olive's Mic, edited", dayOfWeek: 4, startTimeLocal: "21:00" };
const newMicDetails = {
  type: "open_mic" as const,
  title: "Brand New Mic",
  dayOfWeek: 2,
  startTimeLocal: "20:00",
  recurrence: "weekly" as const,
  signupMethod: "in_person" as const,
};
const page = { paginationOpts: { numItems: 25, cursor: null } };

/** Who may do what with each public function (anonymous, another comedian, an admin, the owner). */
export const matrix: Record<string, Entry> = {
  // Account
  "account:deleteAccount": {
    args: () => ({ confirm: "DELETE" }),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "change",
  },
  "account:exportData": { args: () => ({}), anon: "nothing", other: "own", admin: "own", owner: "read" },
  "auth:isAuthenticated": { args: () => ({}), anon: "nothing", other: "own", admin: "own", owner: "own" },
  "auth:signIn": {
    args: () => ({
      provider: "password",
      params: { email: OWNER_EMAIL, password: "not-her-password", flow: "signIn" },
    }),
    anon: "nothing",
    other: "nothing",
    admin: "nothing",
    owner: "nothing",
  },
  "auth:signOut": { args: () => ({}), anon: "own", other: "own", admin: "own", owner: "own" },
  "profiles:me": { args: () => ({}), anon: "nothing", other: "own", admin: "own", owner: "read" },
  "profiles:isAdmin": { args: () => ({}), anon: "nothing", other: "nothing", admin: "read", owner: "nothing" },
  "profiles:ensure": { args: () => ({}), anon: "nothing", other: "own", admin: "own", owner: "own" },
  "profiles:skipOnboarding": { args: () => ({}), anon: "nothing", other: "own", admin: "own", owner: "change" },
  "profiles:completeOnboarding": {
    args: () => ({ weeklyGoalMinutes: 20 }),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "change",
  },
  "profiles:update": {
    args: () => ({ displayName: "Renamed", weeklyGoalMinutes: 30, defaultCity: "Austin" }),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "change",
  },
  "profiles:generatePhotoUploadUrl": { args: () => ({}), anon: "nothing", other: "own", admin: "own", owner: "own" },
  "profiles:setPhoto": {
    args: (w) => ({ storageId: w.photo }),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "change",
  },
  "goals:update": {
    args: () => ({ weeklyGoalMinutes: 30 }),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "change",
  },

  // Sets, stats, badges, history, dashboard
  "performances:log": {
    args: (w) => ({ minutes: 5, performedAt: NOW - 60_000, sceneItemId: w.ownerMic, tags: [] }),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "change",
  },
  "performances:logWithNewMic": {
    args: () => ({
      set: { minutes: 6, performedAt: NOW - 60_000, tags: [] },
      venue: { venueName: "The Back Room", address: "9 Side St, Brooklyn, NY" },
      details: newMicDetails,
      alsoAddToScene: true,
    }),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "change",
  },
  "onboarding:logFirstSet": {
    args: (w) => ({ sceneItemId: w.ownerMic, minutes: 5, performedAt: NOW - 60_000, timeZone: "America/New_York" }),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "change",
  },
  "performances:update": {
    args: (w) => ({ id: w.ownerSet, minutes: 12, performedAt: NOW - DAY, notes: "changed" }),
    anon: "nothing",
    other: "nothing",
    admin: "nothing",
    owner: "change",
  },
  "performances:remove": {
    args: (w) => ({ id: w.ownerSet }),
    anon: "nothing",
    other: "nothing",
    admin: "nothing",
    owner: "change",
  },
  "stats:mine": {
    ownerAnswerShows: false,
    args: () => ({ today: "2026-11-25" }),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "read",
  },
  "badges:mine": {
    ownerAnswerShows: false,
    args: () => ({}),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "read",
  },
  "badges:progress": {
    ownerAnswerShows: false,
    args: () => ({ monthStartMs: Date.parse("2026-11-01T00:00:00-04:00") }),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "read",
  },
  "history:list": { args: () => page, anon: "nothing", other: "own", admin: "own", owner: "read" },
  "history:stats": {
    ownerAnswerShows: false,
    args: () => ({}),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "read",
  },
  "dashboard:summary": {
    args: () => ({ goalWeekStartMs: NOW - 3 * DAY, goalWeekEndMs: NOW + 4 * DAY, today: "2026-11-25" }),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "read",
  },
  "community:stats": { args: () => ({}), anon: "read", other: "read", admin: "read", owner: "read" },

  // The scene
  // Active items only; sceneList.test.ts shows no caller ever gets an inactive one.
  "scene:listPage": {
    args: () => ({ type: "all", day: null, search: "", ...page }),
    anon: "read",
    other: "read",
    admin: "read",
    owner: "read",
  },
  "scene:get": { args: (w) => ({ id: w.ownerMic }), anon: "read", other: "read", admin: "read", owner: "read" },
  "scene:viewerState": {
    args: () => ({ sinceMs: NOW - 2 * DAY }),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "read",
  },
  "scene:remove": {
    changesBystander: {
      why: "deleting the mic deletes everyone's favourites, schedule entries, reports and venue visits there, unlinks their sets and recounts their venues",
      mic: (w) => w.ownerMic,
      derived: ["userStats"],
    },
    args: (w) => ({ id: w.ownerMic }),
    anon: "nothing",
    other: "nothing",
    admin: "change",
    owner: "change",
  },
  "sceneArea:listArea": {
    args: () => ({ lat: VENUE.latitude, lng: VENUE.longitude, radiusMiles: 10, ...page }),
    anon: "read",
    other: "read",
    admin: "read",
    owner: "read",
  },
  "tonight:list": {
    args: () => ({
      nowMs: NOW,
      timeZone: "America/New_York",
      type: "all",
      search: "",
      filters: { freeOnly: false, signup: "any", timeOfDay: "any", hideStale: false },
      ...page,
    }),
    anon: "read",
    other: "read",
    admin: "read",
    owner: "read",
  },
  "tonight:tomorrow": {
    // The evening before the world's Wednesday mics.
    args: () => ({
      nowMs: NOW - 24 * 60 * 60 * 1000,
      timeZone: "America/New_York",
      type: "all",
      search: "",
      filters: { freeOnly: false, signup: "any", timeOfDay: "any", hideStale: false },
    }),
    anon: "read",
    other: "read",
    admin: "read",
    owner: "read",
  },
  "venues:search": { args: () => ({ query: "Test Room" }), anon: "read", other: "read", admin: "read", owner: "read" },
  "venues:eventsAt": {
    args: () => ({ venueName: "The Test Room" }),
    anon: "read",
    other: "read",
    admin: "read",
    owner: "read",
  },
  "venues:similar": {
    args: () => ({ venueName: "The Test Room" }),
    anon: "read",
    other: "read",
    admin: "read",
    owner: "read",
  },
  "events:create": {
    args: () => ({
      venue: { venueName: "Fresh Venue", address: "1 Fresh St, Brooklyn, NY", latitude: 40.7, longitude: -73.95 },
      details: newMicDetails,
    }),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "change",
  },
  "checkIns:checkIn": {
    args: (w) => ({ sceneItemId: w.ownerMic, ...VENUE }),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "change",
  },

  // Favourites and the schedule
  "favorites:add": {
    args: (w) => ({ sceneItemId: w.claimMic }),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "change",
  },
  "favorites:remove": {
    args: (w) => ({ sceneItemId: w.ownerMic }),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "change",
  },
  "favorites:list": { args: () => ({}), anon: "nothing", other: "own", admin: "own", owner: "read" },
  "schedule:add": {
    args: (w) => ({ sceneItemId: w.claimMic }),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "change",
  },
  "schedule:remove": {
    args: (w) => ({ entryId: w.ownerEntry }),
    anon: "nothing",
    other: "nothing",
    admin: "nothing",
    owner: "change",
  },
  "schedule:removeByItem": {
    args: (w) => ({ sceneItemId: w.ownerMic }),
    anon: "nothing",
    other: "nothing",
    admin: "nothing",
    owner: "change",
  },
  "schedule:week": {
    args: () => ({ weekStartMs: NOW - 3 * DAY, weekEndMs: NOW + 4 * DAY, nowMs: NOW }),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "read",
  },
  "schedule:calendar": {
    ownerAnswerShows: false,
    args: () => ({ fromMs: NOW - DAY }),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "read",
  },

  // Claims and reports
  "claims:submit": {
    args: (w) => ({ micId: w.claimMic, message: "I host it" }),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "nothing",
  },
  "claims:mine": { args: (w) => ({ micId: w.claimMic }), anon: "nothing", other: "own", admin: "own", owner: "read" },
  "claims:ownerState": {
    ownerAnswerShows: false,
    args: (w) => ({ micId: w.ownerMic }),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "read",
  },
  "claims:list": { args: () => ({}), anon: "nothing", other: "nothing", admin: "read", owner: "nothing" },
  "claims:revoke": {
    args: (w) => ({ id: w.approvedClaim }),
    anon: "nothing",
    other: "nothing",
    admin: "change",
    owner: "nothing",
  },
  "claims:review": {
    args: (w) => ({ id: w.ownerClaim, status: "approved" }),
    anon: "nothing",
    other: "nothing",
    admin: "change",
    owner: "nothing",
  },
  "claims:updateOwnMic": {
    args: (w) => ({ micId: w.ownerMic, ...both }),
    anon: "nothing",
    other: "nothing",
    admin: "nothing",
    owner: "change",
  },
  "claims:setCancelledDate": {
    args: (w) => ({ micId: w.ownerMic, date: "2026-12-02", cancelled: true }),
    anon: "nothing",
    other: "nothing",
    admin: "nothing",
    owner: "change",
  },
  "claims:setConfirmedDate": {
    args: (w) => ({ micId: w.ownerMic, date: "2026-11-25", confirmed: true }),
    anon: "nothing",
    other: "nothing",
    admin: "change",
    owner: "change",
  },
  "reports:submit": {
    args: (w) => ({ micId: w.ownerMic, kind: "no_longer_runs" }),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "change",
  },
  "reports:list": { args: () => ({}), anon: "nothing", other: "nothing", admin: "read", owner: "nothing" },
  "reports:resolve": {
    args: (w) => ({ id: w.ownerReport, action: "dismiss" }),
    anon: "nothing",
    other: "nothing",
    admin: "change",
    owner: "nothing",
  },

  // The live list
  "nightLists:current": {
    args: (w) => ({ micId: w.ownerMic, sinceDate: "2026-11-24" }),
    anon: "read",
    other: "read",
    admin: "read",
    owner: "read",
  },
  "nightLists:myRecent": { args: () => ({}), anon: "nothing", other: "own", admin: "own", owner: "read" },
  "nightLists:open": {
    args: (w) => ({ micId: w.ownerMic, date: "2026-11-26", spots: 10, lightMinutes: 1, mode: "first_come" }),
    anon: "nothing",
    other: "nothing",
    admin: "change",
    owner: "change",
  },
  "nightLists:signUp": {
    args: (w) => ({ listId: w.claimList }),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "change",
  },
  "nightLists:dropOut": {
    changesBystander: {
      why: "dropping out moves the spots after it up",
      mic: (w) => w.noCoordsMic,
    },
    args: (w) => ({ listId: w.lotteryList }),
    anon: "nothing",
    other: "own",
    admin: "nothing",
    owner: "change",
  },
  "nightLists:addWalkIn": {
    args: (w) => ({ listId: w.ownerList, name: "Walk-in Wendy" }),
    anon: "nothing",
    other: "nothing",
    admin: "change",
    owner: "change",
  },
  "nightLists:move": {
    args: (w) => ({ listId: w.ownerList, spotId: w.ownerSpot, toIndex: 1, version: 1 }),
    anon: "nothing",
    other: "nothing",
    admin: "change",
    owner: "change",
  },
  "nightLists:bump": {
    changesBystander: {
      why: "bumping a spot moves the spots after it up",
      mic: (w) => w.ownerMic,
    },
    args: (w) => ({ listId: w.ownerList, spotId: w.ownerSpot, version: 1 }),
    anon: "nothing",
    other: "nothing",
    admin: "change",
    owner: "change",
  },
  "nightLists:noShow": {
    args: (w) => ({ listId: w.ownerList, spotId: w.ownerSpot, version: 1 }),
    anon: "nothing",
    other: "nothing",
    admin: "change",
    owner: "change",
  },
  "nightLists:draw": {
    changesBystander: {
      why: "the draw places every spot in the pool",
      mic: (w) => w.noCoordsMic,
    },
    args: (w) => ({ listId: w.lotteryList }),
    anon: "nothing",
    other: "nothing",
    admin: "change",
    owner: "change",
  },
  "nightLists:upNow": {
    args: (w) => ({ listId: w.ownerList, spotId: w.ownerSpot }),
    anon: "nothing",
    other: "nothing",
    admin: "change",
    owner: "change",
  },
  "nightLists:done": {
    args: (w) => ({ listId: w.runningList, spotId: w.runningSpot, useTimer: false }),
    anon: "nothing",
    other: "nothing",
    admin: "change",
    owner: "change",
  },
  "nightLists:close": {
    args: (w) => ({ listId: w.ownerList }),
    anon: "nothing",
    other: "nothing",
    admin: "change",
    owner: "change",
  },

  // Admin
  "admin:listMics": {
    args: () => ({ search: "" }),
    anon: "nothing",
    other: "nothing",
    admin: "read",
    owner: "nothing",
  },
  "admin:updateMic": {
    args: (w) => ({
      id: w.ownerMic,
      title: "Renamed by admin",
      venueName: "The Test Room",
      city: "New York",
      type: "open_mic",
      dayOfWeek: 3,
      startTimeLocal: "20:00",
      status: "active",
      costInfo: { type: "free" },
    }),
    anon: "nothing",
    other: "nothing",
    admin: "change",
    owner: "nothing",
  },
  "admin:deleteMic": {
    changesBystander: {
      why: "deleting the mic deletes everyone's favourites, schedule entries, reports and venue visits there, unlinks their sets and recounts their venues",
      mic: (w) => w.ownerMic,
      derived: ["userStats"],
    },
    args: (w) => ({ id: w.ownerMic }),
    anon: "nothing",
    other: "nothing",
    admin: "change",
    owner: "nothing",
  },
  "geocode:fixCoordinates": { args: () => ({}), anon: "nothing", other: "nothing", admin: "change", owner: "nothing" },
};
