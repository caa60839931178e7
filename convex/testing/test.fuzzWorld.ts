/** The world each function is fuzzed against (fuzz.test.ts): two comedians and an admin, their mics, sets, claims, reports, files and live lists, and ids of deleted rows. */
import { api } from "../_generated/api";
import type { Pools } from "./test.fuzzArgs";
import { DAY, NOW, VENUE } from "./test.fuzz";
import { createAdmin, createSceneItem, createUser, newTest, type TestBackend, type TestUser } from "./test.setup";

export type World = { t: TestBackend; comic: TestUser; admin: TestUser; pools: { ids: Pools["ids"] } };

export async function buildWorld(): Promise<World> {
  const t = newTest();
  const comic = await createUser(t, { email: "olive.owner@example.com", withStats: true });
  const rival = await createUser(t, { withStats: true });
  const admin = await createAdmin(t);
  const wednesday = { dayOfWeek: 3, startTimeLocal: "20:00", ...VENUE };
  const mine = await createSceneItem(t, { ...wednesday, title: "Mine", createdBy: comic.userId });
  const theirs = await createSceneItem(t, {
    ...wednesday,
    title: "Theirs",
    venueName: "Their Room",
    createdBy: rival.userId,
  });
  const lost = await createSceneItem(t, { title: "Lost", latitude: undefined, longitude: undefined });
  const { performanceId: mySet } = await comic.asUser.mutation(api.performances.log, {
    minutes: 7,
    performedAt: NOW - DAY,
    sceneItemId: mine,
    tags: [],
  });
  const { performanceId: theirSet } = await rival.asUser.mutation(api.performances.log, {
    minutes: 9,
    performedAt: NOW - 2 * DAY,
    sceneItemId: theirs,
    tags: [],
  });
  const { entryId } = await comic.asUser.mutation(api.schedule.add, { sceneItemId: theirs });
  await rival.asUser.mutation(api.checkIns.checkIn, { sceneItemId: theirs, ...VENUE });
  const ids = await t.run(async (ctx) => {
    const claim = await ctx.db.insert("micClaims", { micId: theirs, claimantId: rival.userId, status: "pending" });
    // The comedian hosts "Mine" by an approved claim (creating it gave no host
    // rights) and once hosted "Theirs" (revoked): host calls reach the logic on
    // one and must be refused on the other, whoever created it.
    const hostClaim = await ctx.db.insert("micClaims", {
      micId: mine,
      claimantId: comic.userId,
      status: "approved",
      reviewedAt: NOW - DAY,
      reviewedBy: admin.userId,
    });
    const revokedClaim = await ctx.db.insert("micClaims", {
      micId: theirs,
      claimantId: comic.userId,
      status: "revoked",
      reviewedAt: NOW - 2 * DAY,
      reviewedBy: admin.userId,
      revokedAt: NOW - DAY,
      revokedBy: admin.userId,
    });
    const report = await ctx.db.insert("problemReports", {
      micId: theirs,
      reporterId: rival.userId,
      kind: "wrong_time",
      status: "open",
    });
    const photo = await ctx.storage.store(new Blob([new Uint8Array(64)], { type: "image/png" }));
    const pdf = await ctx.storage.store(new Blob([new Uint8Array(64)], { type: "application/pdf" }));
    const db = ctx.db as unknown as { patch: (table: string, id: string, value: object) => Promise<void> };
    await db.patch("_storage", photo, { contentType: "image/png" });
    await db.patch("_storage", pdf, { contentType: "application/pdf" });
    const goneItem = await ctx.db.insert("sceneItems", {
      title: "Gone",
      venueName: "Gone",
      city: "Gone",
      type: "open_mic",
      recurrence: "weekly",
      timeZone: "America/New_York",
      status: "inactive",
      checkInCount: 0,
      verifiedCheckIns30d: 0,
      searchText: "gone",
    });
    await ctx.db.delete("sceneItems", goneItem);
    const goneSet = await ctx.db.insert("performances", {
      userId: rival.userId,
      minutes: 1,
      performedAt: 1,
      performanceDate: "2020-01-01",
      tags: [],
    });
    await ctx.db.delete("performances", goneSet);
    // Live lists: one the comedian hosts (someone up, a waitlist), an undrawn
    // lottery of theirs, and the rival's list the comedian is on.
    const listBase = {
      status: "open" as const,
      spots: 3,
      waitlistSpots: 2,
      setMinutes: 5,
      lightMinutes: 1,
      mode: "first_come" as const,
      bucket: false,
      signupOpensAt: NOW - DAY / 24,
      version: 1,
    };
    const spot = { state: "waiting" as const, priority: false, bumped: false };
    const myList = await ctx.db.insert("nightLists", {
      ...listBase,
      micId: mine,
      date: "2026-11-25",
      openedBy: comic.userId,
    });
    const myLottery = await ctx.db.insert("nightLists", {
      ...listBase,
      micId: mine,
      date: "2026-11-26",
      openedBy: comic.userId,
      mode: "lottery",
      drawAt: NOW + DAY / 2,
    });
    const theirList = await ctx.db.insert("nightLists", {
      ...listBase,
      micId: theirs,
      date: "2026-11-25",
      openedBy: rival.userId,
    });
    const spots = [
      await ctx.db.insert("listSpots", {
        ...spot,
        listId: myList,
        micId: mine,
        userId: rival.userId,
        name: "Rival",
        section: "list",
        rank: 0,
      }),
      await ctx.db.insert("listSpots", {
        ...spot,
        listId: myList,
        micId: mine,
        name: "Walk-in",
        section: "list",
        rank: 1,
      }),
      await ctx.db.insert("listSpots", {
        ...spot,
        listId: myList,
        micId: mine,
        name: "On stage",
        section: "list",
        rank: 2,
        state: "up",
        startedAt: NOW - 300_000,
      }),
      await ctx.db.insert("listSpots", {
        ...spot,
        listId: myList,
        micId: mine,
        name: "Waiting",
        section: "waitlist",
        rank: 0,
      }),
      await ctx.db.insert("listSpots", {
        ...spot,
        listId: myLottery,
        micId: mine,
        userId: rival.userId,
        name: "Rival",
        section: "pool",
        rank: 0,
      }),
      await ctx.db.insert("listSpots", {
        ...spot,
        listId: theirList,
        micId: theirs,
        userId: comic.userId,
        name: "Comic",
        section: "list",
        rank: 0,
      }),
    ];
    return {
      claims: [claim, hostClaim, revokedClaim],
      report,
      photo,
      pdf,
      goneItem,
      goneSet,
      lists: [myList, myLottery, theirList],
      spots,
    };
  });
  const myBit = await comic.asUser.mutation(api.bits.create, { title: "My bit", tags: ["mine"], status: "new" });
  const theirBit = await rival.asUser.mutation(api.bits.create, { title: "Their bit", tags: [], status: "tight" });
  const mySetList = await comic.asUser.mutation(api.setLists.create, {
    title: "Mine",
    bitIds: [myBit],
    night: { micId: mine, date: "2026-11-25" },
  });
  const theirSetList = await rival.asUser.mutation(api.setLists.create, { title: "Theirs", bitIds: [theirBit] });
  const season = { from: "2026-01", to: "2026-12", fields: ["sets" as const] };
  const myShare = (await comic.asUser.mutation(api.season.createShare, season)).id;
  const theirShare = (await rival.asUser.mutation(api.season.createShare, season)).id;
  // One notice of the comedian's and one of the rival's: markRead reaches its logic with both.
  const notices = await t.run(async (ctx) => {
    const notice = {
      kind: "set_feedback" as const,
      title: "How did it go?",
      body: "",
      url: "/",
      push: "sent" as const,
    };
    return [
      await ctx.db.insert("notifications", { ...notice, userId: comic.userId, eventKey: "fuzz-mine" }),
      await ctx.db.insert("notifications", { ...notice, userId: rival.userId, eventKey: "fuzz-theirs" }),
    ];
  });
  const pools = {
    ids: {
      bits: [myBit, theirBit],
      setLists: [mySetList, theirSetList],
      seasonShares: [myShare, theirShare],
      notifications: notices,
      sceneItems: [mine, theirs, lost, ids.goneItem],
      performances: [mySet, theirSet, ids.goneSet],
      scheduleEntries: [entryId],
      micClaims: ids.claims,
      problemReports: [ids.report],
      _storage: [ids.photo, ids.pdf],
      users: [comic.userId, rival.userId, admin.userId],
      profiles: [comic.profileId],
      nightLists: ids.lists,
      listSpots: ids.spots,
    },
  };
  return { t, comic, admin, pools };
}
