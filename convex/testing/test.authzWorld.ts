/**
 * The authorization matrix's world (convex/authz.test.ts): the owner's real
 * data, the other callers and the bystander, what a cell of the matrix is, and
 * the arguments several areas share. The snapshots every cell compares are in
 * convex/testing/test.authzSnapshot.ts; the cells themselves, one module per area of
 * functions, in convex/testing/test.authzMatrix.ts. The hostile-input test
 * (convex/fuzzHostile.test.ts) reuses the same world and valid arguments.
 */
import { api } from "../_generated/api";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { createAdmin, createSceneItem, createUser, newTest, type TestBackend, type TestUser } from "./test.setup";

// read: succeeds, non-empty; own: succeeds on the caller only (none of the owner's private data or rows touched);
// change: the owner's rows changed; nothing: a ConvexError (a query may answer null, false or []), no row changed.
export type Access = "read" | "own" | "change" | "nothing";
export type Role = "anon" | "other" | "admin" | "owner";

/**
 * The access patterns most functions share, one name each: a cell spreads one
 * (`{ args, ...SIGNED_IN_CHANGES }`) or spells out its four roles when it is
 * unlike the others.
 */
/** Everyone, signed in or not, reads the same answer. */
export const PUBLIC_READ = { anon: "read", other: "read", admin: "read", owner: "read" } as const;
/** Any signed-in caller reads only their own (the owner sees her rows in the answer). */
export const SIGNED_IN_READS = { anon: "nothing", other: "own", admin: "own", owner: "read" } as const;
/** Any signed-in caller changes only their own (the owner's call changes her rows). */
export const SIGNED_IN_CHANGES = { anon: "nothing", other: "own", admin: "own", owner: "change" } as const;
/** Any signed-in caller may call it, and it acts on the caller alone. */
export const SIGNED_IN_OWN = { anon: "nothing", other: "own", admin: "own", owner: "own" } as const;
/** Only the owner of the row changes it. */
export const OWNER_CHANGES = { anon: "nothing", other: "nothing", admin: "nothing", owner: "change" } as const;
/** The owner of the row or an admin changes it. */
export const OWNER_OR_ADMIN_CHANGES = { anon: "nothing", other: "nothing", admin: "change", owner: "change" } as const;
/** Only an admin reads it. */
export const ADMIN_READS = { anon: "nothing", other: "nothing", admin: "read", owner: "nothing" } as const;
/** Only an admin changes it. */
export const ADMIN_CHANGES = { anon: "nothing", other: "nothing", admin: "change", owner: "nothing" } as const;

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
  /** A Wednesday 20:00 mic in Manhattan the owner created (and hosts, by an approved claim), favourited, scheduled and logged a set at. */
  ownerMic: Id<"sceneItems">;
  /** A mic nobody created, the owner claimed (pending), reported and checked in at. */
  claimMic: Id<"sceneItems">;
  /** The owner's mic without coordinates (for the geocoder). */
  noCoordsMic: Id<"sceneItems">;
  ownerSet: Id<"performances">;
  /** The owner's public link to her season (its token is hers to hand out). */
  ownerShare: Id<"seasonShares">;
  ownerShareToken: string;
  ownerEntry: Id<"scheduleEntries">;
  ownerClaim: Id<"micClaims">;
  /** A mic the bystander hosts (approved claim) with the owner's claim still pending on it. */
  mootMic: Id<"sceneItems">;
  /** The owner's approved claim on a mic nobody created. */
  approvedClaim: Id<"micClaims">;
  ownerReport: Id<"problemReports">;
  ownerNotice: Id<"notifications">;
  photo: Id<"_storage">;
  /** Tonight's first-come list on the owner's mic: the owner, the other comedian and a walk-in. */
  ownerList: Id<"nightLists">;
  ownerSpot: Id<"listSpots">;
  /** The walk-in on the owner's list. */
  walkInSpot: Id<"listSpots">;
  /** An undrawn lottery on the owner's mic without coordinates: the owner and the other comedian in the pool. */
  lotteryList: Id<"nightLists">;
  /** A list on another mic of the owner's where the owner is up now. */
  runningList: Id<"nightLists">;
  runningSpot: Id<"listSpots">;
  /** Tonight's empty list on the mic the owner only claimed (opened by the admin). */
  claimList: Id<"nightLists">;
  /** Tonight's list the owner closed, on another mic she hosts (to reopen). */
  closedList: Id<"nightLists">;
  /** A bit in the owner's library (private to her, admins included). */
  ownerBit: Id<"bits">;
  /** A bit in the bystander's library. */
  thirdBit: Id<"bits">;
  /** The owner's set list with her bit, for her mic's night; her set waits for "How did it go?" about it. */
  ownerSetList: Id<"setLists">;
};

export const NOW = Date.parse("2026-11-25T19:45:00-05:00");
export const DAY = 24 * 60 * 60 * 1000;
export const VENUE = { latitude: 40.7411, longitude: -73.9897 };
export const OWNER_NAME = "Owner Olive";
export const OWNER_EMAIL = "olive.owner@example.com";
/** The push endpoint of the owner's phone. */
export const OWNER_ENDPOINT = "https://fcm.googleapis.com/fcm/send/olive-phone";
export const THIRD_NAME = "Third Thea";
export const THIRD_EMAIL = "thea.third@example.com";
export const OWNER_BIT = "Olive's private bit";
export const THIRD_BIT = "Thea's private bit";
export const OWNER_SET_LIST = "Olive's private set list";
export const THIRD_SET_LIST = "Thea's private set list";
/** The outbox keys the owner's and the third comedian's first sets were sent with. */
export const OWNER_SET_KEY = "olive-outbox-0123456789";
const THIRD_SET_KEY = "thea-outbox-0123456789";

/** The backend as `role` sees it: anonymous, or signed in as that user. */
export function callerOf(w: World, role: Role) {
  return role === "anon" ? w.t : w[role].asUser;
}

/** An open problem report on `micId` by `reporter`, as written straight to the table. */
function openReport(micId: Id<"sceneItems">, reporter: TestUser, kind: Doc<"problemReports">["kind"] = "wrong_time") {
  return { micId, reporterId: reporter.userId, kind, status: "open" as const };
}

/** A spot as the world writes it: who holds it, and any field of the row that differs from a waiting spot. */
type SpotRow = { name: string } & Partial<Omit<Doc<"listSpots">, "_id" | "_creationTime" | "listId" | "micId">>;

/** Inserts `rows` as waiting spots in `section` of the list `listId` (of `micId`), ranked in the order given; returns their ids. */
async function insertSpots(
  ctx: MutationCtx,
  at: { listId: Id<"nightLists">; micId: Id<"sceneItems">; section: Doc<"listSpots">["section"] },
  rows: SpotRow[],
): Promise<Id<"listSpots">[]> {
  const ids: Id<"listSpots">[] = [];
  for (const [rank, row] of rows.entries()) {
    ids.push(
      await ctx.db.insert("listSpots", { state: "waiting", priority: false, bumped: false, ...at, rank, ...row }),
    );
  }
  return ids;
}

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
    clientKey: OWNER_SET_KEY,
  });
  const { id: ownerShare, token: ownerShareToken } = await owner.asUser.mutation(api.season.createShare, {
    from: "2026-01",
    to: "2026-12",
    fields: ["name", "sets", "topMics"],
  });
  await owner.asUser.mutation(api.favorites.add, { sceneItemId: ownerMic });
  const { entryId: ownerEntry } = await owner.asUser.mutation(api.schedule.add, { sceneItemId: ownerMic });
  await owner.asUser.mutation(api.checkIns.checkIn, { sceneItemId: claimMic, ...VENUE });
  const { ownerClaim, ownerReport, photo } = await t.run(async (ctx) => ({
    ownerClaim: await ctx.db.insert("micClaims", { micId: claimMic, claimantId: owner.userId, status: "pending" }),
    ownerReport: await ctx.db.insert("problemReports", openReport(claimMic, owner)),
    photo: await ctx.storage.store(new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: "image/png" })),
  }));
  const ownerNotice = await t.run(async (ctx) => {
    await ctx.db.insert("pushSubscriptions", {
      userId: owner.userId,
      endpoint: OWNER_ENDPOINT,
      p256dh: "BOlive",
      auth: "olive",
    });
    const notice = { kind: "set_feedback" as const, eventKey: "olive-notice", title: "How did it go?" };
    return await ctx.db.insert("notifications", {
      ...notice,
      userId: owner.userId,
      body: `For ${OWNER_NAME}`,
      url: "/",
      push: "sent",
    });
  });
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
    clientKey: THIRD_SET_KEY,
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
    thirdReport: await ctx.db.insert("problemReports", openReport(claimMic, third)),
    ownerMicReport: await ctx.db.insert("problemReports", openReport(ownerMic, third, "other")),
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
    const ownerSpotRow = { userId: owner.userId, name: OWNER_NAME };
    const otherSpotRow = { userId: other.userId, name: "Other Otto" };
    const thirdSpotRow = { userId: third.userId, name: THIRD_NAME };
    const ownerList = await ctx.db.insert("nightLists", { ...base, micId: ownerMic, openedBy: owner.userId });
    const [ownerSpot, , walkInSpot] = await insertSpots(ctx, { listId: ownerList, micId: ownerMic, section: "list" }, [
      ownerSpotRow,
      otherSpotRow,
      { name: "Walk-in Wally" },
      thirdSpotRow,
    ]);
    const thirdList = await ctx.db.insert("nightLists", { ...base, micId: thirdMic, openedBy: third.userId });
    await insertSpots(ctx, { listId: thirdList, micId: thirdMic, section: "list" }, [
      thirdSpotRow,
      { name: "Walk-in Wanda" },
    ]);
    const lotteryList = await ctx.db.insert("nightLists", {
      ...base,
      micId: noCoordsMic,
      openedBy: owner.userId,
      mode: "lottery",
      drawAt: NOW + 60 * 60 * 1000,
    });
    // The bystander ahead of the other comedian, so that his dropping out leaves her rank as it was.
    await insertSpots(ctx, { listId: lotteryList, micId: noCoordsMic, section: "pool" }, [
      ownerSpotRow,
      thirdSpotRow,
      otherSpotRow,
    ]);
    const runningList = await ctx.db.insert("nightLists", { ...base, micId: runningMic, openedBy: owner.userId });
    const [runningSpot] = await insertSpots(ctx, { listId: runningList, micId: runningMic, section: "list" }, [
      { ...ownerSpotRow, state: "up", startedAt: NOW - 5 * 60 * 1000 },
      thirdSpotRow,
    ]);
    const claimList = await ctx.db.insert("nightLists", { ...base, micId: claimMic, openedBy: admin.userId });
    return { ownerList, ownerSpot, walkInSpot, lotteryList, runningList, runningSpot, claimList, thirdList };
  });
  // The owner hosts her own mics' lists: creating a mic gives no host rights, an approved claim does.
  await t.run(async (ctx) => {
    for (const micId of [ownerMic, noCoordsMic, runningMic]) {
      await ctx.db.insert("micClaims", {
        micId,
        claimantId: owner.userId,
        status: "approved",
        reviewedAt: NOW - DAY,
        reviewedBy: admin.userId,
      });
    }
  });
  const closedMic = await createSceneItem(t, {
    title: "Closed Early Mic",
    venueName: "Early Room",
    createdBy: owner.userId,
  });
  const closedList = await t.run(async (ctx) => {
    await ctx.db.insert("micClaims", {
      micId: closedMic,
      claimantId: owner.userId,
      status: "approved",
      reviewedAt: NOW - DAY,
      reviewedBy: admin.userId,
    });
    return await ctx.db.insert("nightLists", {
      micId: closedMic,
      date: "2026-11-25",
      status: "closed",
      closedReason: "ended",
      openedBy: owner.userId,
      spots: 5,
      waitlistSpots: 5,
      setMinutes: 5,
      lightMinutes: 1,
      mode: "first_come",
      bucket: false,
      signupOpensAt: NOW - 60 * 60 * 1000,
      version: 1,
    });
  });
  const hostedMic = await createSceneItem(t, { title: "Co-hosted Mic", venueName: "Cohost Room" });
  const approvedClaim = await t.run(async (ctx) => {
    const approved = { micId: hostedMic, status: "approved" as const, reviewedAt: NOW - DAY, reviewedBy: admin.userId };
    // The bystander co-hosts it: revoking the owner's claim leaves hers approved.
    await ctx.db.insert("micClaims", { ...approved, claimantId: third.userId });
    return await ctx.db.insert("micClaims", { ...approved, claimantId: owner.userId });
  });
  const ownerBit = await owner.asUser.mutation(api.bits.create, {
    title: OWNER_BIT,
    notes: "olive's private premise",
    tags: ["olive-bit-tag"],
    seconds: 90,
    status: "working",
  });
  const thirdBit = await third.asUser.mutation(api.bits.create, {
    title: THIRD_BIT,
    notes: "thea's private premise",
    tags: ["thea-bit-tag"],
    status: "new",
  });
  const ownerSetList = await owner.asUser.mutation(api.setLists.create, {
    title: OWNER_SET_LIST,
    bitIds: [ownerBit],
    night: { micId: ownerMic, date: "2026-11-25" },
  });
  const thirdSetList = await third.asUser.mutation(api.setLists.create, { title: THIRD_SET_LIST, bitIds: [thirdBit] });
  await t.run(async (ctx) => {
    const review = { rated: 0, landed: 0, okay: 0, flat: 0, status: "pending" as const };
    await ctx.db.insert("setReviews", {
      ...review,
      userId: owner.userId,
      performanceId: ownerSet,
      setListId: ownerSetList,
      sceneItemId: ownerMic,
      performedAt: NOW - DAY,
      bitIds: [ownerBit],
    });
    await ctx.db.insert("setReviews", {
      ...review,
      userId: third.userId,
      performanceId: thirdSet,
      setListId: thirdSetList,
      sceneItemId: ownerMic,
      performedAt: NOW - 2 * DAY,
      bitIds: [thirdBit],
    });
  });
  await third.asUser.mutation(api.ratings.rate, {
    performanceId: thirdSet,
    ratings: [{ bitId: thirdBit, rating: "flat", note: "thea's private rating note" }],
  });
  // The bystander hosts it; the owner's claim on it still waits, moot.
  const mootMic = await createSceneItem(t, { title: "Moot Mic", venueName: "Moot Room" });
  await t.run(async (ctx) => {
    await ctx.db.insert("micClaims", {
      micId: mootMic,
      claimantId: third.userId,
      status: "approved",
      reviewedAt: NOW - DAY,
      reviewedBy: admin.userId,
    });
    await ctx.db.insert("micClaims", { micId: mootMic, claimantId: owner.userId, status: "pending" });
  });
  return {
    t,
    owner,
    other,
    admin,
    third,
    ownerBit,
    thirdBit,
    ownerSetList,
    thirdMic,
    thirdSet,
    thirdEntry,
    thirdClaim,
    thirdReport,
    approvedClaim,
    mootMic,
    ownerMic,
    claimMic,
    noCoordsMic,
    ownerSet,
    ownerShare,
    ownerShareToken,
    ownerEntry,
    ownerClaim,
    ownerReport,
    ownerNotice,
    photo,
    ...lists,
    closedList,
  };
}

/** Things only the owner's own answers may contain. */
export function privateMarkers(w: World): string[] {
  return [
    w.owner.userId,
    w.owner.profileId,
    w.ownerSet,
    w.ownerShareToken,
    w.ownerEntry,
    w.ownerClaim,
    w.ownerReport,
    OWNER_NAME,
    OWNER_EMAIL,
    "olive-private-tag",
    w.ownerBit,
    OWNER_BIT,
    "olive-bit-tag",
    w.ownerSetList,
    OWNER_SET_LIST,
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
    w.thirdBit,
    THIRD_BIT,
    "thea-bit-tag",
    THIRD_SET_LIST,
    "thea's private rating note",
  ];
}

export type Entry = {
  args: (w: World) => Record<string, unknown>;
  /** False for answers made only of figures (totals, progress), which name nobody. */
  ownerAnswerShows?: false;
  /**
   * The few functions whose "change" cells may change the bystander's rows about `mic` (its `micId` or
   * `sceneItemId`) and her `derived` totals; or, in any cell, the `rank` of her spots on lists it removed spots from.
   */
  changesBystander?:
    { why: string; mic: (w: World) => Id<"sceneItems">; derived?: string[] } | { why: string; ranksOnLeftLists: true };
} & Record<Role, Access>;

/** What deleting the owner's mic (by an admin: the bystander's rows keep its creator from it) may change of the bystander's rows. */
export const DELETING_THE_OWNERS_MIC: NonNullable<Entry["changesBystander"]> = {
  why: "deleting the mic deletes everyone's favourites, schedule entries, reports and venue visits there, unlinks their sets and recounts their venues",
  mic: (w) => w.ownerMic,
  derived: ["userStats", "seasonMonths"],
};

/** Arguments the cells of several areas share. */
export const newMicDetails = {
  type: "open_mic" as const,
  title: "Brand New Mic",
  dayOfWeek: 2,
  startTimeLocal: "20:00",
  recurrence: "weekly" as const,
  signupMethod: "in_person" as const,
};
export const page = { paginationOpts: { numItems: 25, cursor: null } };
