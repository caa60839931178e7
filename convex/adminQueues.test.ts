import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { createAdmin, createSceneItem, createUser, newTest } from "./testing/test.setup";
import { expectAppError } from "./testing/test.expect";
import { allClaims, allOpenReports } from "./testing/test.adminQueues";

const page = (numItems: number, cursor: string | null = null) => ({ paginationOpts: { numItems, cursor } });

describe("the admin's report queue cannot be flooded", () => {
  test("200 'other' reports from 20 fresh accounts leave the victim's report reachable by paging", async () => {
    const t = newTest();
    const admin = await createAdmin(t);
    const victim = await createUser(t, { name: "Vera Victim" });
    const target = await createSceneItem(t, { title: "Closed Mic" });
    const real = await victim.asUser.mutation(api.reports.submit, {
      micId: target,
      kind: "other",
      note: "This mic closed for good",
    });
    const mics: Id<"sceneItems">[] = [];
    for (let i = 0; i < 10; i++) mics.push(await createSceneItem(t, { title: `Spam Mic ${i}` }));
    for (let a = 0; a < 20; a++) {
      const fresh = await createUser(t);
      for (const micId of mics) {
        await fresh.asUser.mutation(api.reports.submit, { micId, kind: "other", note: `junk ${a}` });
      }
    }

    // The first page holds the newest; the victim's report (the oldest) comes by paging.
    const first = await admin.asUser.query(api.reports.list, page(50));
    expect(first.page).toHaveLength(50);
    expect(first.isDone).toBe(false);
    expect(first.page.map((r) => r._id)).not.toContain(real);
    const all = await allOpenReports(admin.asUser, 50);
    expect(all).toHaveLength(201);
    expect(new Set(all.map((r) => r._id)).size).toBe(201);
    expect(all.at(-1)).toMatchObject({ _id: real, reporterName: "Vera Victim", micTitle: "Closed Mic" });
    expect(await admin.asUser.query(api.admin.queueCounts, {})).toEqual({
      pendingClaims: 0,
      openReports: 201,
      cap: 1000,
    });
    // Dismissing the flood from the front brings it to the first page.
    for (const r of all.slice(0, 200))
      await admin.asUser.mutation(api.reports.resolve, { id: r._id, action: "dismiss" });
    expect((await admin.asUser.query(api.reports.list, page(50))).page.map((r) => r._id)).toEqual([real]);
  }, 60_000);

  test("one comedian files one open 'other' report per mic, as for every other kind", async () => {
    const t = newTest();
    const admin = await createAdmin(t);
    const comic = await createUser(t);
    const other = await createUser(t);
    const micId = await createSceneItem(t);
    const elsewhere = await createSceneItem(t, { title: "Elsewhere" });
    const first = await comic.asUser.mutation(api.reports.submit, { micId, kind: "other", note: "Moved" });
    await expectAppError(
      comic.asUser.mutation(api.reports.submit, { micId, kind: "other", note: "Moved again" }),
      "ALREADY_EXISTS",
      "You already reported this problem",
    );
    // Another kind, another mic, another comedian: all fine.
    await comic.asUser.mutation(api.reports.submit, { micId, kind: "wrong_time" });
    await comic.asUser.mutation(api.reports.submit, { micId: elsewhere, kind: "other", note: "Moved" });
    await other.asUser.mutation(api.reports.submit, { micId, kind: "other", note: "Moved" });
    // Once the first is dismissed, the comedian may file again.
    await admin.asUser.mutation(api.reports.resolve, { id: first, action: "dismiss" });
    await comic.asUser.mutation(api.reports.submit, { micId, kind: "other", note: "Still moved" });
    expect(await allOpenReports(admin.asUser)).toHaveLength(4);
  });
});

describe("the admin's claim queue shows pending claims first", () => {
  test("a pending claim older than 600 reviewed ones is on the first page; the reviewed ones page after it", async () => {
    const t = newTest();
    const admin = await createAdmin(t);
    const owner = await createUser(t, { name: "Hana Host" });
    const micId = await createSceneItem(t, { title: "Hana's Mic" });
    const waiting = await owner.asUser.mutation(api.claims.submit, { micId, message: "I run it" });
    const spammer = await createUser(t);
    const reviewed = await t.run(async (ctx) => {
      const ids: Id<"micClaims">[] = [];
      for (let i = 0; i < 600; i++) {
        const status = (["approved", "denied", "revoked"] as const)[i % 3];
        ids.push(await ctx.db.insert("micClaims", { micId, claimantId: spammer.userId, status }));
      }
      return ids;
    });

    const pending = await admin.asUser.query(api.claims.list, { queue: "pending", ...page(25) });
    expect(pending.isDone).toBe(true);
    expect(pending.page.map((c) => [c._id, c.claimantName, c.micTitle, c.status])).toEqual([
      [waiting, "Hana Host", "Hana's Mic", "pending"],
    ]);
    const all = await allClaims(admin.asUser, 100);
    expect(all.map((c) => c._id)).toEqual([waiting, ...[...reviewed].reverse()]);
    expect((await admin.asUser.query(api.admin.queueCounts, {})).pendingClaims).toBe(1);
    // Once decided it leaves the pending queue for the reviewed one.
    // (Denied: the world's approved claims on the mic leave no room for a second host.)
    await admin.asUser.mutation(api.claims.review, { id: waiting, status: "denied" });
    expect((await admin.asUser.query(api.claims.list, { queue: "pending", ...page(25) })).page).toEqual([]);
    const newest = await admin.asUser.query(api.claims.list, { queue: "reviewed", ...page(1) });
    expect(newest.page.map((c) => [c._id, c.status])).toEqual([[reviewed.at(-1), "revoked"]]);
    expect((await allClaims(admin.asUser, 100)).map((c) => c._id)).toContain(waiting);
  }, 60_000);

  test("the badges count up to the cap and no further; page sizes are capped", async () => {
    const t = newTest();
    const admin = await createAdmin(t);
    const comic = await createUser(t);
    const micId = await createSceneItem(t);
    await t.run(async (ctx) => {
      for (let i = 0; i < 1005; i++)
        await ctx.db.insert("micClaims", { micId, claimantId: comic.userId, status: "pending" });
    });
    expect(await admin.asUser.query(api.admin.queueCounts, {})).toEqual({
      pendingClaims: 1001,
      openReports: 0,
      cap: 1000,
    });
    await expectAppError(admin.asUser.query(api.reports.list, page(1001)), "INVALID_INPUT");
    await expectAppError(admin.asUser.query(api.claims.list, { queue: "pending", ...page(Infinity) }), "INVALID_INPUT");
    await expectAppError(comic.asUser.query(api.admin.queueCounts, {}), "FORBIDDEN");
    await expectAppError(t.query(api.admin.queueCounts, {}), "NOT_SIGNED_IN");
  });
});
