import { afterEach, describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { DELETE_BATCH_SIZE } from "./model/account";
import { expectAppError } from "./testing/test.expect";
import {
  communityTotals,
  createSceneItem,
  createUser,
  newTest,
  type TestBackend,
  type TestUser,
} from "./testing/test.setup";

const HOUR = 60 * 60 * 1000;

afterEach(() => {
  vi.useRealTimers();
});

async function storeImage(t: TestBackend) {
  return await t.run(async (ctx) => {
    const id = await ctx.storage.store(new Blob([new Uint8Array(64)], { type: "image/png" }));
    await (ctx.db as unknown as { patch: (t: string, id: string, v: object) => Promise<void> }).patch("_storage", id, {
      contentType: "image/png",
    });
    return id;
  });
}

/**
 * Gives a comedian one of everything: two sets (one at `mic`), a schedule
 * entry, a favourite, a check-in, a claim, a report, a mic they added, a
 * photo, a password account with a verification code and a refresh token.
 */
async function livedIn(t: TestBackend, comic: TestUser, mic: Id<"sceneItems">) {
  const { asUser, userId, sessionId } = comic;
  await asUser.mutation(api.performances.log, {
    minutes: 7,
    performedAt: Date.now() - HOUR,
    tags: ["riff"],
    sceneItemId: mic,
  });
  await asUser.mutation(api.performances.log, {
    minutes: 4,
    performedAt: Date.now() - 30 * HOUR,
    tags: [],
    venueName: "Basement Show",
    notes: "new closer",
    // Sent from the offline outbox: its key is the comedian's too.
    clientKey: "outbox-0123456789abcdef",
  });
  await asUser.mutation(api.schedule.add, { sceneItemId: mic });
  await asUser.mutation(api.favorites.add, { sceneItemId: mic });
  await asUser.mutation(api.claims.submit, { micId: mic, message: "I host this" });
  await asUser.mutation(api.reports.submit, { micId: mic, kind: "wrong_time" });
  const added = await createSceneItem(t, { title: "Their Mic", venueName: "Their Bar", createdBy: userId });
  const photo = await storeImage(t);
  await asUser.mutation(api.profiles.setPhoto, { storageId: photo });
  await t.run(async (ctx) => {
    await ctx.db.insert("checkIns", {
      userId,
      sceneItemId: mic,
      checkedInAt: Date.now() - HOUR,
      localDate: "2026-01-01",
    });
    const item = (await ctx.db.get("sceneItems", mic))!;
    await ctx.db.patch("sceneItems", mic, { checkInCount: item.checkInCount + 1 });
    const accountId = await ctx.db.insert("authAccounts", {
      userId,
      provider: "password",
      providerAccountId: `${userId}@example.com`,
    });
    await ctx.db.insert("authVerificationCodes", {
      accountId,
      provider: "password",
      code: "123456",
      expirationTime: Date.now() + HOUR,
    });
    await ctx.db.insert("authRefreshTokens", { sessionId, expirationTime: Date.now() + HOUR });
  });
  return { added, photo };
}

/** Every row in the database that still names `userId`, by table. */
async function rowsOf(t: TestBackend, userId: Id<"users">) {
  return await t.run(async (ctx) => {
    const found: Record<string, number> = {};
    const tables = [
      "users",
      "authSessions",
      "authAccounts",
      "authRefreshTokens",
      "authVerificationCodes",
      "profiles",
      "userStats",
      "performanceDays",
      "performanceWeeks",
      "venueVisits",
      "performances",
      "sceneItems",
      "checkIns",
      "favorites",
      "scheduleEntries",
      "micFollowers",
      "userBadges",
      "micClaims",
      "problemReports",
      "setClientKeys",
    ] as const;
    for (const table of tables) {
      // A test may scan whole tables: it looks for any trace of the comedian.
      const docs = await ctx.db.query(table).collect();
      const hits = docs.filter((d) => JSON.stringify(d).includes(userId));
      if (hits.length > 0) found[table] = hits.length;
    }
    return found;
  });
}

describe("account.exportData", () => {
  test("returns everything the comedian owns and nobody else's", async () => {
    const t = newTest();
    const mic = await createSceneItem(t, { title: "Monday Mic", venueName: "The Creek" });
    const comic = await createUser(t, {
      email: "export.me@example.com",
      name: "Export Me",
      profile: { defaultCity: "Austin" },
    });
    const other = await createUser(t);
    await other.asUser.mutation(api.performances.log, {
      minutes: 9,
      performedAt: Date.now() - HOUR,
      tags: [],
      sceneItemId: mic,
    });
    await livedIn(t, comic, mic);

    const data = await comic.asUser.query(api.account.exportData, {});
    expect(data.account).toMatchObject({ email: "export.me@example.com", name: "Export Me" });
    expect(data.profile).toMatchObject({ displayName: "Export Me", defaultCity: "Austin", weeklyGoalMinutes: 15 });
    expect(data.profile?.photoUrl).toEqual(expect.any(String));
    expect(data.stats).toMatchObject({ totalSets: 2, totalMinutes: 11 });
    expect(data.sets).toHaveLength(2);
    expect(data.sets[0]).toMatchObject({
      minutes: 7,
      venueName: "The Creek",
      tags: ["riff"],
      mic: { title: "Monday Mic" },
    });
    expect(data.sets[1]).toMatchObject({ minutes: 4, venueName: "Basement Show", notes: "new closer" });
    expect(data.schedule).toMatchObject([{ mic: { title: "Monday Mic" } }]);
    expect(data.favorites).toMatchObject([{ mic: { venueName: "The Creek" } }]);
    expect(data.checkIns).toHaveLength(1);
    expect(data.badges.map((b) => b.code)).toContain("first_set");
    expect(data.claims).toMatchObject([{ message: "I host this", status: "pending" }]);
    expect(data.problemReports).toMatchObject([{ kind: "wrong_time" }]);
    expect(data.micsAdded).toMatchObject([{ title: "Their Mic", venueName: "Their Bar" }]);
    expect(JSON.stringify(data)).not.toContain(other.userId);
  });

  test("needs a signed-in caller", async () => {
    const t = newTest();
    await expectAppError(t.query(api.account.exportData, {}), "NOT_SIGNED_IN", /sign in/i);
  });
});

describe("account.deleteAccount", () => {
  test("leaves nothing of the comedian behind, keeps the community's mics and the site figures right", async () => {
    const t = newTest();
    const mic = await createSceneItem(t, { title: "Monday Mic" });
    const comic = await createUser(t);
    const other = await createUser(t);
    await other.asUser.mutation(api.performances.log, {
      minutes: 9,
      performedAt: Date.now() - HOUR,
      tags: [],
      sceneItemId: mic,
    });
    await other.asUser.mutation(api.favorites.add, { sceneItemId: mic });
    const { added, photo } = await livedIn(t, comic, mic);
    expect(await t.query(api.community.stats, {})).toMatchObject({ comedians: 2, venues: 2 });
    const minutesBefore = (await communityTotals(t)).minutesLogged;
    expect(minutesBefore).toBe(9 + 11);

    expect(await comic.asUser.mutation(api.account.deleteAccount, { confirm: "DELETE" })).toEqual({ done: true });

    expect(await rowsOf(t, comic.userId)).toEqual({});
    expect(await t.run(async (ctx) => await ctx.db.system.get("_storage", photo))).toBeNull();
    // Their mic stays for the community, no longer linked to them.
    const kept = await t.run(async (ctx) => await ctx.db.get("sceneItems", added));
    expect(kept).toMatchObject({ title: "Their Mic", status: "active" });
    expect(kept?.createdBy).toBeUndefined();
    const shared = await t.run(async (ctx) => await ctx.db.get("sceneItems", mic));
    expect(shared?.checkInCount).toBe(0);
    // The other comedian is untouched.
    expect(await other.asUser.query(api.history.stats, {})).toEqual({
      totalSets: 1,
      totalMinutes: 9,
      averageMinutes: 9,
    });
    expect(await other.asUser.query(api.favorites.list, {})).toHaveLength(1);
    expect(await t.query(api.community.stats, {})).toMatchObject({ comedians: 1, venues: 2 });
    expect((await communityTotals(t)).minutesLogged).toBe(9);
    // The old token finds no account and cannot bring the profile back.
    expect(await comic.asUser.query(api.profiles.me, {})).toBeNull();
    await expectAppError(comic.asUser.mutation(api.profiles.ensure, {}), "NOT_SIGNED_IN", /Account not found\./);
  });

  test("after Delete Account the same token cannot log a set, create a mic, recreate a profile or check in", async () => {
    // Security issue 13 item 6: the session JWT outlives the account by up to an hour.
    const t = newTest();
    const mic = await createSceneItem(t, { title: "Monday Mic" });
    const comic = await createUser(t);
    const bystander = await createUser(t);
    await comic.asUser.mutation(api.account.deleteAccount, { confirm: "DELETE" });
    const gone = /Account not found/;
    await expectAppError(
      comic.asUser.mutation(api.performances.log, {
        minutes: 5,
        performedAt: Date.now() - HOUR,
        tags: [],
        sceneItemId: mic,
      }),
      "NOT_SIGNED_IN",
      gone,
    );
    await expectAppError(
      comic.asUser.mutation(api.events.create, {
        venue: { venueName: "Ghost Bar", latitude: 40.7, longitude: -73.9 },
        details: { type: "open_mic", title: "Ghost Mic", dayOfWeek: 2, startTimeLocal: "20:00", recurrence: "weekly" },
      }),
      "NOT_SIGNED_IN",
      gone,
    );
    await expectAppError(comic.asUser.mutation(api.profiles.ensure, {}), "NOT_SIGNED_IN", gone);
    await expectAppError(
      comic.asUser.mutation(api.profiles.update, { displayName: "Ghost", weeklyGoalMinutes: 10 }),
      "NOT_SIGNED_IN",
      gone,
    );
    // A public mutation sees an anonymous caller.
    await expectAppError(
      comic.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mic, latitude: 40.7411, longitude: -73.9897 }),
      "NOT_SIGNED_IN",
      /sign in/,
    );
    expect(await rowsOf(t, comic.userId)).toEqual({});
    const items = await t.run(async (ctx) => ctx.db.query("sceneItems").collect());
    expect(items.map((i) => i.title)).toEqual(["Monday Mic"]);
    // Nobody else is affected.
    expect(await bystander.asUser.query(api.profiles.me, {})).not.toBeNull();
  });

  test("a long history is removed in scheduled batches", async () => {
    vi.useFakeTimers();
    const t = newTest();
    const comic = await createUser(t, { withStats: true });
    const sets = DELETE_BATCH_SIZE + 200;
    await t.run(async (ctx) => {
      for (let i = 0; i < sets; i++) {
        await ctx.db.insert("performances", {
          userId: comic.userId,
          minutes: 1,
          performedAt: i * HOUR,
          performanceDate: "2026-01-01",
          tags: [],
          venueName: "Bulk Bar",
        });
      }
    });
    expect(await comic.asUser.mutation(api.account.deleteAccount, { confirm: "DELETE" })).toEqual({ done: false });
    expect(Object.keys(await rowsOf(t, comic.userId))).toEqual(["performances"]);
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    expect(await rowsOf(t, comic.userId)).toEqual({});
  });

  test("asks for the typed confirmation and a signed-in caller", async () => {
    const t = newTest();
    const comic = await createUser(t);
    await expect(comic.asUser.mutation(api.account.deleteAccount, { confirm: "delete" as "DELETE" })).rejects.toThrow();
    expect(await comic.asUser.query(api.profiles.me, {})).not.toBeNull();
    await expectAppError(t.mutation(api.account.deleteAccount, { confirm: "DELETE" }), "NOT_SIGNED_IN", /sign in/i);
  });
});
